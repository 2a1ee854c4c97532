import { PAYLOADS, type EntryBody, type Ledger } from '../../../ledger/index.js';
import { creditTxId, escrowTxId, returnTxId } from '../../recovery/escrow.js';
import type { StackedEscrow } from './verdict.js';

/**
 * The escrow of `escrowId` at `device` the host answered "stack" to, read from the journal (so a
 * restart keeps the rule): its `bill.escrow` entry, journalled only with a "stack" answer, and the
 * credit or return journalled against it. Each is found by its transaction id (an index), never
 * by scanning the journal. Null: the host never answered "stack" to such an escrow.
 */
export function stackedEscrow(ledger: Ledger, device: string, escrowId: string): StackedEscrow | null {
  const escrow = ledger.byTxId(escrowTxId(device, escrowId));
  if (!escrow || escrow.type !== 'bill.escrow') return null;
  const note = PAYLOADS['bill.escrow'].parse(payloadOf(escrow.body));
  const credit = ledger.byTxId(creditTxId(device, escrowId));
  const returned = ledger.byTxId(returnTxId(device, escrowId));
  const resolution: StackedEscrow['resolution'] =
    credit?.type === 'bill.credit'
      ? { kind: 'credit', ref: PAYLOADS['bill.credit'].parse(payloadOf(credit.body)).ref ?? null }
      : returned?.type === 'bill.return'
        ? { kind: 'return' }
        : null;
  return { seq: escrow.seq, amount: note.denomination, currency: note.currency, resolution };
}

const payloadOf = (body: string): unknown => (JSON.parse(body) as EntryBody).payload;
