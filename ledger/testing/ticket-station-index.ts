// For the ticket recall's benchmark (bench/ticket-log.bench.ts): the query as it ran before
// migration 12 is the baseline, so the benchmark takes the index away and makes it again on the
// same ledger.
import type { Ledger } from '../ledger.js';
import { CREATE_TICKET_STATION_INDEX } from '../migrations.js';
import { dropIndex, makeIndex } from './index-pages.js';

/** Drops migration 12's `journal_ticket_station` index: a station's recall reads as before the migration. */
export const dropTicketStationIndex = (ledger: Ledger): void => dropIndex(ledger, 'journal_ticket_station');

/** Makes migration 12's `journal_ticket_station` index again, as the migration made it; the bytes of the file's pages it took. */
export const makeTicketStationIndex = (ledger: Ledger): number => makeIndex(ledger, CREATE_TICKET_STATION_INDEX);
