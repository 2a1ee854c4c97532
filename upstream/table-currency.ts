import { z } from 'zod';
import { raiseAlarm } from './alarm.js';
import type { Db, Sql } from './sql.js';
import { moveMeters } from './ingest/meters-currency.js';
import { CURRENCY_NAMING } from '../terms/currency-naming.js';

/**
 * A table's currency as its heartbeat names it (issue 49): the ISO 4217 code and the minor-unit
 * exponent of its configuration (2 for the pataca's avos and the Hong Kong dollar's cents). Every
 * amount the upstream holds of a table is integer minor units of this currency; the back office
 * labels and totals them by it.
 */
export const TableCurrency = z.strictObject({ code: z.string().regex(/^[A-Z]{3}$/), exponent: z.number().int().min(0).max(4) }).meta({ id: 'TableCurrency' });
export type TableCurrency = z.infer<typeof TableCurrency>;

/** Migration 8: the currency held per table, and how far its journal was checked against it. */
export const TABLE_CURRENCY_SQL = `
  ALTER TABLE terminals ADD COLUMN currency text CHECK (currency ~ '^[A-Z]{3}$');
  ALTER TABLE terminals ADD COLUMN currency_exponent int CHECK (currency_exponent BETWEEN 0 AND 4);
  ALTER TABLE terminals ADD COLUMN currency_since timestamptz;
  -- The journal is checked against the held currency up to this seq (only entries past it are read again).
  ALTER TABLE terminals ADD COLUMN currency_checked_seq bigint NOT NULL DEFAULT 0;
  ALTER TABLE terminals ADD CONSTRAINT terminals_currency_whole CHECK ((currency IS NULL) = (currency_exponent IS NULL));
`;

/**
 * Migration 13: a table's currency by journal seq. Each span holds from its `from_seq` up to the
 * next span's: the currency the table held when it journalled those entries, so a report labels
 * (and totals) each entry by the currency it was in, never by the table's currency of now. A table
 * that held a currency before it is taken as having held it from seq 1.
 */
export const CURRENCY_SPANS_SQL = `
  CREATE TABLE currency_spans (
    terminal_id text NOT NULL REFERENCES terminals,
    from_seq bigint NOT NULL CHECK (from_seq > 0),
    code text NOT NULL CHECK (code ~ '^[A-Z]{3}$'),
    exponent int NOT NULL CHECK (exponent BETWEEN 0 AND 4),
    since timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (terminal_id, from_seq)
  );
  INSERT INTO currency_spans (terminal_id, from_seq, code, exponent, since)
    SELECT terminal_id, 1, currency, currency_exponent, COALESCE(currency_since, now()) FROM terminals WHERE currency IS NOT NULL;
`;

/**
 * SQL: the currency in force at the seq of the journal row `j` (its terminal's span from the
 * greatest seq not past it), as `alias.code` and `alias.exponent`, both NULL for a table that never
 * named one. A join to follow the journal in a FROM list: each span with the next one's start (a
 * window), joined by range. A lateral lookup of the latest span per row read the same and took the
 * report and the plots about twice as long over 100,000 entries (PGlite).
 */
export const currencyAt = (j: string, alias = 'c'): string =>
  `LEFT JOIN (SELECT s.terminal_id, s.from_seq, lead(s.from_seq) OVER (PARTITION BY s.terminal_id ORDER BY s.from_seq) AS to_seq, s.code, s.exponent
     FROM currency_spans s) ${alias} ON ${alias}.terminal_id = ${j}.terminal_id AND ${j}.seq >= ${alias}.from_seq AND (${alias}.to_seq IS NULL OR ${j}.seq < ${alias}.to_seq)`;

/**
 * The most entries a table's heartbeat is believed to have yet to send (its `sync.lagEntries`, and
 * its head past the upstream's): a table stops new bets past its `offlineLimit.maxUnsyncedEntries`,
 * at most 10,000,000 (host/config/table-config.ts), and as many again is room for what it journals
 * after. The schema takes any safe integer; taken as said, 2^53 − 1 put a change of currency at seq
 * 2^53 + 10 (a float past exactness), every later entry of the table labelled in the old currency
 * and never read against the held one again (an upstream review).
 */
export const MAX_LAG_ENTRIES = 20_000_000;

/** A currency as SQL reads it (NULL columns: none named). */
export const currencyOf = (x: { code: string | null; exponent: number | null }): TableCurrency | null =>
  x.code === null ? null : { code: x.code, exponent: Number(x.exponent) };

/** A table and a currency as one key: a report's line, a plot's series (terminal ids hold no NUL). */
export const currencyKey = (terminalId: string, currency: TableCurrency | null): string =>
  [terminalId, currency?.code ?? '', currency?.exponent ?? ''].join('\u0000');

/** The order of a table's lines of different currencies: by code, then exponent; none named last. */
export const currencyOrder = (a: TableCurrency | null, b: TableCurrency | null): number =>
  a === null || b === null ? Number(a === null) - Number(b === null) : a.code.localeCompare(b.code) || a.exponent - b.exponent;

