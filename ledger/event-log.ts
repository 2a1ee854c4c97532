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

/** A page of the journal, newest first, and whether older entries follow it. */
export function eventLog(ledger: Ledger, filter: EventLogFilter, page: { offset: number; limit: number }): { entries: JournalEntry[]; more: boolean } {
  const where: string[] = [];
  const args: (string | number)[] = [];
  if (filter.types) {
    if (filter.types.length === 0) return { entries: [], more: false };
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
  const sql = `SELECT * FROM journal ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY seq DESC LIMIT ? OFFSET ?`;
  const rows = connectionOf(ledger)
    .prepare(sql)
    .all(...args, page.limit + 1, page.offset) as JournalRow[];
  return { more: rows.length > page.limit, entries: rows.slice(0, page.limit).map(rowToEntry) };
}
