import { z } from 'zod';
import { lazily } from './lazy.js';
import { CARD_CODES } from '../cards/card.js';
import { BET_IDS, CARD_DESTINATIONS, DECISION_ACTIONS, HOLD_REASONS, LINE_BETS, OWN_WORDS, PRIZES } from '../engine/table/vocabulary.js';
import { RefusalReason } from './refusals.js';
import { BoxNumber, MinorUnits, SeatNumber } from './units.js';

const Seat = SeatNumber;
/** A seat, or the stadium box (0) where the remote stations' own bets play. */
const Box = BoxNumber;
/**
 * A seat's hand: Portugal's rules set no limit on splitting and a Macau house may choose up to 99
 * hands (engine/blackjack/option-table.ts `maxHands`), so 0…98. At most 7 here froze every screen on
 * a seat's ninth hand: the round no longer passed the schema (host/table/split-many-hands.test.ts).
 */
const HandIndex = z.number().int().min(0).max(98);
/** The hands on the felt: the dealer's, and up to 99 on each of the seven seats and the stadium box. */
const MAX_HANDS = 1 + 8 * 99;

/** A card's code (`AS`, `TD`…: the cards layer's 52), as the screens are sent it. */
export const CardCodeSchema = z.enum(CARD_CODES);
/** A card as read, or `XX` for a card the viewer may not see yet (the hole card). */
export const CardFace = z.union([CardCodeSchema, z.literal('XX')]);
export type CardFace = z.infer<typeof CardFace>;

/** One hand on the felt: the dealer's, baccarat's banker or player, or a seat's (split hands apart). */
export const HandView = z.strictObject({
  owner: z.enum(['dealer', 'banker', 'player', 'seat']),
  seat: Box.optional(),
  hand: HandIndex.optional(),
  cards: z.array(CardFace).max(24),
  /** The hand's points as the game counts them; null while a card is hidden. */
  total: z.number().int().min(0).max(40).nullable(),
  soft: z.boolean().optional(),
  /** Blackjack's «Black Jack» (an ace and a ten as the first two cards, not after a split): named, not counted. */
  natural: z.literal(true).optional(),
  status: z.string().max(32).optional(),
});
export type HandView = z.infer<typeof HandView>;

/** What the dealer must do next, shown on the table display. */
export const DealerCue = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('card'),
    to: z.enum(CARD_DESTINATIONS),
    seat: Box.optional(),
    hand: HandIndex.optional(),
    faceDown: z.boolean().optional(),
    /** Burns still to make, where the game counts them (shoe start, war). */
    burnsLeft: z.number().int().min(0).max(16).optional(),
    /** A card a player asked for or the dealer draws (a misdrawn card kept for it is placed there). */
    asked: z.boolean().optional(),
  }),
  /** A seat's decision, or (seat 0, the stadium box) the remote stations' own at war. */
  z.strictObject({ kind: z.literal('decision'), seat: Box }),
  z.strictObject({ kind: z.literal('shuffle') }),
  /** Portugal rule 49: the winner's cards stay on the table until the jackpot paid by hand is paid. */
  z.strictObject({ kind: z.literal('jackpot-unpaid'), seat: Box }),
]);
export type DealerCue = z.infer<typeof DealerCue>;

/** A catalogue key a game names an action or a bet by, where it words it its own way (engine/table/vocabulary.ts). */
export const OwnWord = z.enum(OWN_WORDS);
export type OwnWord = z.infer<typeof OwnWord>;

export const RoundPhase = z.enum(['betting', 'dealing', 'results', 'hold']);
export type RoundPhase = z.infer<typeof RoundPhase>;

/**
 * Why the table is on hold, worded for everyone under `hold.<reason>` (the engine's list,
 * engine/table/vocabulary.ts); a screen that meets another still says "table on hold" in words.
 */
export const HoldReason = z.enum(HOLD_REASONS);
export type HoldReason = z.infer<typeof HoldReason>;

/**
 * What a seat may be asked to decide, worded under `action.<action>` (and the offers, asked as a
 * question first, under `desk.offer.<action>`): the engine's list (engine/table/vocabulary.ts).
 */
