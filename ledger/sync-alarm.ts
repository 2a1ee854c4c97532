import { receiptSigned } from './receipts.js';
import type { IngestAck } from './wire.js';

/** Why the upstream's receipt was not kept: it names another head than its acknowledgement's, no key checks it, or it does not verify with the key. */
export type ReceiptProblem = 'other-head' | 'no-key' | 'not-verified';

/** The sync's `bad-receipt` alarm: its text (the log's), and what a screen words it by (host/start/signals.ts): its problem, the entry the receipt names and the one acknowledged. */
export type BadReceipt = { kind: 'bad-receipt'; message: string; problem: ReceiptProblem; seq: number; acked: number };

/** A sync alarm: its kind and its text (the log's); a `bad-receipt` with what a screen words it by. */
export type SyncAlarm = BadReceipt | { kind: 'ack-backwards' | 'ack-mismatch' | 'receipt-unwritten' | `upstream-${number}`; message: string };

/** What is wrong with an acknowledgement's receipt, as the alarm that says so; null: it is to be kept. */
export function receiptProblem(ack: IngestAck, r: NonNullable<IngestAck['receipt']>, receiptKey: string | undefined, terminalId: string): BadReceipt | null {
  const at = { kind: 'bad-receipt', seq: r.seq, acked: ack.ackedSeq } as const;
  if (r.seq !== ack.ackedSeq || r.hash !== ack.headHash)
    return { ...at, problem: 'other-head', message: `the receipt names entry ${r.seq}, the acknowledgement ${ack.ackedSeq}` };
  if (!receiptKey)
    return {
      ...at,
      problem: 'no-key',
      message: 'the credentials carry no receipt key (an older enrolment): the receipt cannot be checked and is not kept; enrol again to get the key',
    };
  if (!receiptSigned(receiptKey, terminalId, r))
    return { ...at, problem: 'not-verified', message: "the receipt does not verify with the upstream's receipt key" };
  return null;
}
