import { z } from 'zod';
import { Transfer, TransferId, TRANSFER_REFUSALS } from '../../terms/transfer-terms.js';

/**
 * What two table hosts say to each other about a transfer, over their authenticated link (the
 * link names the peer; nothing in a message is taken as who sent it). Every message may be lost,
 * repeated, delayed or reordered: each is answered from the journal, so asking again is safe.
 */
export const TransferMessage = z.discriminatedUnion('kind', [
  /** Sender → receiver: take this transfer (sent after `transfer.out` is journalled, again until answered). */
  z.strictObject({ kind: z.literal('offer'), transfer: Transfer }),
  /** Sender → receiver: if you have not taken it, refuse it for ever (sent after `transfer.recall` is journalled). */
  z.strictObject({ kind: z.literal('recall'), id: TransferId }),
  /** Receiver → sender: taken, on these terms (after `transfer.in` is journalled). */
  z.strictObject({ kind: z.literal('taken'), transfer: Transfer }),
  /** Receiver → sender: never taken and never will be (after `transfer.refuse` is journalled). */
  z.strictObject({ kind: z.literal('refused'), id: TransferId, reason: z.enum(TRANSFER_REFUSALS) }),
]);
export type TransferMessage = z.infer<typeof TransferMessage>;