export const DecisionAction = z.enum(DECISION_ACTIONS);
export type DecisionAction = z.infer<typeof DecisionAction>;

/** The decisions that come as a question before the buttons (`desk.offer.<action>`). */
export const OFFER_ACTIONS = [
  'insurance',
  'even-money',
  'take-five-card-half',
  'war',
  'follow-double',
  'follow-split',
] as const satisfies readonly DecisionAction[];

/**
 * Whose bet a settlement line settles: the seat's own player, or a bettor behind the seat
 * (Art. 20). The public view never says which station bets behind: each station gets its own
 * lines in `StationBetting.prizes` and `roundNet`.
 */
export const ResultOwner = z.enum(['seat', 'behind']);
export type ResultOwner = z.infer<typeof ResultOwner>;

/**
 * A winning line the screens celebrate: an additional bet (Macau 2009 Art. 13–14, baccarat's
 * pairs, the war tie bet), the Art. 15 special prize, or five cards taken at half pay (Art. 19).
 */
export const Prize = z.enum(PRIZES);
export type Prize = z.infer<typeof Prize>;

/** A settlement line as the screens show it: the engine's line, with the rule it applied. */
/** A bet a station places on one of its own seat's spots (engine/table/vocabulary.ts). */
export const BetId = z.enum(BET_IDS);
export type BetId = z.infer<typeof BetId>;

/** What a settlement or bet line is for: a spot's bet, a bet behind, or what a decision raised. */
export const LineBet = z.enum(LINE_BETS);
export type LineBet = z.infer<typeof LineBet>;

/**
 * Where a station puts chips: one of its own seat's spots, or behind another station's seat
 * (Macau Art. 20, Portugal rules 15–16). A typed pair: nothing on either side parses a string.
 */
export const Spot = z.union([
  z.strictObject({ bet: BetId }),
  z.strictObject({ bet: z.literal('behind'), seat: Seat }),
  // An additional bet on another seat's hand (Macau Art. 13 1)-3)).
  z.strictObject({ bet: BetId, seat: Seat }),
]);
export type Spot = z.infer<typeof Spot>;

/** An amount on a spot or in play: its line bet, and the seat it is behind when it is a bet behind another seat. */
export const Stake = z.strictObject({ bet: LineBet, seat: Seat.optional(), amount: MinorUnits.positive() });
export type Stake = z.infer<typeof Stake>;

/** Whether a stake is on a spot: the same bet, on the same seat for a spot on another seat (behind it or on its hand). */
export function onSpot(stake: Pick<Stake, 'bet' | 'seat'>, spot: Spot): boolean {
  return stake.bet === spot.bet && stake.seat === ('seat' in spot ? spot.seat : undefined);
}

/** A seat's winning-streak marker: rounds won in a row, and the levels still open (Macau 2009 Art. 13 5)(2) iii)). */
export const StreakMarker = z.strictObject({
  wins: z.number().int().min(0).max(5),
  open: z.array(z.strictObject({ bet: BetId, amount: MinorUnits.positive() })).max(4),
});
export type StreakMarker = z.infer<typeof StreakMarker>;

/** What a station has on a spot. */
export function amountOn(stakes: readonly Stake[], spot: Spot): number {
  let n = 0;
  for (const s of stakes) if (onSpot(s, spot)) n += s.amount;
  return n;
}

export const ResultLine = z.strictObject({
  seat: Box,
  bet: LineBet,
  hand: HandIndex.optional(),
  stake: MinorUnits.nonnegative(),
  net: MinorUnits,
  rule: z.string().min(1).max(128),
  /** The non-default choices the line was settled under (`option=value`) and their authorisation reference. */
  choices: z.array(z.string().min(1).max(96)).max(12).optional(),
  authorisation: z.string().min(1).max(128).optional(),
  owner: ResultOwner,
  /** Set on a winning line of an additional bet or a special prize (celebrated briefly). */
  prize: Prize.optional(),
  /** A winning-streak stake wagered in an earlier round and held until this one decided it. */
  carried: z.literal(true).optional(),
  /** The part of the win an attendant pays by hand (a jackpot award above the table's handpay amount; Portugal rule 49 holds the cards until it is paid). */
  handpay: MinorUnits.nonnegative().optional(),
});
export type ResultLine = z.infer<typeof ResultLine>;

