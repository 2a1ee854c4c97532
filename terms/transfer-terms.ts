import { z } from 'zod';
import { who } from './payload-fields.js';

// One transfer of a station's credit from one table host to another (issue 34 item 2, "One
// credit, many ledgers"). Money is integer minor units of the table's currency.

/** A table host, as its peers know it over their authenticated link (its enrolled table id). */
// Letters, digits and . _ - only: a table id is part of account names (`table:<id>:settlement`) and transaction ids.
export const TableId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/)
  .brand<'TableId'>();
export type TableId = z.infer<typeof TableId>;

/**
 * A transfer's id: the table that debits the credit and that table's own serial for it, issued
 * from its journal. Two fields, never one string parsed apart: a peer can only name transfers of
 * its own origin (the receiver checks `origin` against the link the message came over), and two
 * senders can never issue the same id.
 */
export const TransferId = z.strictObject({ origin: TableId, serial: z.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
export type TransferId = z.infer<typeof TransferId>;

/** The terms of a transfer: what the sender journals with its debit and the receiver with its credit. */
export const Transfer = z.strictObject({
  id: TransferId,
  currency: z.string().regex(/^[A-Z]{3}$/),
  /** The player station whose credit moves (seated 1–7, remote from 101: engine/table/vocabulary.ts). */
  station: z.number().int().min(1).max(9999),
  from: TableId,
  to: TableId,
  amount: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});
export type Transfer = z.infer<typeof Transfer>;

/**
 * The key of an id in a host's maps. Only ever built from an id, never read back: the typed id
 * travels and is journalled, this string only indexes.
 */
export function keyOf(id: TransferId): string {
  return JSON.stringify([id.origin, id.serial]);
}

export function sameId(a: TransferId, b: TransferId): boolean {
  return a.origin === b.origin && a.serial === b.serial;
}

/** Whether two transfers have the same terms, field by field. */
export function sameTerms(a: Transfer, b: Transfer): boolean {
  return sameId(a.id, b.id) && a.currency === b.currency && a.station === b.station && a.from === b.from && a.to === b.to && a.amount === b.amount;
}

/** Why a receiving table refused a transfer: journalled, so that a later arrival of the id is refused too. */
export const TRANSFER_REFUSALS = [
  /** The sender asked for it back before it arrived (its debit is reversed): the id is spent. */
  'recalled',
  /** The transfer is not in this table's currency. */
  'wrong-currency',
  /** No station of that number at this table: it has no remote station of that number (a seated station's number is every table's own). */
  'unknown-station',
  /** The station is homed neither at the offering table nor at this one: its credit is not the offering table's to move. */
  'homed-elsewhere',
  /** The station is homed here, and this table never sent its credit to the offering table: there is nothing of it there to come home. */
  'never-sent-there',
  /** The station's credit here would pass the largest safe integer: the ledger could not hold it. */
  'over-limit',
  /**
   * The station's credit here would pass the table's credit limit (`creditLimit`, docs/sas.md, "The
   * station credit limit"). Not an alarm: the sender cannot know the credit here.
   */
  'credit-limit',
] as const;
export type TransferRefusal = (typeof TRANSFER_REFUSALS)[number];

/** Why a host distrusted a peer's message (a security event; nothing else changes). */
export const TRANSFER_ALARMS = [
  /** Not a transfer message at all. */
  'malformed',
  /** A transfer offered or recalled over a link that is not its sender's (its id's origin, its `from`). */
  'wrong-link',
  /** A transfer offered to this host that names another as its receiver. */
  'not-for-us',
  /** An id offered again with other terms than the ones taken or refused. */
  'terms-changed',
  /** An answer for a transfer this host never sent. */
  'unknown-transfer',
  /** An answer over another link than the transfer's receiver's. */
  'wrong-peer',
  /** "Taken" on other terms than the ones this host debited. */
  'terms-mismatch',
  /** An answer that contradicts the one this host already acted on ("taken" after "never took it", or the reverse). */
  'contradiction',
  /** An offer refused for its currency (every table of a floor keeps one). */
  'wrong-currency',
  /** An offer refused for a station this table does not have. */
  'unknown-station',
  /** An offer refused for a station homed neither at the offering table nor here. */
  'homed-elsewhere',
  /** An offer refused: a station homed here coming "home" from a table this one never sent its credit to. */
  'never-sent-there',
  /** An offer refused for an amount the station's credit here could not hold. */
  'over-limit',
  /**
   * Offers refused at the station's credit limit past the link's allowance of refusals: within it
   * such a refusal is no alarm (the sender cannot know the credit here); past it, a flood.
   */
  'credit-limit',
] as const;
export type TransferAlarmReason = (typeof TRANSFER_ALARMS)[number];

/**
 * Two people's settlement of an open transfer that no answer of its receiver's will close: one
 * held disputed (a "taken" on other terms), or one whose receiver is gone (unreachable, or no
 * longer a peer). Service mode journals it as the sender's closing, completed or reversed, with
 * the two names and the reference of what they settled it on (`reference`: an incident report's
 * number, as typed on the service screen's pad); the
 * upstream's reconciliation pairs it as any closing, so a settlement the receiver's ledger
 * contradicts is still named with its money (docs/transfers.md).
 */
export const TransferSettlement = z
  .strictObject({ by: z.tuple([who, who]), reference: z.string().trim().min(1).max(64) })
  .refine((s) => s.by[0] !== s.by[1], 'settled by two different people');
export type TransferSettlement = z.infer<typeof TransferSettlement>;

/**
 * The journal entries of a transfer, in the ledger's payload shapes (docs/transfers.md). The
 * sender journals `transfer.out` (the debit) before it asks, `transfer.recall` before it asks for
 * the credit back, and closes with `transfer.complete` or `transfer.reverse`; the receiver
 * journals `transfer.in` (the credit) or `transfer.refuse` before it answers.
 */
export const TRANSFER_PAYLOADS = {
  /** Sender: the station's credit leaves for the other table (in flight until closed). */
  'transfer.out': z.strictObject({ transfer: Transfer }),
  /** Sender: it asks the receiver to refuse the transfer if it has not taken it (the station left, the table is gone too long). No money moves. */
  'transfer.recall': z.strictObject({ id: TransferId }),
  /**
   * Sender: the receiver said it took the transfer, on these terms; the credit in flight is the
   * other table's now. `settled`: no answer of the receiver's, two people settled it so (below).
   */
  'transfer.complete': z.strictObject({ transfer: Transfer, settled: TransferSettlement.optional() }),
  /**
   * Sender: the receiver said it never took the transfer and never will (`reason`), or two people
   * settled it so (`settled`: one of the two, never both); the credit is the station's again.
   */
  'transfer.reverse': z
    .strictObject({ transfer: Transfer, reason: z.enum(TRANSFER_REFUSALS).optional(), settled: TransferSettlement.optional() })
    .refine(
      (p) => (p.reason === undefined) !== (p.settled === undefined),
      "a reversal is the receiver's refusal (reason) or two people's settlement (settled)",
    ),
  /** Receiver: the station is credited, once for this id. */
  'transfer.in': z.strictObject({ transfer: Transfer }),
  /**
   * Receiver: it never took the id and never will (the terms offered, when it was an offer it
   * refused). No money moves. `day`: on a refusal at the credit limit, the receiver's UTC date when
   * it refused, by its own clock (never the peer's word): its bound on such refusals is a day's
   * (host/transfers/state.ts `AT_LIMIT_SPARE`), folded from these. Absent on entries of a build before it.
   */
  'transfer.refuse': z.strictObject({
    id: TransferId,
    reason: z.enum(TRANSFER_REFUSALS),
    offered: Transfer.optional(),
    day: z.iso.date().optional(),
  }),
  /**
   * A security event: a peer's message this host distrusted (`reason`) over the link of `link`,
   * about `id` when it named one; nothing else changed. Kept to a budget per link between two of
   * the host's ticks; `suppressed`: the alarms at that link since the last journalled one that
   * were not journalled each. `claimed`: on a `terms-mismatch` about an open transfer of this
   * host's, the terms the receiver said it took: the entry marks the transfer disputed (its credit
   * held in flight for a person, asked about no more; host/transfers/state.ts). No money moves.
   */
  'transfer.alarm': z.strictObject({
    link: TableId,
    reason: z.enum(TRANSFER_ALARMS),
    id: TransferId.optional(),
    detail: z.string().max(500),
    suppressed: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
    claimed: Transfer.optional(),
  }),
} as const;
export type TransferEntryType = keyof typeof TRANSFER_PAYLOADS;
export type TransferEntry = {
  [T in TransferEntryType]: { type: T; payload: z.infer<(typeof TRANSFER_PAYLOADS)[T]> };
}[TransferEntryType];

/**
 * The transaction ids a transfer's entries are journalled under (ledger/derive.ts): the receiver's
 * credit and refusal of an id share one decision, the sender's completion and reversal one
 * closing, so a ledger refuses a second decision or closing whatever the code above it does.
 */
export function transferTxId(step: 'out' | 'recall' | 'close' | 'decide', id: TransferId): string {
  return `transfer:${step}:${id.origin}:${id.serial}`;
}

/** The transaction id a transfer entry must be journalled under (none for an alarm). */
export function txIdOfTransferEntry(e: TransferEntry): string | undefined {
  switch (e.type) {
    case 'transfer.out':
      return transferTxId('out', e.payload.transfer.id);
    case 'transfer.recall':
      return transferTxId('recall', e.payload.id);
    case 'transfer.complete':
    case 'transfer.reverse':
      return transferTxId('close', e.payload.transfer.id);
    case 'transfer.in':
      return transferTxId('decide', e.payload.transfer.id);
    case 'transfer.refuse':
      return transferTxId('decide', e.payload.id);
    case 'transfer.alarm':
      return undefined;
  }
}

export function isTransferEntryType(type: string): type is TransferEntryType {
  return Object.hasOwn(TRANSFER_PAYLOADS, type);
}

/** A transfer entry from its type and an unchecked payload (the schema of its type parses it). */
export function parseTransferEntry(type: TransferEntryType, payload: unknown): TransferEntry {
  switch (type) {
    case 'transfer.out':
      return { type, payload: TRANSFER_PAYLOADS[type].parse(payload) };
    case 'transfer.recall':
      return { type, payload: TRANSFER_PAYLOADS[type].parse(payload) };
    case 'transfer.complete':
      return { type, payload: TRANSFER_PAYLOADS[type].parse(payload) };
    case 'transfer.reverse':
      return { type, payload: TRANSFER_PAYLOADS[type].parse(payload) };
    case 'transfer.in':
      return { type, payload: TRANSFER_PAYLOADS[type].parse(payload) };
    case 'transfer.refuse':
      return { type, payload: TRANSFER_PAYLOADS[type].parse(payload) };
    case 'transfer.alarm':
      return { type, payload: TRANSFER_PAYLOADS[type].parse(payload) };
  }
}
