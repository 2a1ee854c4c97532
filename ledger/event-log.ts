import { connectionOf, rowToEntry, type JournalEntry, type JournalRow, type Ledger } from './ledger.js';

/**
 * Which entries the service event log lists. The ledger knows no severities: the host turns one
 * into the entry types and the fault kinds it covers.
 */
export interface EventLogFilter {
  /** Only these entry types; an empty list matches nothing. */
  types?: readonly string[];
  /**
   * Entries of `types`, or fault entries (`tilt.raise`, `tilt.clear`) whose kind is one of
   * `tiltKinds`. With `knownTiltKinds`, a fault of any kind outside that list matches too: a kind
   * a later version journalled still shows somewhere.
   */
  severity?: { types: readonly string[]; tiltKinds: readonly string[]; knownTiltKinds?: readonly string[] };
  /** ISO 8601 times, inclusive. */
  from?: string;
  to?: string;
}

const FAULTS = "type IN ('tilt.raise', 'tilt.clear')";
const KIND = "json_extract(body, '$.payload.kind')";

// An empty list still has to be valid SQL: `IN ('')` matches no type and no kind.
const marks = (xs: readonly unknown[]) => xs.map(() => '?').join(',') || "''";

/**
 * The SQL of a page of the event log (null: nothing can match). Newest first: by seq, or with a time
 * bound by the entries' own time, then seq. The time order is what migration 13's index on `ts`
 * gives without reading the rest of the journal: in seq order SQLite read every entry newer than
 * the window (or all of them, when fewer than a page matched), on the host's one thread, at every
 * change of the table while the page was open. The two orders differ only where the clock was put
 * back, and a window asked by time is read by time.
 */
export function eventLogQuery(filter: EventLogFilter, page: { offset: number; limit: number }): { sql: string; args: (string | number)[] } | null {
  const where: string[] = [];
  const args: (string | number)[] = [];
  if (filter.types) {
    if (filter.types.length === 0) return null;
    where.push(`type IN (${marks(filter.types)})`);
    args.push(...filter.types);
  }
  if (filter.severity) {
    const { types, tiltKinds, knownTiltKinds } = filter.severity;
    const unknown = knownTiltKinds ? ` OR ${KIND} NOT IN (${marks(knownTiltKinds)})` : '';
    where.push(`(type IN (${marks(types)}) OR (${FAULTS} AND (${KIND} IN (${marks(tiltKinds)})${unknown})))`);
    args.push(...types, ...tiltKinds, ...(knownTiltKinds ?? []));
  }
  if (filter.from) {
    where.push('ts >= ?');
    args.push(filter.from);
  }
  if (filter.to) {
    where.push('ts <= ?');
    args.push(filter.to);
  }
  const order = filter.from || filter.to ? 'ts DESC, seq DESC' : 'seq DESC';
  const sql = `SELECT * FROM journal ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY ${order} LIMIT ? OFFSET ?`;
  return { sql, args: [...args, page.limit + 1, page.offset] };
}

/** A page of the journal, newest first (`eventLogQuery`), and whether older entries follow it. */
export function eventLog(ledger: Ledger, filter: EventLogFilter, page: { offset: number; limit: number }): { entries: JournalEntry[]; more: boolean } {
  const q = eventLogQuery(filter, page);
  if (!q) return { entries: [], more: false };
  const rows = connectionOf(ledger)
    .prepare(q.sql)
    .all(...q.args) as JournalRow[];
  return { more: rows.length > page.limit, entries: rows.slice(0, page.limit).map(rowToEntry) };
}