/** One of this station's own winning prize lines (its seat's or its bets behind other seats). */
export const PrizeWin = z.strictObject({
  seat: Box,
  bet: LineBet,
  hand: HandIndex.optional(),
  net: MinorUnits.positive(),
  prize: Prize,
});
export type PrizeWin = z.infer<typeof PrizeWin>;

/** The public state of the table's round: what anyone standing at the table can see. */
export const RoundView = z.strictObject({
  roundId: z.string().min(1).max(64),
  phase: RoundPhase,
  /** The host's wall-clock time (ms) when the current countdown ends. */
  endsAt: z.number().int().nonnegative().nullable(),
  cue: DealerCue.nullable(),
  hands: z.array(HandView).max(MAX_HANDS),
  /** A line per hand for its seat and each bettor behind it, and the additional bets'. */
  results: z.array(ResultLine).max(2048).nullable(),
  /** Why the table is on hold (worded under `hold.<reason>`), when it is. */
  hold: HoldReason.nullable(),
});
export type RoundView = z.infer<typeof RoundView>;

/** A spot the station may bet on, with its limits. */
export const BetSpot = z.union([
  z.strictObject({ bet: BetId, min: MinorUnits.positive(), max: MinorUnits.positive() }),
  z.strictObject({ bet: z.literal('behind'), seat: Seat, min: MinorUnits.positive(), max: MinorUnits.positive() }),
  z.strictObject({ bet: BetId, seat: Seat, min: MinorUnits.positive(), max: MinorUnits.positive() }),
]);
export type BetSpot = z.infer<typeof BetSpot>;

/** A station's own betting panel: its spots with limits and what it has on them this round. */
export const StationBetting = lazily('StationBetting', () =>
  z.strictObject({
    open: z.boolean(),
    spots: z.array(BetSpot).max(64),
    /** Its chips on the spots while betting is open; what it has in play after. */
    bets: z.array(Stake).max(48),
    /**
     * Spots that did not play when betting closed (under their minimum, a bet behind a seat that
     * did not bet…): their chips stayed credit. Shown to the player (never silent) with
     * `refusals.<reason>` (`under-min` when no reason is given).
     */
    unplayed: z
      .array(
        z.strictObject({ bet: LineBet, seat: Seat.optional(), amount: MinorUnits.positive(), min: MinorUnits.positive(), reason: RefusalReason.optional() }),
      )
      .max(16)
      .optional(),
    /**
     * This station's bets behind that did not follow the seat's double or split this round because
     * its credit could not cover its share (`amount`): the bet stayed at its stake on the doubled
     * hand, or rides on the first of the split hands (Portugal rules 28, 30; Macau by analogy).
     * Shown with `station.notFollowed.<action>`.
     */
    notFollowed: z
      .array(z.strictObject({ seat: Seat, hand: HandIndex, action: z.enum(['double', 'split']), amount: MinorUnits.positive() }))
      .max(16)
      .optional(),
    /**
     * What this station won or lost in the round just settled, over every bet it had: its own seat
     * and its bets behind other seats (whose lines carry those seats' numbers). Only in results.
     */
    roundNet: MinorUnits.optional(),
    /** This station's own prize and additional-bet wins of the round just settled. Only in results. */
    prizes: z.array(PrizeWin).max(32).optional(),
    /** Its own seat's winning-streak marker, while it has streak bets open. */
    streak: StreakMarker.optional(),
  }),
);
export type StationBetting = z.infer<typeof StationBetting>;

/** A decision the station must make now, with the legal actions and what happens on timeout. */
export const StationDecision = lazily('StationDecision', () =>
  z.strictObject({
    seat: Box,
    hand: HandIndex.optional(),
    legal: z.array(DecisionAction).min(1).max(16),
    default: DecisionAction,
    endsAt: z.number().int().nonnegative(),
    /** What taking the offer costs this station (a bet behind following the seat's double or split). */
    cost: MinorUnits.optional(),
  }),
);
export type StationDecision = z.infer<typeof StationDecision>;
