import { z } from 'zod';

// The witness's socket protocol: one JSON object per line each way, every request answered in
// order with its own id. Defined once here; the kiosk's client (ledger/witness-client.ts) parses
// every answer with these schemas, and the witness every request, so a peer that lies in any way
// the format allows gets a typed refusal, never a guess.

/** The most chain links one `witness` request carries (a longer stretch goes in several requests). */
export const MAX_LINKS = 10_000;
/** The longest line either side accepts: MAX_LINKS links of 64 hex digits, with room to spare; a checkpoint's state; a stretch of bodies. */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;
/** The longest entry body a `fold` carries (the kiosk sends at most 1 MiB of bodies a request). */
export const MAX_BODY_CHARS = 1024 * 1024;
/** The longest message a refusal carries (the witness cuts what it quotes of a request to it). */
export const MAX_MESSAGE_CHARS = 2000;

const Seq = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const Hex64 = z.string().regex(/^[0-9a-f]{64}$/);
const Base64 = z
  .string()
  .regex(/^[A-Za-z0-9+/]+={0,2}$/)
  .max(200);
/**
 * A terminal's id, which the witness uses as a file name in its folder (`heads/<id>`): letters,
 * digits, `_`, `-` and `.`, but never first (no `.`, `..` or hidden file can be named).
 */
export const TerminalId = z.string().regex(/^[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}$/);
export const Id = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

export const Head = z.strictObject({ seq: Seq, hash: Hex64 });
export type Head = z.infer<typeof Head>;

/** A head the witness signed (witness/statement.ts, `headStatement`). */
export const SignedHead = z.strictObject({ terminal: TerminalId, seq: Seq, hash: Hex64, at: z.iso.datetime(), signature: Base64 });
export type SignedHead = z.infer<typeof SignedHead>;

export const Request = z.discriminatedUnion('op', [
  /** Who are you: the public key its signatures verify with, and where the private key lives. */
  z.strictObject({ id: Id, op: z.literal('hello') }),
  /** The newest head signed for a terminal (null: none yet). */
  z.strictObject({ id: Id, op: z.literal('head'), terminal: TerminalId }),
  /**
   * The journal went on from `from` (the witness's own head, or genesis for its first) to `to`:
   * `links` are the content hashes of the entries after `from`, in order, so the witness can check
   * that `to` extends what it signed before.
   */
  z.strictObject({ id: Id, op: z.literal('witness'), terminal: TerminalId, from: Head, links: z.array(Hex64).max(MAX_LINKS), to: Head }),
  /**
   * Where the witness's own fold of the entries' effects stands for a terminal (witness/effects.ts):
   * the entry after which `fold` goes on.
   */
  z.strictObject({ id: Id, op: z.literal('folded'), terminal: TerminalId }),
  /**
   * The bodies of the entries after `from` (where the witness's fold stands, or the end of the
   * previous `fold` of this stretch), in order: the witness hashes and chains each and folds its
   * effects. The stretch counts once it reaches the witness's head (`to`); a stretch that ends
   * below it waits, in memory, for the next.
   */
  z.strictObject({
    id: Id,
    op: z.literal('fold'),
    terminal: TerminalId,
    from: Head,
    bodies: z.array(z.string().max(MAX_BODY_CHARS)).max(MAX_LINKS),
    to: Head,
  }),
  /**
   * Sign a checkpoint of the state after the head the witness holds (`seq`, `hash`): `state` is its
   * exact text (ledger/checkpoint.ts), which the witness checks against the effects it folded.
   */
  z.strictObject({ id: Id, op: z.literal('checkpoint'), terminal: TerminalId, seq: Seq, hash: Hex64, state: z.string().max(MAX_LINE_BYTES) }),
]);
export type Request = z.infer<typeof Request>;

/**
 * Why a request was refused:
 * - `lower`: a head below the one signed (entries gone: a rollback);
 * - `diverging`: another hash where the witness signed one (the journal was rewritten);
 * - `stale`: `from` is not the witness's head (the sender's idea of it is old): resend from `head`;
 * - `bad-chain`: the links do not lead from `from` to `to`;
 * - `not-at-head`: a checkpoint not at the head the witness holds;
 * - `checkpoint-conflict`: a checkpoint at a seq the witness already signed another state for;
 * - `fold-behind`: the witness's fold of the entries' effects does not stand at that head yet:
 *   send the bodies from where it stands (`folded`);
 * - `not-derived`: the state is not the one the entries' effects make (witness/effects.ts);
 * - `bad-entry`: a body that is not an entry's, or whose postings do not sum to zero, or that takes
 *   the fold's effects past MAX_EFFECTS_CHARS (witness/effects.ts);
 * - `unknown-terminal`: this witness does not serve that terminal;
 * - `bad-request`: not a request of this protocol;
 * - `failed`: the witness could not do it (its own file or disk failed): answered and logged, it
 *   serves on; the same request may succeed once the fault is mended.
 */
export const REFUSALS = [
  'lower',
  'diverging',
  'stale',
  'bad-chain',
  'not-at-head',
  'checkpoint-conflict',
  'fold-behind',
  'not-derived',
  'bad-entry',
  'unknown-terminal',
  'bad-request',
  'failed',
] as const;
export type RefusalReason = (typeof REFUSALS)[number];

export const Refusal = z.strictObject({
  id: Id.nullable(),
  ok: z.literal(false),
  error: z.enum(REFUSALS),
  message: z.string().max(MAX_MESSAGE_CHARS),
  /** The witness's head for the terminal, when the request named one. */
  head: SignedHead.nullable(),
});
export type Refusal = z.infer<typeof Refusal>;

export const HelloAnswer = z.strictObject({
  id: Id,
  ok: z.literal(true),
  op: z.literal('hello'),
  publicKey: z
    .string()
    .regex(/^[A-Za-z0-9+/]+={0,2}$/)
    .max(200),
  keyId: z.string().regex(/^[0-9a-f]{16}$/),
  /** Where its private key lives: sealed in a TPM, or a key file only it can read. */
  keyStore: z.enum(['tpm', 'file']),
});
export const HeadAnswer = z.strictObject({ id: Id, ok: z.literal(true), op: z.literal('head'), head: SignedHead.nullable() });
export const WitnessAnswer = z.strictObject({ id: Id, ok: z.literal(true), op: z.literal('witness'), head: SignedHead });
export const FoldedAnswer = z.strictObject({ id: Id, ok: z.literal(true), op: z.literal('folded'), folded: Head });
export const FoldAnswer = z.strictObject({ id: Id, ok: z.literal(true), op: z.literal('fold'), folded: Head });
export const CheckpointAnswer = z.strictObject({ id: Id, ok: z.literal(true), op: z.literal('checkpoint'), signature: Base64 });

export const Answer = z.union([HelloAnswer, HeadAnswer, WitnessAnswer, FoldedAnswer, FoldAnswer, CheckpointAnswer, Refusal]);
export type Answer = z.infer<typeof Answer>;
