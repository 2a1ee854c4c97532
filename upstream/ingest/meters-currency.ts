// The meters projection per currency (migration 20): each entry's meter deltas are added to the
// sums of the currency its table held when it journalled it (currency_spans, the span in force at
// its seq), never to one sum per table, scope and name. Until then a table that took notes in Hong
// Kong dollars and then in patacas showed one total of both in patacas on its page, in
// /v1/terminals/:id/meters and in the floor's /metrics.
import { arrayOf, intOf, meterFits } from '../backoffice/journal-figures.js';
import type { Sql } from '../sql.js';
import { isSafeMeter, meterPastSafe, type FreshRows } from './fresh-rows.js';
import { entryMetersCountSql, ledgerMeterNameSql } from './report-fields.js';

const SAFE = Number.MAX_SAFE_INTEGER;

/** A table's currency (table-currency.ts's TableCurrency, which imports this file). */
interface Currency {
  code: string;
  exponent: number;
}

/** A meter triple `m` of a journal row as the ingest took it: [text, text, safe integer]. */
const counted = (m: string) => `(${meterFits(m)} AND ${intOf(`${m}->2`)} BETWEEN -${SAFE} AND ${SAFE})`;

/**
 * Migration 20: `meters` keyed by currency too (`code` '' and `exponent` −1: none named yet). A
 * meter of a table that held one currency (or none) keeps its whole value in it; of a table that
 * changed, the parts journalled before its last span are read from the journal, each in its span's
 * currency, and the rest (the stored value less them) is the last span's: the totals are unchanged.
 */
export const METERS_CURRENCY_SQL = `
  CREATE TABLE meters_by_currency (
    terminal_id text NOT NULL REFERENCES terminals,
    code text NOT NULL CHECK (code = '' OR code ~ '^[A-Z]{3}$'),
    exponent int NOT NULL CHECK (exponent BETWEEN -1 AND 4),
    scope text NOT NULL,
    name text NOT NULL,
    value bigint NOT NULL,
    CHECK ((code = '') = (exponent = -1)),
    PRIMARY KEY (terminal_id, code, exponent, scope, name)
  );
  INSERT INTO meters_by_currency (terminal_id, code, exponent, scope, name, value)
    SELECT j.terminal_id, s.code, s.exponent, m->>0, m->>1, SUM(${intOf('m->2')})::bigint
    FROM journal j
      JOIN (SELECT terminal_id, MAX(from_seq) AS last FROM currency_spans GROUP BY terminal_id) l ON l.terminal_id = j.terminal_id AND j.seq < l.last
      JOIN LATERAL (SELECT code, exponent FROM currency_spans x WHERE x.terminal_id = j.terminal_id AND x.from_seq <= j.seq ORDER BY x.from_seq DESC LIMIT 1) s ON true,
      jsonb_array_elements(${arrayOf("j.doc->'meters'")}) m
    WHERE ${counted('m')}
    GROUP BY 1, 2, 3, 4, 5
    HAVING SUM(${intOf('m->2')}) <> 0;
  INSERT INTO meters_by_currency (terminal_id, code, exponent, scope, name, value)
    SELECT m.terminal_id, COALESCE(s.code, ''), COALESCE(s.exponent, -1), m.scope, m.name, m.value - COALESCE(SUM(e.value), 0)
    FROM meters m
      LEFT JOIN LATERAL (SELECT code, exponent FROM currency_spans x WHERE x.terminal_id = m.terminal_id ORDER BY x.from_seq DESC LIMIT 1) s ON true
      LEFT JOIN meters_by_currency e ON e.terminal_id = m.terminal_id AND e.scope = m.scope AND e.name = m.name
    GROUP BY m.terminal_id, s.code, s.exponent, m.scope, m.name, m.value
    HAVING m.value - COALESCE(SUM(e.value), 0) <> 0 OR COUNT(e.value) = 0
    ON CONFLICT (terminal_id, code, exponent, scope, name) DO UPDATE SET value = meters_by_currency.value + excluded.value;
  DROP TABLE meters;
  ALTER TABLE meters_by_currency RENAME TO meters;
`;

/**
 * The batch's meter deltas added to the table's projection, each in the currency of its entry's
 * seq. The projection stays a safe integer as a ledger's meters do: past it the batch is refused
 * (the transaction rolled back), never stored to be read back inexactly.
 */
