import { z } from 'zod';
import { Receipt } from './receipts.js';

// The upstream's answers as the kiosk reads them (docs/upstream.md, "Wire contract"). The service
// states the same contract in upstream/schemas.ts, which this layer may not import: an answer
// that does not fit is a protocol error, never something to guess around.

const Seq = z.number().int().nonnegative();
const Hex64 = z.string().regex(/^[0-9a-f]{64}$/);

export const IngestAck = z.looseObject({
  ackedSeq: Seq,
  headHash: Hex64,
  inserted: Seq.optional(),
  duplicates: Seq.optional(),
  /** The upstream's signature over the head it now holds (ledger/receipts.ts); an older service sends none. */
  receipt: Receipt.optional(),
});

/** `POST /v1/head`: the receipt of the head the upstream holds now. */
export const HeadReceipt = z.looseObject({ receipt: Receipt });
export const ReceiptKey = z.looseObject({ publicKey: z.string().max(200), keyId: z.string().max(64) });
export type IngestAck = z.infer<typeof IngestAck>;

/**
 * A 409 `gap`: the upstream holds less than the kiosk thought (restored from a backup); or a 409
 * `replay`: a copy of a request it already took. Either way the answer carries its head.
 */
export const IngestGap = z.looseObject({ error: z.enum(['gap', 'replay']), ackedSeq: Seq, headHash: Hex64 });

/** Any refusal: a word and, usually, a sentence. */
export const ErrorAnswer = z.looseObject({ error: z.string(), message: z.string().optional() });

export const HeartbeatAck = z.looseObject({ ok: z.literal(true), serverTime: z.iso.datetime({ offset: true }) });

export class WireError extends Error {
  constructor(what: string, issues: z.core.$ZodIssue[]) {
    super(`the upstream's ${what} does not fit the wire contract: ${issues.map((i) => `${i.path.join('.') || '(answer)'}: ${i.message}`).join('; ')}`);
    this.name = 'WireError';
  }
}

/** The answer checked against its schema; a WireError naming what does not fit. */
export function checkAnswer<T extends z.ZodType>(schema: T, what: string, value: unknown): z.infer<T> {
  const r = schema.safeParse(value);
  if (!r.success) throw new WireError(what, r.error.issues);
  return r.data;
}
