import { connectionOf, type Ledger } from './ledger.js';
import { PAYLOADS, type Payload } from './entries.js';
import { lastMachineTicket } from './ticket-queries.js';

// The machine validation id the table numbers its tickets under, as its journal records it
// (docs/tito.md, "Configured ids and assigned ids never meet"). The journal is the one record: it is
// hash-chained and checked by the witness, where a file of the data folder (`floor-validation.json`,
// `sas-validation.json`, which versions before 8 December believed at a start) could be swapped for
// another table's id while the kiosk was off (tests/tickets/floor-id-swapped.test.ts).

/** Who gave an id: the upstream, or the casino's system over SAS. */
export type IdAuthority = Payload<'ticket.machine-id'>['authority'];

/** The newest `ticket.machine-id` of `authority`: its id and seq. */
function lastAssignment(ledger: Ledger, authority: IdAuthority): { seq: number; machineId: number } | null {
  const row: unknown = connectionOf(ledger)
    .prepare(`SELECT seq, body FROM journal WHERE type = 'ticket.machine-id' AND json_extract(body, '$.payload.authority') = ? ORDER BY seq DESC LIMIT 1`)
    .get(authority);
  if (!row || typeof row !== 'object' || !('seq' in row) || !('body' in row) || typeof row.seq !== 'number' || typeof row.body !== 'string') return null;
  const body: unknown = JSON.parse(row.body);
  const p = PAYLOADS['ticket.machine-id'].safeParse(body && typeof body === 'object' && 'payload' in body ? body.payload : undefined);
  return p.success ? { seq: row.seq, machineId: p.data.machineId } : null;
}

/**
 * The id the journal last recorded for the table under `authority`: the newer of the last id that
 * authority gave (`ticket.machine-id`) and the last ticket the table numbered under it (an older
 * version's tickets, numbered under an id it kept only in a file, count as its record). Null: the
 * journal records none (the configuration's id serves, or the authority is asked).
 */
export function journalledMachineId(ledger: Ledger, authority: IdAuthority): number | null {
  const assigned = lastAssignment(ledger, authority);
  const ticket = lastMachineTicket(ledger, authority);
  if (ticket && (!assigned || ticket.seq > assigned.seq)) return ticket.terms.machineId;
  return assigned?.machineId ?? null;
}

/** Every id `authority` ever gave the table, as journalled (whether or not a ticket used it). */
export function assignedMachineIds(ledger: Ledger, authority: IdAuthority): number[] {
  const rows: unknown[] = connectionOf(ledger)
    .prepare(
      `SELECT DISTINCT json_extract(body, '$.payload.machineId') AS id FROM journal WHERE type = 'ticket.machine-id' AND json_extract(body, '$.payload.authority') = ?`,
    )
    .all(authority);
  return rows.flatMap((r) => (r && typeof r === 'object' && 'id' in r && typeof r.id === 'number' ? [r.id] : []));
}
