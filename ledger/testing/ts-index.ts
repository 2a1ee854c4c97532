// For the event log's benchmark (bench/event-log.bench.ts): the query as it ran before migration 13
// (seq order, no index on `ts`) is the baseline, so the benchmark takes the index away and makes it
// again on the same ledger. Test-only: a running kiosk never drops an index.
import { connectionOf, rowToEntry, type JournalEntry, type JournalRow, type Ledger } from '../ledger.js';
import { eventLogQuery, type EventLogFilter } from '../event-log.js';

/** Drops migration 13's `journal_ts` index. */
export function dropTsIndex(ledger: Ledger): void {
  connectionOf(ledger).exec('DROP INDEX journal_ts');
}

/** Makes migration 13's `journal_ts` again; the bytes of the file's pages it took. */
export function makeTsIndex(ledger: Ledger): number {
  const db = connectionOf(ledger);
  const used = () => (db.pragma('page_count', { simple: true }) as number) - (db.pragma('freelist_count', { simple: true }) as number);
  const before = used();
  db.exec('CREATE INDEX journal_ts ON journal(ts)');
  return (used() - before) * (db.pragma('page_size', { simple: true }) as number);
}

/** The event log's page as the query before migration 13 read it: the same filter, in seq order. */
export function eventLogInSeqOrder(ledger: Ledger, filter: EventLogFilter, page: { offset: number; limit: number }): JournalEntry[] {
  const q = eventLogQuery(filter, page);
  if (!q) return [];
  const sql = q.sql.replace('ORDER BY ts DESC, seq DESC', 'ORDER BY seq DESC');
  return (
    connectionOf(ledger)
      .prepare(sql)
      .all(...q.args) as JournalRow[]
  )
    .slice(0, page.limit)
    .map(rowToEntry);
}
