import { AUTHORITY_REFERENCE_MAX } from '../terms/authority-reference.js';
import { MeterScope } from '../terms/stations.js';
import { MACHINE_ID_MAX } from '../terms/validation-number.js';
import { z } from 'zod';
import type { Correction, Uncorrectable } from '../engine/table/vocabulary.js';
import { TICKET_MONEY_TYPES } from './ticket-postings.js';
import { TICKET_JOURNAL_PAYLOADS } from '../terms/system-validation-terms.js';
import { AFT_JOURNAL_PAYLOADS } from './aft-terms.js';
import { journalSaid, said, tiltSaid } from '../terms/said.js';
import { hand, id, minor, positive, seat, station, tableCurrency, text, who } from '../terms/payload-fields.js';
import { SERVICE_PAYLOADS } from './service-payloads.js';
import { TRANSFER_PAYLOADS } from '../terms/transfer-terms.js';
import type { CORRECTIONS, UNCORRECTABLE } from '../terms/round-terms.js';
import { ROUND_PAYLOADS } from '../terms/round-terms.js';

// The typed payloads a kiosk journals. Every amount is integer minor units (avos/cents) of the
// table's currency. Stations are numbered from 1, as on the table config: seated ones 1–7,
// remote ones (a stadium) from 101 on (engine/table/vocabulary.ts).

const jackpotLevelId = z.string().regex(/^[a-z][a-z0-9-]{0,23}$/);
const tiltKind = z.string().regex(/^[a-z][a-z0-9-]{0,47}$/);

// The dealing errors a table corrects and why a void was the last resort (terms/round-terms.ts) are the
// engine's words both ways: one the engine adds is a compile error here until the ledger takes it too.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const _sameWords: [Same<(typeof CORRECTIONS)[number], Correction>, Same<(typeof UNCORRECTABLE)[number], Uncorrectable>] = [true, true];
void _sameWords;

/**
 * Why the host refused a note's escrow or credit (host/devices/credit-rule/): a credit is given only
 * for an escrow the host itself answered "stack" to, for that escrow's note, in the table's
 * currency, for a note the table takes, while the acceptor takes notes.
 */
export const BILL_REFUSALS = [
  /** No escrow the host answered "stack" to has that id at that acceptor. */
  'no-escrow',
  /** The note is not in the table's currency. */
  'wrong-currency',
  /** The amount is not the note's face value, or no note of the currency has that face value. */
  'bad-note',
  /** The table does not take that note. */
  'note-not-accepted',
  /** The acceptor was inhibited (a fault, a technician) and so could not have taken a note. */
  'acceptor-inhibited',
  /** The escrow is credited already: a second report for one note. */
  'already-credited',
  /** The escrow went back to the customer. */
  'escrow-returned',
  /** The credit names the escrow but another note than it held (value or currency). */
  'escrow-mismatch',
] as const;

const authorisation = {
  who,
  /** The regulator's or the casino's authorisation reference for this act (the service screen checks the same limit on its one form). */
  authorisation: z.string().min(1).max(AUTHORITY_REFERENCE_MAX),
};

