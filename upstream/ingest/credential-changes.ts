// Every change of who may talk to a table reaches the floor as an alarm: its peer tables'
// credentials (`peer.credential` → `peer-credential`) and its remote stations'
// (`station.credential` → `station-credential`). Each is made by two people in service mode, but a
// second process of the kiosk user can append such an entry through the ledger's own code and
// write the files to match: the table's checks and its witness pass it (docs/security.md,
// "Service accounts", last paragraph). Two colluding staff pass them too. The upstream's copy of
// the journal is where the floor hears of it. Raised in the batch's transaction, as the kiosk
// faults are (kiosk-faults.ts), and bounded the same way per batch.
import { z } from 'zod';
import { raiseAlarm } from '../alarm.js';
import type { Sql } from '../sql.js';
import type { JournalColumns } from './fresh-rows.js';
import { FAULT_ALARMS_EACH, payloadOf } from './kiosk-faults.js';

export const PEER_CREDENTIAL_ALARM = 'peer-credential';
export const STATION_CREDENTIAL_ALARM = 'station-credential';

/** How many peers or stations an adoption's one alarm lists (its count says how many there were). */
export const ADOPTED_LISTED = 100;

/**
 * What is read of an entry (ledger/service-payloads.ts, which the upstream does not import). Not
 * strict: an entry with a field more is refused by the table's reading, and alarming it costs nothing.
 * `held`: whether the entry leaves a credential in force (the host's fold: `digest` / `credential`
 * or null).
 */
export interface Read {
  subject: string | number;
  action: string;
  by: string[];
  held: boolean;
}

export const PEER_ACTIONS = ['enrol', 'revoke', 'adopt', 'issue', 'withdraw', 'none'] as const;
export const STATION_ACTIONS = ['enrol', 'revoke', 'adopt', 'none'] as const;

const PeerEntry = z.object({
  table: z.string(),
  action: z.enum(PEER_ACTIONS),
  by: z.array(z.string()).min(1),
  digest: z.string().optional(),
});
const StationEntry = z.object({
  /** Absent on `none` only (a first start that found no station in force): it names none. */
  station: z.number().int().optional(),
  action: z.enum(STATION_ACTIONS),
  by: z.array(z.string()).min(1),
  credential: z.string().optional(),
});

interface Kind {
  type: 'peer.credential' | 'station.credential';
  alarm: string;
  /** The detail's name for whom the credential is of, and for the adoption's list of them. */
  subject: 'table' | 'station';
  listed: 'tables' | 'stations';
  read(payload: unknown): Read | null;
  /** The earlier entries of these subjects (journal_type index; the subject as text). */
  before: string;
}

const KINDS: readonly Kind[] = [
  {
    type: 'peer.credential',
    alarm: PEER_CREDENTIAL_ALARM,
    subject: 'table',
    listed: 'tables',
    read: (payload) => {
      const p = PeerEntry.safeParse(payload);
      return p.success
        ? { subject: p.data.table.slice(0, 64), action: p.data.action, by: p.data.by, held: p.data.action !== 'revoke' && p.data.digest !== undefined }
        : null;
    },
    before: `doc->'payload'->>'table'`,
  },
  {
    type: 'station.credential',
    alarm: STATION_CREDENTIAL_ALARM,
    subject: 'station',
    listed: 'stations',
    read: (payload) => {
      const p = StationEntry.safeParse(payload);
      if (!p.success || (p.data.station === undefined) !== (p.data.action === 'none')) return null;
      return { subject: p.data.station ?? '', action: p.data.action, by: p.data.by, held: p.data.action !== 'revoke' && p.data.credential !== undefined };
    },
    before: `doc->'payload'->>'station'`,
  },
];

/** An entry of `type` as the upstream reads it, or null when it does not read as one (or is of another type). */
export function readCredential(type: string, payload: unknown): Read | null {
  return KINDS.find((k) => k.type === type)?.read(payload) ?? null;
}

/**
 * Whether a credential of the entry's peer or station is in force after it, as the host folds its
 * entries (host/peers/peer-journal.ts `journalledPeers`, host/stadium/credential-journal.ts `read`):
 * a revocation none, any other the digest it carries; a `none` names no peer nor station and changes nothing.
 * tests/security/credential-change-fold.test.ts keeps the two in step.
 */
export function foldInForce(inForce: Map<string, boolean>, r: Read): void {
  if (r.action !== 'none') inForce.set(String(r.subject), r.held);
}

