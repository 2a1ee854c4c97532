import { connectionOf, type Ledger } from './ledger.js';
import { VALIDATION_KEY, VALIDATION_TYPES } from './migrations.js';

// Read-only queries of the journal for SAS system validation at a station (docs/sas.md, "System
// validation at a station"): the schema is the ledger's own, so the host asks here rather than
// writing SQL against it (docs/ledger.md, "The schema is private").

/** validationNumberSeen's query: a lookup in migration 9's index (`journal_validation`). */
export const VALIDATION_SEEN_SQL = `SELECT 1 FROM journal WHERE ${VALIDATION_TYPES} AND ${VALIDATION_KEY} = ? LIMIT 1`;

/** Whether a wait for the system's number ended with `validation`, or a ticket under it was inserted here. */
export function validationNumberSeen(ledger: Ledger, validation: string): boolean {
  return connectionOf(ledger).prepare(VALIDATION_SEEN_SQL).get(validation) !== undefined;
}

/** Each station's last `ticket.validation.request`: its journal position, station, request id and amount. */
export interface LastValidationRequest {
  seq: number;
  station: number;
  requestId: string;
  /** The amount the wait held. */
  amount: number;
}

/**
 * Each station's last `ticket.validation.request` (the restart rule looks at these only), in one
 * pass over the requests: SQLite gives a bare column of a `MAX()` aggregate the values of the row
 * that holds the maximum (sqlite.org/lang_select.html, "bare columns in an aggregate query").
 */
export function lastValidationRequests(ledger: Ledger): LastValidationRequest[] {
  return connectionOf(ledger)
    .prepare(
      `SELECT MAX(seq) AS seq, json_extract(body, '$.payload.station') AS station, json_extract(body, '$.payload.requestId') AS requestId,
              json_extract(body, '$.payload.amount') AS amount
         FROM journal WHERE type = 'ticket.validation.request' GROUP BY json_extract(body, '$.payload.station')`,
    )
    .all() as LastValidationRequest[];
}

/** Whether a handpay (`credit.cancel`) was journalled for `station` after journal position `seq`. */
export function handpaidSince(ledger: Ledger, seq: number, station: number): boolean {
  const row = connectionOf(ledger)
    .prepare(`SELECT 1 FROM journal WHERE type = 'credit.cancel' AND seq > ? AND json_extract(body, '$.payload.station') = ? LIMIT 1`)
    .get(seq, station);
  return row !== undefined;
}