/**
 * The entries that move money in the table's currency, and where each names it (terms/currency-naming.ts,
 * the list the kiosk's ledger reads too): notes credited, tickets printed or taken in, a cashbox
 * counted, credit moved between tables. A note refused or returned names the currency it claimed,
 * which is no money of the table's and is not read. One `WHEN` per path, its types together.
 */
const MONEY_CURRENCY = `CASE
    ${[...new Set(CURRENCY_NAMING.map((n) => n.path.join('.')))]
      .map((key) => {
        const path = key.split('.');
        const types = CURRENCY_NAMING.filter((n) => n.path.join('.') === key).map((n) => `'${n.type}'`);
        const read = `doc${path
          .slice(0, -1)
          .map((k) => `->'${k}'`)
          .join('')}->>'${path.at(-1)}'`;
        return `WHEN type IN (${types.join(', ')}) THEN ${read}`;
      })
      .join('\n    ')}
  END`;

/**
 * A heartbeat's currency, in one transaction under the terminal's row lock: first the table's
 * synced journal is checked against the currency held (an entry moving money in another raises
 * one `currency-mismatch` alarm while it stands); then the first currency reported is taken, and a
 * different one raises `currency-changed` (before, after) and is taken from now on: the table was
 * configured so, and its new amounts are in it. The entries journalled before the change (those the
 * upstream holds and those the table said it has yet to send, `lagEntries`) are not read against it.
 * A further change waits until a person has acknowledged the last one's alarm (`changeWaits`).
 */
export async function noteCurrency(db: Db, terminalId: string, reported: TableCurrency | undefined, lagEntries: number, tableHead?: number): Promise<void> {
  // Most heartbeats change nothing (the same currency, no entry since the last check): one read,
  // no transaction, which on PGlite would queue behind the batches being ingested.
  const seen = await db.query<{ currency: string | null; currency_exponent: number | null; checked: number; head: number; waiting: number | null }>(
    'SELECT t.currency, t.currency_exponent, t.currency_checked_seq AS checked, h.seq AS head, t.currency_waiting_from AS waiting FROM terminals t JOIN heads h USING (terminal_id) WHERE t.terminal_id = $1',
    [terminalId],
  );
  const now = seen.rows[0];
  if (!now || (now.currency === null && !reported)) return;
  const same = !reported || (now.currency === reported.code && Number(now.currency_exponent) === reported.exponent);
  // (A table back to the currency held forgets the change it waited with, below.)
  if (same && Number(now.head) <= Number(now.checked) && (now.waiting === null || !reported)) return;
  await db.transaction(async (tx) => {
    const r = await tx.query<{ currency: string | null; currency_exponent: number | null; checked: number; head: number; waiting: number | null }>(
      `SELECT t.currency, t.currency_exponent, t.currency_checked_seq AS checked, h.seq AS head, t.currency_waiting_from AS waiting
       FROM terminals t JOIN heads h USING (terminal_id) WHERE t.terminal_id = $1 FOR UPDATE OF t`,
      [terminalId],
    );
    const row = r.rows[0];
    if (!row) return;
    const held = row.currency === null ? null : { code: row.currency, exponent: Number(row.currency_exponent) };
    const head = Number(row.head);
    let checked = Number(row.checked);
    const differs = reported !== undefined && held !== null && (held.code !== reported.code || held.exponent !== reported.exponent);
    const waits = differs && (await changeWaits(tx, terminalId));
    const changed = differs && !waits;
    // Where the entries journalled before the heartbeat was built end: the table's own head then, when
    // it says (batches that landed since were journalled after it, in the new currency); else the
    // head here now and what the table said it had yet to send (the two read at different moments).
    // Never past those two: a head taken as said put a span at seq 10^15 (a review's F5).
    // Never past what a table can hold unsent either (MAX_LAG_ENTRIES): the lag is the table's word.
    const before = Math.min(tableHead ?? Number.POSITIVE_INFINITY, head + Math.min(Math.max(0, lagEntries), MAX_LAG_ENTRIES));
    // A change begins where the table first said it (when it waited, the heartbeat it was first said at).
    const waitingFrom = differs && row.waiting !== null ? Number(row.waiting) : null;
    const lastOld = waitingFrom !== null ? waitingFrom - 1 : before;
    // A change (taken or waiting) the table dates by its head: only the entries up to it are the old currency's to check.
    const checkTo = differs ? Math.min(head, lastOld) : head;
    if (held && checkTo > checked) {
      await checkJournal(tx, terminalId, held.code, checked, checkTo);
      checked = checkTo;
    }
    // A heartbeat that names no currency leaves a waiting change as it was.
    let waiting: number | null = reported === undefined && row.waiting !== null ? Number(row.waiting) : null;
    if (reported && !held) {
      await takeCurrency(tx, terminalId, reported);
      await spanFrom(tx, terminalId, 1, reported);
    } else if (reported && held && changed) {
      await raiseAlarm(tx, terminalId, 'currency-changed', { before: held, after: reported });
      await takeCurrency(tx, terminalId, reported);
      checked = Math.max(checked, lastOld);
      // The entries up to `checked` were journalled before the change; the next is the first in the new currency.
      await spanFrom(tx, terminalId, checked + 1, reported);
    } else if (waits) waiting = waitingFrom ?? Math.max(checked, before) + 1;
    if (held || reported)
      await tx.query('UPDATE terminals SET currency_checked_seq = $2, currency_waiting_from = $3 WHERE terminal_id = $1', [terminalId, checked, waiting]);
  });
}