export const PAYLOADS = {
  /** The acceptor holds a note in escrow; journalled before STACK is sent. No money moves. */
  'bill.escrow': z.strictObject({
    station,
    device: id,
    denomination: positive,
    currency: z.string().length(3),
    /** The driver's id of the escrow (its credit and return name it); absent in entries journalled before it was written here. */
    escrowId: id.optional(),
  }),
  /** The note was returned (rejected, timeout, or the escrow resolved as not stacked on restart). */
  'bill.return': z.strictObject({
    station,
    device: id,
    denomination: positive,
    currency: z.string().length(3),
    reason: text,
    /** The `bill.escrow` entry this return resolves, when there was one. */
    escrowSeq: z.number().int().positive().optional(),
  }),
  /** Credit given at the protocol's credit point (ID-003 VEND VALID, SSP credit). */
  'bill.credit': z.strictObject({
    station,
    device: id,
    denomination: positive,
    currency: z.string().length(3),
    /** The `bill.escrow` entry this credit resolves, when there was one. */
    escrowSeq: z.number().int().positive().optional(),
    /**
     * The station agent's message the credit answers (a remote station's): the same message sent
     * again after a cut is the same credit, another report for the escrow is a refusal.
     */
    ref: z.string().min(1).max(64).optional(),
  }),
  /**
   * A security event: the host refused an acceptor's escrow or credit (`reason`) and credited
   * nothing; the station's acceptor fault is raised with it. `denomination` and `currency` are what
   * was claimed (minor units), `escrowSeq` the escrow it named when there was one. No money moves.
   */
  'bill.refused': z.strictObject({
    station,
    device: id,
    /** `return`: a note said to be back with the customer (from schema 14). */
    claim: z.enum(['escrow', 'credit', 'return']),
    reason: z.enum(BILL_REFUSALS),
    escrowId: id,
    denomination: positive,
    currency: z.string().length(3),
    escrowSeq: z.number().int().positive().optional(),
    /** Refusals at this acceptor since the last journalled one that were not journalled each (a flood, kept to a budget). */
    suppressed: positive.optional(),
  }),
  /**
   * Two people counted a station's cashbox at the drop: per face value, the notes counted and the
   * notes credited since the station's previous drop (`sinceSeq`: that drop's entry; absent, since
   * the first entry). `difference` is counted − credited in minor units: below zero, credits no
   * note in the cashbox stands for (a station machine or device that lied); above, notes no
   * credit stands for. A record for the reconciliation; no money moves (the cash leaves for the
   * count room, the journal keeps what the acceptor said and what was found).
   */
  'cashbox.drop': z.strictObject({
    station,
    currency: z.string().length(3),
    notes: z
      .array(
        z.strictObject({
          denomination: positive.max(100_000_000),
          counted: z.number().int().min(0).max(100_000),
          credited: z.number().int().min(0).max(10_000_000),
        }),
      )
      .max(16)
      .readonly(),
    counted: minor,
    credited: minor,
    difference: z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER),
    sinceSeq: z.number().int().positive().optional(),
    authorisedBy: z.array(who).length(2).readonly(),
  }),
  // A round's bets, its settlement or void, a dealing error and its resolution (terms/round-terms.ts).
  ...ROUND_PAYLOADS,
  /**
   * Stakes held past their round (a winning streak, Macau 2009 Art. 13 5)), the station's whole
   * `held:<n>`, given back to its credit because the table opened afresh (another game, profile or
   * rule options, a journal it could not fold): the streak the stakes rode on is gone with the old
   * game's state, so they are returned, not left held (host/table/start-table.ts); or, the seat's
   * open streak only, because the configuration gave its seat to another station or to none
   * (engine/table/seat-streaks.ts). The house's reading: no article covers either.
   */
  'held.return': z.strictObject({ tableId: id, station, amount: positive, reason: text }),
  /** Credits removed from a station's meter to be paid by an attendant (GLI "cancelled credits"). */
  'credit.cancel': z.strictObject({ station, amount: positive, reason: text, currency: tableCurrency.optional() }),
  /** A win paid by hand without passing through the credit meter (jackpot, win above the limit). */
  'handpay.request': z.strictObject({
    station,
    amount: positive,
    reason: z.enum(['jackpot', 'win-limit']),
    detail: text.optional(),
    currency: tableCurrency.optional(),
  }),
  /** The attendant paid a pending `credit.cancel` or `handpay.request` (named by its txId). */
  'handpay.confirm': z.strictObject({
    station,
    requestTxId: id,
    amount: positive,
    attendant: who,
    /** The second person present, for a handpay above the table's two-person amount. */
    witness: who.optional(),
    currency: tableCurrency.optional(),
  }),
  'door.open': z.strictObject({ door: z.string().min(1).max(32), station: station.optional() }),
  'door.close': z.strictObject({ door: z.string().min(1).max(32), station: station.optional() }),
  /** Journalled at every start: the previous run ended (cleanly or not). */
  'power.reset': z.strictObject({
    clean: z.boolean(),
    softwareVersion: z.string().max(64),
    detail: text.optional(),
    /** The program hash of the files this run started from (host/service/program-hash.ts), how they run, how many. */
    programHash: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .optional(),
    programMode: z.enum(['tsx', 'electron', 'packaged']).optional(),
    programFiles: z.number().int().nonnegative().optional(),
    /** The table's currency this run (its configuration's; a currency changes only with a restart): the span the entries after it are in. */
    currency: tableCurrency.optional(),
  }),
  'config.change': z.strictObject({
    ...authorisation,
    key: z.string().min(1).max(128),
    before: z.unknown(),
    after: z.unknown(),
    /** The second person who confirmed the change (two-person rule, issue 9). */
    witness: who.optional(),
    /** The back office's request this change carries out (issue 49 item 6), when it came from the upstream. */
    order: z.number().int().positive().optional(),
    /** The upstream's Ed25519 signature over that request's order for this terminal (host/floor/remote-config.ts), as it came. */
    signature: z
      .string()
      .regex(/^[A-Za-z0-9+/]+={0,2}$/)
      .max(200)
      .optional(),
    /**
     * A rule set (the profile, its options) switched at this shoe change (issue 49 item 6): in
     * effect from here, the game rebuilt between shoes; its `rules.record` follows, in force.
     */
    at: z.literal('shoe').optional(),
    /** The day a new rule set's authorisation takes effect (rule options only, issue 51); absent: the day it was journalled. */
    effective: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .optional(),
  }),
  /**
   * A configuration change the back office asked for (its request `order`, signed by the upstream)
   * that this table refused: the change itself is not made. The refusal reaches the back office
   * through the synced journal, said as a key and its parameters (`say`). No money moves.
   */
  'config.refused': z.strictObject({
    order: z.number().int().positive(),
    key: z.string().min(1).max(128),
    /** Who proposed and who approved it, as the order named them; absent when the order could not be read (too long, off its schema). */
    who: who.optional(),
    witness: who.optional(),
    /** The refusal in English (the host's log's words). */
    reason: text,
    /** What the refusal says to a person: a key of the catalogues and its parameters (the back office shows it in the reader's language). */
    say: said.optional(),
  }),
  /**
   * The table's rule set and its authorisation on record (issue 51), at every open and after every
   * configuration change: the regulator's reference (none on a demonstration table), the day it
   * takes effect, the SHA-256 of the rule set it covers, the article requiring it. No money moves.
   */
  'rules.record': z.strictObject({
    reference: z.string().min(1).max(128).optional(),
    effective: z.iso.date().optional(),
    digest: z.string().regex(/^[0-9a-f]{64}$/),
    game: z.string().min(1).max(32),
    profile: z.string().min(1).max(64),
    article: text,
    demonstration: z.boolean(),
    /** Why it was journalled: the table opened, or the `config.change` of that seq. */
    cause: z.enum(['open', 'config.change']),
    changeSeq: z.number().int().positive().optional(),
    /**
     * A change that takes effect at the next start (rule options, the profile): on record from its
     * change, in force only from the start that applies it, which journals its own record. Rounds
     * played meanwhile were played under the record before it (`ruleRecordAt` skips this one).
     */
    takesEffect: z.literal('next-start').optional(),
  }),
  /**
   * A fault began (host/tilts): what it disables and how it clears follow from its kind. No money
   * moves. `detail` in English (the log's words); `say`, where the host words it, the same as a key
   * of the catalogues and its parameters, for service mode to show in the reader's language.
   */
  'tilt.raise': z.strictObject({ kind: tiltKind, station: station.optional(), detail: text.optional(), say: tiltSaid.optional() }),
  /**
   * A fault ended: by itself (the condition went) or cleared by a person of the named role. No money
   * moves. `detail` in English (the log's words); `say`, where the host words why, the same by key.
   */
  'tilt.clear': z.strictObject({
    kind: tiltKind,
    station: station.optional(),
    /** The `tilt.raise` entry this clears. */
    raisedSeq: z.number().int().positive(),
    automatic: z.boolean(),
    by: who.optional(),
    role: z.string().min(1).max(32).optional(),
    detail: text.optional(),
    say: tiltSaid.optional(),
  }),
  /**
   * The only way a meter goes down: every meter of the scope back to zero, authorised. `reason`: a person's words, or the host's English; `say`, what was done as a key of the
   * catalogues and its parameters (the scope, the authorisation), for the event log to say.
   */
  'meter.clear': z.strictObject({ ...authorisation, scope: MeterScope, reason: text, say: journalSaid.optional() }),
  /**
   * A card the shoe read and the engine placed, journalled before any screen is told: a killed
   * host replays a round's cards from these. `roundId` is absent for a card outside a round (a
   * shoe-start burn); `sequence` is the shoe's own event number (absent when the device has none).
   * No money moves.
   */
  'card.read': z.strictObject({
    tableId: id,
    roundId: id.optional(),
    sequence: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
    card: z.string().min(2).max(3),
    to: z.string().min(1).max(32),
  }),
  /** A seat's decision as the engine took it (auto: the countdown ran out), before the screens hear of it. No money moves. */
  'round.decision': z.strictObject({
    tableId: id,
    roundId: id,
    seat,
    hand: hand.optional(),
    station: station.optional(),
    action: z.string().min(1).max(32),
    auto: z.boolean().optional(),
    /** What a decision that names an amount (insurance) took from the deciding station; never the number its screen sent. */
    amount: positive.optional(),
    /**
     * A double or split: the bettors behind (`station:<n>`) who could not cover their share and
     * did not follow it (Portugal rules 28, 30; Macau by analogy). A replay keeps them out again.
     */
    notFollowing: z.array(z.string().min(1).max(32)).max(8).readonly().optional(),
  }),
  /**
   * An input the table's state machine took (engine/table/inputs.ts: a bet placed, a card read, a
   * countdown run out…), journalled in one transaction with the `effects` entries its step wrote
   * right after it. Folding the table's step over these rebuilds the table exactly (recovery, an
   * inspector's replay). The ledger keeps it as written; the engine's schema reads it back.
   */
  'table.input': z.strictObject({
    input: z.record(z.string(), z.unknown()),
    effects: z.number().int().min(0).max(10_000),
  }),
  /** The shoe was replaced (a new shoe is in) or showed its cut card: where a replay of the shoe starts. No money moves. */
  'shoe.change': z.strictObject({
    tableId: id,
    event: z.enum(['loaded', 'cut-card']),
    sequence: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
  }),
  // Service mode (issue 9) and the credentials this table trusts (ledger/service-payloads.ts): no money, no meter.
  ...SERVICE_PAYLOADS,
  /**
   * What a round's jackpot chips and awards did to each level of the progressive (Portugal rules
   * 40, 44, 50), journalled with the round's settlement. The chips and awards themselves are the
   * settlement's `jackpot` lines; this moves the money between the house and the pools.
   */
  'jackpot.settle': z.strictObject({
    roundId: id,
    tableId: id,
    /** The authority's approval of the program the round played under (rules 40, 43). */
    reference: z.string().min(1).max(128),
    levels: z
      .array(
        z.strictObject({
          level: jackpotLevelId,
          before: minor,
          /** Part of `before` the house committed and no entry journalled yet (the start value, a reset). */
          funded: minor,
          contribution: minor,
          /** The fraction of a unit carried into the round (parts of 100,000,000, rule 40); absent when none. */
          carryIn: z.number().int().min(1).max(99_999_999).optional(),
          award: minor,
          hits: z.number().int().nonnegative().max(4096),
          /**
           * What the house adds before the award so the holders sharing the pool (rule 50 b)) get
           * equal shares rounded up: fewer than the hits; absent when none (older journals).
           */
          rounding: z.number().int().min(1).max(4095).optional(),
          seed: minor,
          after: minor,
        }),
      )
      .min(1)
      .max(4)
      .readonly(),
    /** Who hit which level with which combination, and the award (on the settlement's line, or by hand). */
    hits: z
      .array(
        z.strictObject({
          station,
          seat,
          hand,
          combination: z.string().min(1).max(32),
          level: jackpotLevelId,
          amount: positive,
        }),
      )
      .max(64)
      .readonly(),
  }),
  /**
   * Two people set a progressive level's pool on the authority's reference (Portugal rules 40,
   * 44): the house brings the pool to `to` (never lowers it). `unfunded`: the part of the table's
   * pool the house had committed (a start value) and no entry had journalled.
   */
  'jackpot.reset': z.strictObject({
    tableId: id,
    level: jackpotLevelId,
    to: minor,
    unfunded: minor,
    ...authorisation,
    witness: who,
  }),
  /** A diagnostic action (test note, test card, enable/disable, reconnect): a test, never money. */
  'service.test': z.strictObject({ who, device: z.string().min(1).max(32), test: z.enum(['note', 'card', 'enable', 'disable', 'reconnect']), result: text }),
  /** Any other service action, with the second person of a two-person action. */
  /**
   * A service act: who, the second person, the act by its code; `detail` in English (the log's
   * words); `say`, the detail as a key of the catalogues (`journalSaid.act*`) and its parameters,
   * for the event log to say in the reader's language (absent in acts journalled before 7 December 2026).
   */
  'service.action': z.strictObject({ who, action: z.string().min(1).max(32), confirmedBy: who.optional(), detail: text, say: journalSaid.optional() }),
  // A station's credit moved between table hosts (docs/transfers.md): `transfer.out`, `.recall`,
  // `.complete`, `.reverse` at the sender, `transfer.in`, `.refuse` at the receiver.
  ...TRANSFER_PAYLOADS,
  // A cash-out ticket's life at this table (docs/tito.md): issued, printed or voided; a ticket
  // inserted here asked about, approved, stacked or returned; a wait for the casino system's number (SAS system validation).
  ...TICKET_JOURNAL_PAYLOADS,
  /**
   * The machine validation id an authority gave this table (docs/tito.md, "Configured ids and
   * assigned ids never meet"): the upstream's answer to `POST /v1/tickets/machine`, or the casino
   * system's by long poll 0x4C (`sas`). Journalled before the answer is used, when it is not the id
   * the journal last recorded under that authority: the table numbers its tickets under the newest
   * of these and its last ticket's (ledger/ticket-queries.ts `journalledMachineId`), never under a
   * file of the data folder. No money moves.
   */
  'ticket.machine-id': z.strictObject({ machineId: z.number().int().min(1).max(MACHINE_ID_MAX), authority: z.enum(['upstream', 'sas']) }),
  // The casino system's cashless transfers over SAS (AFT, docs/sas.md): in to a station's credit, out of it; its registration.
  ...AFT_JOURNAL_PAYLOADS,
} as const;

