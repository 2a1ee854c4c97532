import { z } from 'zod';
import type { Correction, Uncorrectable } from '../engine/table/vocabulary.js';
import { TICKET_MONEY_TYPES } from './ticket-postings.js';
import { TICKET_JOURNAL_PAYLOADS } from '../terms/system-validation-terms.js';
import { AFT_JOURNAL_PAYLOADS } from './aft-terms.js';
import { id, minor, positive, seat, station, text, who } from './payload-fields.js';
import { SERVICE_PAYLOADS } from './service-payloads.js';
import { TRANSFER_PAYLOADS } from '../terms/transfer-terms.js';

// The typed payloads a kiosk journals. Every amount is integer minor units (avos/cents) of the
// table's currency. Stations are numbered from 1, as on the table config: seated ones 1–7,
// remote ones (a stadium) from 101 on (engine/table/vocabulary.ts).

/** A card as the shoe read it, in dealing order, and where it went. */
const cardDealt = z.strictObject({
  /** Card code as `engine/cards/card.ts` writes it, e.g. `AS`, `TD`. */
  card: z.string().min(2).max(3),
  /** `seat:3`, `seat:3:hand:1`, `dealer`, `player`, `banker`, `burn`, `war:3`… */
  to: z.string().min(1).max(32),
});

const decision = z.strictObject({
  seat,
  hand: z.number().int().min(0).max(7).optional(),
  station: station.optional(),
  action: z.string().min(1).max(32),
  /** True when the countdown ran out and the profile's default was taken. */
  auto: z.boolean().optional(),
  /** A double or split: the bettors behind (`station:<n>`) who could not cover their share and did not follow it. */
  notFollowing: z.array(z.string().min(1).max(32)).max(8).readonly().optional(),
});

const betLine = z.strictObject({ seat, bet: z.string().min(1).max(32), amount: positive });

/** A settlement line of the engine (`engine/settlement/settlement-line.ts`) plus the paying station. */
const settlementLine = z.strictObject({
  station,
  seat,
  bet: z.string().min(1).max(32),
  hand: z.number().int().min(0).max(7).optional(),
  stake: minor,
  /** Player's net in minor units: + win, − loss, 0 push. Never below −stake. */
  net: z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER),
  rule: z.string().min(1).max(128),
  /** The non-default choices the line was settled under (`option=value`): an authorised alternative, a waiver, a reading awaiting the regulator. */
  choices: z.array(z.string().min(1).max(96)).min(1).max(12).readonly().optional(),
  /** The authorisation reference of those choices. */
  authorisation: z.string().min(1).max(128).optional(),
  /**
   * The part of the win paid by an attendant rather than to the credit meter (a jackpot award
   * above the table's handpay amount): journalled with its own `handpay.request`.
   */
  handpay: positive.optional(),
  /**
   * The stake was wagered in an earlier round and held open since (a winning streak, Macau 2009
   * Art. 13 5)): it comes back from the station's held bets, not from this round's wagers.
   */
  carried: z.literal(true).optional(),
});

const jackpotLevelId = z.string().regex(/^[a-z][a-z0-9-]{0,23}$/);

/** A winning-streak marker: rounds won in a row and the levels still open (Macau 2009 Art. 13 5)(2) iii)). */
const streakMark = z.strictObject({
  wins: z.number().int().min(0).max(5),
  open: z
    .array(z.strictObject({ bet: z.string().min(1).max(32), amount: positive }))
    .max(4)
    .readonly(),
});

/** A stake of this round that stays in play past it (a winning-streak bet still open): moved to the station's held bets. */
const heldStake = z.strictObject({ station, seat, bet: z.string().min(1).max(32), amount: positive });

const roundCore = {
  roundId: id,
  tableId: id,
  game: z.enum(['blackjack', 'baccarat', 'war']),
  profile: z.string().min(1).max(64),
  shoeId: id.optional(),
  startedAt: z.iso.datetime({ offset: true }).optional(),
  cards: z.array(cardDealt).max(416).readonly(),
  decisions: z.array(decision).max(512).readonly(),
};

const tiltKind = z.string().regex(/^[a-z][a-z0-9-]{0,47}$/);

