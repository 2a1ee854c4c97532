import { z } from 'zod';
import { hand, id, minor, positive, seat, station, tableCurrency, text, who } from './payload-fields.js';

// The payloads of a round as the kiosk journals them (ledger/entries.ts gathers them with the
// others): its bets, its settlement or void, a dealing error and how it was resolved. Here, not in
// the ledger, so that the upstream reads a synced round's entries through the same schemas (the
// round's record and evidence bundle: terms/round-record.ts, terms/round-evidence.ts) without
// installing SQLite. Every amount is integer minor units of the table's currency.

/** A card as the shoe read it, in dealing order, and where it went. */
const cardDealt = z.strictObject({
  /** Card code as `engine/cards/card.ts` writes it, e.g. `AS`, `TD`. */
  card: z.string().min(2).max(3),
  /** `seat:3`, `seat:3:hand:1`, `dealer`, `player`, `banker`, `burn`, `war:3`… */
  to: z.string().min(1).max(32),
});

const decision = z.strictObject({
  seat,
  hand: hand.optional(),
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
  hand: hand.optional(),
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

/** The games a table plays, as its rounds name them. */
export const ROUND_GAMES = ['blackjack', 'baccarat', 'war'] as const;

const roundCore = {
  roundId: id,
  tableId: id,
  game: z.enum(ROUND_GAMES),
  profile: z.string().min(1).max(64),
  shoeId: id.optional(),
  startedAt: z.iso.datetime({ offset: true }).optional(),
  cards: z.array(cardDealt).max(416).readonly(),
  decisions: z.array(decision).max(512).readonly(),
};

/** The dealing errors a table corrects and why a void was the last resort (the engine's words, engine/table/vocabulary.ts). */
export const CORRECTIONS = ['exposed-card', 'undue-card', 'misdrawn-card', 'wrong-hand', 'exposed-card-stands'] as const;
export const UNCORRECTABLE = ['cards-after-error', 'decision-after-error', 'card-unidentified', 'no-correction-in-text', 'device-fault'] as const;

export const ROUND_PAYLOADS = {
  /** Credits → wagers in play. Doubles, splits and insurance are further bets of the same round. */
  'bet.place': z.strictObject({
    station,
    roundId: id,
    tableId: id,
    bets: z.array(betLine).min(1).max(32).readonly(),
    /** The table's currency (the table's parameters'); absent in entries journalled before 7 December 2026. */
    currency: tableCurrency.optional(),
  }),
  /** The round's record for recall and its settlement lines, each with the rule that decided it. */
  // A stadium's round: 7 seats and a thousand remote stations, up to five bets each.
  'round.settle': z.strictObject({
    ...roundCore,
    lines: z.array(settlementLine).max(8192).readonly(),
    held: z.array(heldStake).min(1).max(64).readonly().optional(),
    /**
     * The stations with lines here that bet nothing in the round: their lines are only stakes held
     * from earlier rounds (`carried`: a winning streak returned to a station a fault kept out, or
     * lost by one that did not bet). The round is no game of theirs: the ledger counts them no game
     * played, won, lost or tied (docs/sas.md). Absent when there are none, and in the journals
     * written before it, whose settlements counted a game for every station with a line.
     */
    notDealtIn: z.array(station).min(1).max(64).readonly().optional(),
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
} as const;

/** Entry types that belong to a round (their payload's `roundId`): the kiosk's journal indexes them by it, a round's record and evidence are read from them. */
export const ROUND_ENTRY_TYPES: ReadonlySet<string> = new Set(['bet.place', 'round.settle', 'round.void', 'misread', 'card.read', 'round.decision']);