export type EntryType = keyof typeof PAYLOADS;
export const ENTRY_TYPES = Object.keys(PAYLOADS) as EntryType[];
export type Payload<T extends EntryType> = z.infer<(typeof PAYLOADS)[T]>;

/** Entry types that move credit: each needs a transaction id, and an id is journalled once. */
export const MONEY_TYPES: ReadonlySet<EntryType> = new Set<EntryType>([
  'bill.credit',
  'bet.place',
  'round.settle',
  'round.void',
  'held.return',
  'credit.cancel',
  'handpay.request',
  'handpay.confirm',
  'jackpot.settle',
  'jackpot.reset',
  'transfer.out',
  'transfer.complete',
  'transfer.reverse',
  'transfer.in',
  ...TICKET_MONEY_TYPES,
  'aft.in',
  'aft.out',
]);

/** What a caller hands to `Ledger.append`. */
export type NewEntry = { [T in EntryType]: { type: T; payload: Payload<T>; txId?: string } }[EntryType];

/** Each type's schema, typed per key: indexing it with a generic type gives that type's parser. */
const PARSERS: { readonly [T in EntryType]: z.ZodType<Payload<T>> } = PAYLOADS;

export function parsePayload<T extends EntryType>(type: T, payload: unknown): Payload<T> {
  const schema: z.ZodType<Payload<T>> | undefined = PARSERS[type];
  if (!schema) throw new TypeError(`unknown entry type ${String(type)}`);
  return schema.parse(payload);
}

