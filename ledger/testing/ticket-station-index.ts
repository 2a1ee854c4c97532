// For the ticket recall's benchmark (bench/ticket-log.bench.ts): the query as it ran before
// migration 12 is the baseline, so the benchmark takes the index away and makes it again on the
// same ledger. Test-only: a running kiosk never drops an index.
import { connectionOf, type Ledger } from '../ledger.js';
import { CREATE_TICKET_STATION_INDEX } from '../migrations.js';

/** Drops migration 12's `journal_ticket_station` index: a station's recall reads as before the migration. */
export function dropTicketStationIndex(ledger: Ledger): void {
  connectionOf(ledger).exec('DROP INDEX journal_ticket_station');
}

/** Makes migration 12's `journal_ticket_station` index again, as the migration made it; the bytes of the file's pages it took. */
export function makeTicketStationIndex(ledger: Ledger): number {
  const db = connectionOf(ledger);
  const used = () => (db.pragma('page_count', { simple: true }) as number) - (db.pragma('freelist_count', { simple: true }) as number);
  const before = used();
  db.exec(CREATE_TICKET_STATION_INDEX);
  return (used() - before) * (db.pragma('page_size', { simple: true }) as number);
}