/**
 * Migration 15: where a change of currency that waits for a person begins (`changeWaits`). The
 * table said so at a heartbeat; its entries from then on are in the new currency, however long
 * the acknowledgement takes. Before, each heartbeat while it waited moved the check on to the
 * head, and the change once taken began at the head then: a table set to HKD by mistake and put
 * back to MOP had every MOP entry until the acknowledgement read as HKD, for good (a review).
 */
export const CURRENCY_WAITING_SQL = `ALTER TABLE terminals ADD COLUMN currency_waiting_from bigint CHECK (currency_waiting_from > 0);`;

async function takeCurrency(tx: Sql, terminalId: string, currency: TableCurrency): Promise<void> {
  await tx.query('UPDATE terminals SET currency = $2, currency_exponent = $3, currency_since = now() WHERE terminal_id = $1', [
    terminalId,
    currency.code,
    currency.exponent,
  ]);
}

/**
 * Whether the table's last change of currency still waits for a person: a `currency-changed`
 * alarm of it, standing, that nobody has acknowledged. Each change taken adds a span of the
 * table's currency by seq, which every report compares its rows with; heartbeats alternating two
 * currencies added one each (1,999 spans took the day's report from 52 ms to 667 ms, a review's
 * F5). Until it is acknowledged, the currency held stands and the journal is read against it (an
 * entry in the other raises `currency-mismatch`); the heartbeat after the acknowledgement takes the change.
 */
async function changeWaits(tx: Sql, terminalId: string): Promise<boolean> {
  const r = await tx.query(
    `SELECT 1 FROM alarms a WHERE a.terminal_id = $1 AND a.kind = 'currency-changed' AND a.cleared_at IS NULL
       AND NOT EXISTS (SELECT 1 FROM alarm_acks k WHERE k.alarm_id = a.id) LIMIT 1`,
    [terminalId],
  );
  return r.rows.length > 0;
}

/**
 * The table's currency from `fromSeq` on (migration 13). Two changes before any entry was
 * journalled between them start at the same seq: the later one stands.
 */
async function spanFrom(tx: Sql, terminalId: string, fromSeq: number, currency: TableCurrency): Promise<void> {
  const was = await tx.query<{ code: string; exponent: number }>(
    'SELECT code, exponent FROM currency_spans WHERE terminal_id = $1 AND from_seq <= $2 ORDER BY from_seq DESC LIMIT 1',
    [terminalId, fromSeq],
  );
  const before = was.rows[0];
  // The entries from `fromSeq` on already projected in the currency before it are moved to this one (migration 20).
  await moveMeters(tx, terminalId, fromSeq, before ? { code: before.code, exponent: Number(before.exponent) } : null, currency);
  await tx.query(
    `INSERT INTO currency_spans (terminal_id, from_seq, code, exponent) VALUES ($1, $2, $3, $4)
     ON CONFLICT (terminal_id, from_seq) DO UPDATE SET code = EXCLUDED.code, exponent = EXCLUDED.exponent, since = EXCLUDED.since`,
    [terminalId, fromSeq, currency.code, currency.exponent],
  );
}

/** The first entry past `after` (up to `upTo`) moving money in another currency than `held`: one open alarm per terminal. */
async function checkJournal(tx: Sql, terminalId: string, held: string, after: number, upTo: number): Promise<void> {
  const r = await tx.query<{ seq: number; type: string; currency: string }>(
    `SELECT seq, type, currency FROM (SELECT seq, type, ${MONEY_CURRENCY} AS currency FROM journal WHERE terminal_id = $1 AND seq > $2 AND seq <= $4) m
     WHERE currency IS NOT NULL AND currency <> $3 ORDER BY seq LIMIT 1`,
    [terminalId, after, held, upTo],
  );
  const foreign = r.rows[0];
  if (!foreign) return;
  const open = await tx.query("SELECT 1 FROM alarms WHERE terminal_id = $1 AND kind = 'currency-mismatch' AND cleared_at IS NULL", [terminalId]);
  if (open.rows.length > 0) return;
  await raiseAlarm(tx, terminalId, 'currency-mismatch', { held, journal: foreign.currency, seq: Number(foreign.seq), type: foreign.type });
}