/**
 * Raises `peer-credential` and `station-credential` for the batch's credential entries: each
 * enrolment, issue, withdrawal and revocation `{seq, table | station, action, by}` (`replace`: an
 * enrolment while a credential of that peer or station was in force, as the table's earlier
 * entries leave it; never a digest nor a credential's id; at most two names, strings bounded), up
 * to FAULT_ALARMS_EACH of a kind; past them one alarm more, the first's detail with their `count`
 * and `seqs`. The adoptions of a batch are one alarm of their kind, `{seq, action: 'adopt', count,
 * tables | stations}` (the first ADOPTED_LISTED), `late: true` when the table had journalled a
 * credential entry of that type before that is not the same adoption's (the host adopts only
 * before one: `none` closes it; an adoption is one append, its entries seq after seq), or had run
 * before it (`ranBefore`: an entry that no start journals before its adoption step; a start
 * refused before it leaves none). An adoption after a run is rows found at the first start of a
 * version that journals them, or planted since: a person confirms which. A
 * `none` (a first start that found no peer, or no remote station: nobody trusted) raises nothing.
 */
export async function raiseCredentialChangeAlarms(tx: Sql, terminal: string, cols: JournalColumns): Promise<void> {
  for (const kind of KINDS) await raiseOfKind(tx, terminal, cols, kind);
}

async function raiseOfKind(tx: Sql, terminal: string, cols: JournalColumns, kind: Kind): Promise<void> {
  const entries = entriesOf(cols, kind);
  const first = entries[0];
  if (!first) return;
  const enrolled = entries.filter((e) => e.r.action === 'enrol').map((e) => String(e.r.subject));
  const inForce = enrolled.length > 0 ? await inForceBefore(tx, terminal, kind, first.seq, [...new Set(enrolled)]) : new Map<string, boolean>();
  const changes: Record<string, unknown>[] = [];
  const adopted: { seq: number; subject: string | number }[] = [];
  let late = false;
  let otherBefore = false;
  /** Where the append of the batch's adoptions began (an earlier batch's seq when it was cut). */
  let appendFrom: number | null = null;
  for (const { seq, r } of entries) {
    if (r.action === 'adopt') {
      const previous = adopted.at(-1);
      // One adoption is one append of the host's (ledger appendMany): its entries follow each other.
      if (late || otherBefore) late = true;
      else if (previous) late = previous.seq !== seq - 1;
      else late = (appendFrom = await oneRunFrom(tx, terminal, kind, seq)) === null;
      adopted.push({ seq, subject: r.subject });
    } else if (r.action !== 'none') {
      const action = r.action === 'enrol' && inForce.get(String(r.subject)) === true ? 'replace' : r.action;
      changes.push({ seq, [kind.subject]: r.subject, action, by: r.by.slice(0, 2).map((b) => b.slice(0, 128)) });
    }
    if (r.action !== 'adopt') otherBefore = true;
    foldInForce(inForce, r);
  }
  for (const d of changes.slice(0, FAULT_ALARMS_EACH)) await raiseAlarm(tx, terminal, kind.alarm, d);
  const rest = changes.slice(FAULT_ALARMS_EACH);
  if (rest[0]) await raiseAlarm(tx, terminal, kind.alarm, { ...rest[0], count: rest.length, seqs: rest.map((d) => d.seq) });
  // Not late so far, the batch's adoptions are one append: what the table journalled before it (one query).
  if (appendFrom !== null && !late) late = await ranBefore(tx, terminal, appendFrom);
  if (adopted[0]) {
    await raiseAlarm(tx, terminal, kind.alarm, {
      seq: adopted[0].seq,
      action: 'adopt',
      count: adopted.length,
      [kind.listed]: adopted.slice(0, ADOPTED_LISTED).map((a) => a.subject),
      ...(late ? { late: true } : {}),
    });
  }
}

/** The batch's entries of the kind that read as one (the others the table's reading refuses: no credential). */
function entriesOf(cols: JournalColumns, kind: Kind): { seq: number; r: Read }[] {
  const out: { seq: number; r: Read }[] = [];
  for (let i = 0; i < cols.type.length; i++) {
    if (cols.type[i] !== kind.type) continue;
    const r = kind.read(payloadOf(cols.body[i] ?? ''));
    if (r) out.push({ seq: cols.seq[i] as number, r });
  }
  return out;
}

