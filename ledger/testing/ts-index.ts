// For the event log's benchmark (bench/event-log.bench.ts): the query as it ran before migration 13
// (seq order, no index on `ts`) is the baseline, so the benchmark takes the index away and makes it
// again on the same ledger.
import { connectionOf, rowToEntry, type JournalEntry, type JournalRow, type Ledger } from '../ledger.js';
import { eventLogQuery, type EventLogFilter } from '../event-log.js';
import { CREATE_TS_INDEX } from '../migrations.js';
import { dropIndex, makeIndex } from './index-pages.js';

/** Drops migration 13's `journal_ts` index. */
export const dropTsIndex = (ledger: Ledger): void => dropIndex(ledger, 'journal_ts');

/** Makes migration 13's `journal_ts` again, as the migration made it; the bytes of the file's pages it took. */
export const makeTsIndex = (ledger: Ledger): number => makeIndex(ledger, CREATE_TS_INDEX);

/** The event log's page as the query before migration 13 read it: the same filter, in seq order. */
export function eventLogInSeqOrder(ledger: Ledger, filter: EventLogFilter, page: { offset: number; limit: number }): JournalEntry[] {
  const q = eventLogQuery(filter, page);
  if (!q) return [];
  const sql = q.sql.replace('ORDER BY ts DESC, seq DESC', 'ORDER BY seq DESC');
  // A query changed since would otherwise be weighed against itself, unnoticed.
  if (sql === q.sql && (filter.from || filter.to)) throw new Error('the event log query no longer orders a window by ts: update the baseline');
  return (
    connectionOf(ledger)
      .prepare(sql)
      .all(...q.args) as JournalRow[]
  )
    .slice(0, page.limit)
    .map(rowToEntry);
}