// Account names. Signed posting amounts: + is a debit, − a credit. Liabilities (credit owed to a
// player, wagers in play, handpays owed) are credit-normal, so their balance is −Σ.
export const account = {
  stationCredit: (s: number) => `station:${s}:credit`,
  wagers: (s: number) => `wagers:${s}`,
  /** Stakes a station wagered in an earlier round that are still in play (winning streaks, Macau 2009 Art. 13 5)). */
  heldBets: (s: number) => `held:${s}`,
  cashbox: (s: number, denomination: number) => `cashbox:${s}:${denomination}`,
  handpayPending: (s: number) => `handpay:${s}:pending`,
  house: 'house',
  /** Cash paid out by attendants from the cage. */
  cage: 'cage',
  /** A level of the progressive jackpot: owed to the players who will hit it (credit-normal). */
  jackpotPool: (level: string) => `jackpot:${level}:pool`,
  /** Credit sent to another table's host and not answered yet (docs/transfers.md): owed to the station until closed (credit-normal). */
  transferInFlight: (to: string) => `transfer:${to}:in-flight`,
  /** What this table and another owe each other for completed transfers: + owed to this table, − owed by it. */
  tableSettlement: (table: string) => `table:${table}:settlement`,
  /** What the casino's system moved to (+) or from (−) a station's credit by AFT (docs/sas.md): its players' cashless accounts. */
  aft: (s: number) => `aft:${s}`,
} as const;

export type Posting = readonly [account: string, amount: number];
export type MeterDelta = readonly [scope: string, name: string, delta: number];