/** Whether a credential of each of `subjects` is in force as the table's entries before `seq` leave it. */
async function inForceBefore(tx: Sql, terminal: string, kind: Kind, seq: number, subjects: string[]): Promise<Map<string, boolean>> {
  const r = await tx.query<{ body: string }>(
    `SELECT body FROM journal WHERE terminal_id = $1 AND type = $2 AND seq < $3 AND ${kind.before} = ANY($4::text[]) ORDER BY seq`,
    [terminal, kind.type, seq, subjects],
  );
  const inForce = new Map<string, boolean>();
  for (const row of r.rows) {
    const e = kind.read(payloadOf(row.body));
    if (e) foldInForce(inForce, e);
  }
  return inForce;
}

/**
 * Where the append of an adoption at `seq` began (`seq` when the table journalled no entry of the
 * kind before it), or null when the table's entries of the kind before it are anything but the start
 * of the same adoption: an entry that is not an adoption, or adoptions that do not run up to it seq
 * by seq (an earlier adoption, then this one: a review of 1 December found a second adoption after
 * the first start's passed as a first one). A first start's adoption may span batches.
 */
async function oneRunFrom(tx: Sql, terminal: string, kind: Kind, seq: number): Promise<number | null> {
  const r = await tx.query<{ n: number; lo: string | number | null; adopts: boolean | null }>(
    `SELECT count(*)::int AS n, min(seq) AS lo, bool_and((doc->'payload'->>'action') IS NOT DISTINCT FROM 'adopt') AS adopts FROM journal WHERE terminal_id = $1 AND type = $2 AND seq < $3`,
    [terminal, kind.type, seq],
  );
  const row = r.rows[0];
  if (!row || row.n === 0) return seq;
  return row.adopts === true && Number(row.lo) + row.n === seq ? Number(row.lo) : null;
}

/**
 * More entries than this before an adoption are read as a table that ran (`ranBefore`): a refused
 * start leaves a handful (its power reset, its rule set, a few faults, one entry per account and
 * peer adopted), so this is a hundred refusals or more, and the query reads no further whatever a
 * hostile table journals before its adoption.
 */
export const START_ENTRIES_READ = 2_000;

/**
 * The entries a start of the host journals before its adoption step, whether or not the start
 * goes on (host/start-host.ts, in order): its `power.reset`; the faults restored and raised
 * (`tilt.raise`, `tilt.clear`); the rule set on record at the table's opening (`rules.record`,
 * cause `open`); the service accounts adopted as found (`service.account`); the peers adopted or
 * found none (`peer.credential` `adopt` / `none`, before the stations' step). A start that opens
 * the table journals its `table.input` (`open` or `resume`: host/table/start-table.ts) after the
 * adoption; one that plays or takes money journals rounds and credits.
 */
const START_TYPES = ['power.reset', 'tilt.raise', 'tilt.clear', 'service.account'];

/**
 * Whether the table ran before an adoption appended from `seq`: it journalled an entry no start journals before
 * its adoption step (`START_TYPES`), or more than START_ENTRIES_READ of them. A start refused or
 * cut before the adoption (a configuration the game refuses, a power cut) leaves only those, and
 * the next start's adoption is the folder's first; a table that opened its table before, under
 * this version or an earlier one, did not. Read from the entries, not from the `power.reset`
 * count: no entry appended after a run (a fake "refused start" of a hostile table) takes the
 * run's entries back, and a table that journals no `power.reset` is read by what it did journal.
 */
async function ranBefore(tx: Sql, terminal: string, seq: number): Promise<boolean> {
  const r = await tx.query<{ n: number; ran: boolean | null }>(
    `SELECT count(*)::int AS n, bool_or(NOT COALESCE(
        type = ANY($3::text[])
        OR (type = 'rules.record' AND doc->'payload'->>'cause' = 'open')
        OR (type IN ('peer.credential', 'station.credential') AND doc->'payload'->>'action' IN ('adopt', 'none')), false)) AS ran
     FROM (SELECT type, doc FROM journal WHERE terminal_id = $1 AND seq < $2 ORDER BY seq LIMIT $4) AS s`,
    [terminal, seq, START_TYPES, START_ENTRIES_READ + 1],
  );
  const row = r.rows[0];
  return row?.ran === true || (row?.n ?? 0) > START_ENTRIES_READ;
}