export async function projectMeters(tx: Sql, terminal: string, rows: Pick<FreshRows, 'meters' | 'meterRows'>): Promise<void> {
  const { meters, meterRows: u } = rows;
  const r = await tx.query<{ scope: string; name: string; value: string }>(
    `INSERT INTO meters (terminal_id, code, exponent, scope, name, value)
     SELECT $1, COALESCE(c.code, ''), COALESCE(c.exponent, -1), u.scope, u.name, SUM(u.delta)::bigint
     FROM unnest($2::bigint[], $3::text[], $4::text[], $5::bigint[]) AS u(seq, scope, name, delta)
       LEFT JOIN LATERAL (SELECT s.code, s.exponent FROM currency_spans s WHERE s.terminal_id = $1 AND s.from_seq <= u.seq ORDER BY s.from_seq DESC LIMIT 1) c ON true
     GROUP BY 2, 3, 4, 5
     ON CONFLICT (terminal_id, code, exponent, scope, name) DO UPDATE SET value = meters.value + excluded.value
     RETURNING scope, name, value::text AS value`,
    [terminal, u.seq, u.scope, u.name, u.delta],
  );
  for (const row of r.rows) {
    const value = BigInt(row.value);
    if (!isSafeMeter(value)) throw meterPastSafe(meters.get(`${row.scope}\u0000${row.name}`)?.seq ?? 0, row.scope, row.name, value);
  }
}

/**
 * A span of currency begun (or changed) at `fromSeq`: the meter deltas of the entries from it on
 * (up to a later span, of which there is none today), already added to `before`'s sums when they
 * were ingested, are moved to `after`'s. A change is dated by the table's head when it built the
 * heartbeat, so batches that landed in between were projected in the old currency; a table's first
 * currency takes everything journalled before it was named.
 * A note or level the projection did not take (meter-kinds.ts) has no sum of `before` to move, and is left where it is.
 */
export async function moveMeters(tx: Sql, terminal: string, fromSeq: number, before: Currency | null, after: Currency): Promise<void> {
  if (before && before.code === after.code && before.exponent === after.exponent) return;
  if (!before && fromSeq <= 1 && (await tx.query('SELECT 1 FROM currency_spans WHERE terminal_id = $1 LIMIT 1', [terminal])).rows.length === 0)
    return firstCurrency(tx, terminal, after);
  const [code, exponent] = before ? [before.code, before.exponent] : ['', -1];
  await tx.query(
    `WITH d AS (
       SELECT m->>0 AS scope, m->>1 AS name, SUM(${intOf('m->2')}) AS v
       FROM journal j, jsonb_array_elements(${arrayOf("j.doc->'meters'")}) m
       WHERE j.terminal_id = $1 AND j.seq >= $2 AND ${counted('m')} AND ${ledgerMeterNameSql('m')} AND ${entryMetersCountSql('j.doc')}
         AND (NOT (m->>1 LIKE 'billsIn.%' OR m->>1 LIKE 'progressive%.%') OR EXISTS (SELECT 1 FROM meters e
           WHERE e.terminal_id = $1 AND e.code = $3 AND e.exponent = $4 AND e.scope = m->>0 AND e.name = m->>1))
         AND NOT EXISTS (SELECT 1 FROM currency_spans s WHERE s.terminal_id = $1 AND s.from_seq > $2 AND s.from_seq <= j.seq)
       GROUP BY 1, 2)
     INSERT INTO meters (terminal_id, code, exponent, scope, name, value)
     SELECT $1, x.code, x.exponent, d.scope, d.name, (x.sign * d.v)::bigint
     FROM d, (VALUES ($3::text, $4::int, -1), ($5::text, $6::int, 1)) AS x(code, exponent, sign)
     WHERE d.v <> 0
     ON CONFLICT (terminal_id, code, exponent, scope, name) DO UPDATE SET value = meters.value + excluded.value`,
    [terminal, fromSeq, code, exponent, after.code, after.exponent],
  );
  // What is left of the old currency's sums at zero was all moved: no line of it.
  await tx.query('DELETE FROM meters WHERE terminal_id = $1 AND code = $2 AND exponent = $3 AND value = 0', [terminal, code, exponent]);
}

/**
 * A table's first currency, from its first entry on, no span before it: every delta it journalled
 * was projected with none, and each row held with none is moved as it stands. Read back from the
 * journal (as a later change is), the first currency of a table that ran long without naming one
 * read every entry in the heartbeat's transaction: on PGlite 0.55 ms an entry, 11 s for 20,000
 * (tests/security/upstream-first-currency-cost.test.ts), the upstream's one connection held meanwhile.
 */
async function firstCurrency(tx: Sql, terminal: string, after: Currency): Promise<void> {
  await tx.query(
    `INSERT INTO meters (terminal_id, code, exponent, scope, name, value)
     SELECT terminal_id, $2, $3, scope, name, value FROM meters WHERE terminal_id = $1 AND code = ''
     ON CONFLICT (terminal_id, code, exponent, scope, name) DO UPDATE SET value = meters.value + excluded.value`,
    [terminal, after.code, after.exponent],
  );
  await tx.query("DELETE FROM meters WHERE terminal_id = $1 AND code = ''", [terminal]);
}