/** The dealing errors a table corrects and why a void was the last resort (the engine's words, engine/table/vocabulary.ts). */
const CORRECTIONS = ['exposed-card', 'undue-card', 'misdrawn-card', 'wrong-hand', 'exposed-card-stands'] as const;
const UNCORRECTABLE = ['cards-after-error', 'decision-after-error', 'card-unidentified', 'no-correction-in-text', 'device-fault'] as const;
// The same words both ways: one the engine adds is a compile error here until the ledger takes it too.
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
  /** The regulator's or the casino's authorisation reference for this act. */
  authorisation: z.string().min(1).max(128),
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
    claim: z.enum(['escrow', 'credit']),
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
  /** Credits → wagers in play. Doubles, splits and insurance are further bets of the same round. */
  'bet.place': z.strictObject({ station, roundId: id, tableId: id, bets: z.array(betLine).min(1).max(32).readonly() }),
  /** The round's record for recall and its settlement lines, each with the rule that decided it. */
  // A stadium's round: 7 seats and a thousand remote stations, up to five bets each.
  'round.settle': z.strictObject({
    ...roundCore,
    lines: z.array(settlementLine).max(8192).readonly(),
    held: z.array(heldStake).min(1).max(64).readonly().optional(),
    /** How the round moved each seat's winning-streak marker: recall shows it before and after. */
    streaks: z
      .array(z.strictObject({ station, seat, before: streakMark.nullable(), after: streakMark.nullable() }))
      .min(1)
      .max(64)
      .readonly()
      .optional(),
  }),
  /**
   * Every bet of the round is returned; two people authorise (a supervisor and a witness). A void
   * is the last resort: `uncorrectable` says why no correction the text orders was possible, and
   * `rule` the article under which such a round is cancelled (absent for a device's fault).
   */
  'round.void': z.strictObject({
    ...roundCore,
    reason: text,
    authorisedBy: z.array(who).min(1).max(4).readonly(),
    uncorrectable: z.enum(UNCORRECTABLE).optional(),
    rule: z.string().min(1).max(128).optional(),
  }),
  /**
   * A card the shoe could not read, an extra card, one that breaks the inventory, a dealing error
   * the floor reported; resolved by a card entered by hand, a correction the game's text orders
   * (`correction`, with its `article`), or a void.
   */
  misread: z.strictObject({
    tableId: id,
    roundId: id.optional(),
    detail: text,
    resolution: z.enum(['pending', 'card-entered', 'round-void', 'corrected']),
    correction: z.enum(CORRECTIONS).optional(),
    article: z.string().min(1).max(128).optional(),
    card: z.string().min(2).max(3).optional(),
    confirmedBy: z.array(who).max(4).readonly().optional(),
    /** The shoe's sequence numbers of the events concerned (the unreadable read, the card entered). */
    shoeSequence: z.array(z.number().int().nonnegative()).max(16).readonly().optional(),
    /**
     * A card (or an unreadable read) that left the shoe while the table was already on hold:
     * recorded so that every physical card is accounted for; `detail` names the hold. It is not
     * a hold of its own and is resolved with the hold it came in.
     */
    duringHold: z.literal(true).optional(),
  }),
  /** Credits removed from a station's meter to be paid by an attendant (GLI "cancelled credits"). */
  'credit.cancel': z.strictObject({ station, amount: positive, reason: text }),
  /** A win paid by hand without passing through the credit meter (jackpot, win above the limit). */
  'handpay.request': z.strictObject({ station, amount: positive, reason: z.enum(['jackpot', 'win-limit']), detail: text.optional() }),
  /** The attendant paid a pending `credit.cancel` or `handpay.request` (named by its txId). */
  'handpay.confirm': z.strictObject({
    station,
    requestTxId: id,
    amount: positive,
    attendant: who,
    /** The second person present, for a handpay above the table's two-person amount. */
    witness: who.optional(),
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
    /** The day a new rule set's authorisation takes effect (rule options only, issue 51); absent: the day it was journalled. */
    effective: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .optional(),
  }),
  /**
   * A configuration change the back office asked for (its request `order`, signed by the upstream)
   * that this table refused: the change itself is not made. The refusal reaches the back office
   * through the synced journal. No money moves.
   */
  'config.refused': z.strictObject({
    order: z.number().int().positive(),
    key: z.string().min(1).max(128),
    who,
    witness: who,
    reason: text,
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
  }),
  /** A fault began (host/tilts): what it disables and how it clears follow from its kind. No money moves. */
  'tilt.raise': z.strictObject({ kind: tiltKind, station: station.optional(), detail: text.optional() }),
  /** A fault ended: by itself (the condition went) or cleared by a person of the named role. No money moves. */
  'tilt.clear': z.strictObject({
    kind: tiltKind,
    station: station.optional(),
    /** The `tilt.raise` entry this clears. */
    raisedSeq: z.number().int().positive(),
    automatic: z.boolean(),
    by: who.optional(),
    role: z.string().min(1).max(32).optional(),
    detail: text.optional(),
  }),
  /** The only way a meter goes down: every meter of the scope back to zero, authorised. */
  'meter.clear': z.strictObject({ ...authorisation, scope: z.string().regex(/^(table|station:\d{1,3})$/), reason: text }),
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
    hand: z.number().int().min(0).max(7).optional(),
    station: station.optional(),
    action: z.string().min(1).max(32),
    auto: z.boolean().optional(),
    /** For decisions that name an amount (insurance). */
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
          hand: z.number().int().min(0).max(7),
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
  'service.action': z.strictObject({ who, action: z.string().min(1).max(32), confirmedBy: who.optional(), detail: text }),
  // A station's credit moved between table hosts (docs/transfers.md): `transfer.out`, `.recall`,
  // `.complete`, `.reverse` at the sender, `transfer.in`, `.refuse` at the receiver.
  ...TRANSFER_PAYLOADS,
  // A cash-out ticket's life at this table (docs/tito.md): issued, printed or voided; a ticket
  // inserted here asked about, approved, stacked or returned; a wait for the casino system's number (SAS system validation).
  ...TICKET_JOURNAL_PAYLOADS,
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
