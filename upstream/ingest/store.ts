// The new rows stored in the batch's transaction: the journal, the meters projection, the
// authority's register of tickets, then the head.
import { raiseAlarm, raiseRepeatableAlarm } from '../alarm.js';
import { alarmStrayAnswers } from '../backoffice/config-requests.js';
import type { Sql } from '../sql.js';
import { applyTicketEntries } from '../tickets.js';
import { alarmUnjournalled, newestTs } from '../ticket-word-only.js';
import type { IngestEntry } from './batch.js';
import type { FreshRows } from './fresh-rows.js';
import { projectMeters } from './meters-currency.js';
import { boundedMeterRows } from './meter-kinds.js';
import { raiseKioskFaultAlarms } from './kiosk-faults.js';
import { raiseSupervisorAccountAlarms } from './supervisor-accounts.js';
import { raiseCredentialChangeAlarms } from './credential-changes.js';
import { unreadableTransferSeqs } from '../transfers/synced-entries.js';

/** Inserts the rows (ON CONFLICT DO NOTHING, which under the head's lock must insert every one), then moves the head to `last`. */
export async function storeFresh(tx: Sql, terminal: string, rows: FreshRows, count: number, last: IngestEntry): Promise<void> {
  const { cols, meters, tickets } = rows;
  const ins = await tx.query(
    `INSERT INTO journal (terminal_id, seq, type, tx_id, ts, content_hash, prev_hash, hash, body, doc)
     SELECT $1, u.seq, u.type, u.tx, u.ts::timestamptz, u.content, u.prev, u.hash, u.body, u.body::jsonb
     FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
       AS u(seq, type, tx, ts, content, prev, hash, body)
     ON CONFLICT (terminal_id, seq) DO NOTHING`,
    [terminal, cols.seq, cols.type, cols.tx, cols.ts, cols.content, cols.prev, cols.hash, cols.body],
  );
  if (ins.rowCount !== count) throw new Error(`inserted ${ins.rowCount} of ${count} rows under the head lock`);
  // The notes and levels past the projection's bounds are not projected: alarmed with the meters no ledger writes.
  const bounded = meters.size ? await boundedMeterRows(tx, terminal, rows.meterRows) : { rows: rows.meterRows, seqs: [] };
  if (bounded.rows.seq.length) await projectMeters(tx, terminal, { meters, meterRows: bounded.rows });
  const unreadableMeters = [...new Set([...rows.unreadableMeters, ...bounded.seqs])].sort((a, b) => a - b);
  // The tables' ticket entries settle the authority's register in this same transaction, each once.
  // An entry that does not fit its schema is stored (the journal is the table's) and alarmed, never believed.
  const unreadable = tickets.filter((x) => x.entry === null).map((x) => x.seq);
  if (unreadable.length) await raiseAlarm(tx, terminal, 'ticket-entry-unreadable', { seqs: unreadable });
  // So are meters no ledger writes (an unknown name, or too many in one entry): not counted, named by seq.
  if (unreadableMeters.length) await raiseMeterUnreadable(tx, terminal, unreadableMeters);
  // So is a transfer entry: the reconciliation can never pair it.
  const unpaired = unreadableTransferSeqs(cols);
  if (unpaired.length) await raiseAlarm(tx, terminal, 'transfer-entry-unreadable', { seqs: unpaired });
  await applyTicketEntries(
    tx,
    terminal,
    tickets.flatMap((x) => (x.entry ? [x.entry] : [])),
  );
  // Tickets known by the table's word alone that its journal has now gone past: made by its credentials, not its cash-out.
  await alarmUnjournalled(tx, terminal, newestTs(cols.ts));
  // The table's integrity faults and the receipts it could not verify reach the floor as alarms.
  await raiseKioskFaultAlarms(tx, terminal, cols);
  // So does every account its journal makes a supervisor: a second process of the kiosk user can append one the table's audit passes.
  await raiseSupervisorAccountAlarms(tx, terminal, cols);
  // And every change of who may talk to the table (its peers' and its remote stations' credentials): two people make one, or a second process.
  await raiseCredentialChangeAlarms(tx, terminal, cols);
  // An answer to a configuration request the table was not sent is not believed (config-requests.ts), and is an alarm.
  await alarmStrayAnswers(tx, terminal, cols.seq);
  await tx.query('UPDATE heads SET seq = $2, hash = $3, updated_at = now() WHERE terminal_id = $1', [terminal, last.seq, last.hash]);
}

/** The most seqs a `meter-unreadable` alarm names (with how many there were): a batch holds up to 5,000 entries. */
const SEQS_NAMED = 100;

/** One alarm for the batch's entries whose meters are not a ledger's; a table that keeps sending them folds into one an hour (alarm.ts). */
async function raiseMeterUnreadable(tx: Sql, terminal: string, seqs: readonly number[]): Promise<void> {
  await raiseRepeatableAlarm(tx, terminal, 'meter-unreadable', { seqs: seqs.slice(0, SEQS_NAMED), entries: seqs.length });
}
