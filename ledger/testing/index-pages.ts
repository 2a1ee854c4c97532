// For the benchmarks that weigh an index against the query before its migration
// (bench/ticket-log.bench.ts, bench/event-log.bench.ts): the index taken away, then made again as
// its migration makes it, with the pages of the file it took. Test-only: a running kiosk never
// drops an index.
import { connectionOf, type Ledger } from '../ledger.js';

export function dropIndex(ledger: Ledger, name: string): void {
  connectionOf(ledger).exec(`DROP INDEX ${name}`);
}

/** Runs `createSql` (a migration's CREATE INDEX); the bytes of the file's pages the index took. */
export function makeIndex(ledger: Ledger, createSql: string): number {
  const db = connectionOf(ledger);
  const used = () => (db.pragma('page_count', { simple: true }) as number) - (db.pragma('freelist_count', { simple: true }) as number);
  const before = used();
  db.exec(createSql);
  return (used() - before) * (db.pragma('page_size', { simple: true }) as number);
}
