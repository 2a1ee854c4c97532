import type { Card, CardCode } from '../cards/card.js';
import type { SettlementLine } from '../settlement/settlement-line.js';
import type { BlackjackBetEntry, SideBetId } from './bets/entry.js';
import type { StreakLevel } from './bets/streak.js';
import type { JackpotLevelMove, JackpotResult, JackpotState } from './jackpot/settle.js';
import type { BlackjackRules } from './rules.js';
import type { ActRefusal } from '../table/act-refusal.js';
import type { DecisionAction } from '../table/vocabulary.js';

/** A blackjack round's inputs and outputs as plain data (the round itself: round.ts). */

/* ───────────────────────────── inputs ───────────────────────────── */

/**
 * A bettor's additional bets on a hand, by the catalogue's id (engine/blackjack/bets/): the bets
 * of the first cards, and the seat's jackpot chip. A bet the round's catalogue does not have, or
 * the rules do not offer, is refused.
 */
export type SideStakes = Readonly<Partial<Record<SideBetId, number>>>;

export type SeatBets = SideStakes & {
  readonly main: number;
  /** New winning-streak bets by level (Art. 13 5)); only when the seat has none open. */
  readonly streak?: Partial<Record<`${StreakLevel}`, number>>;
};

/**
 * A bet behind (Macau Art. 20; Portugal rules 15–16, 28, 30). A bettor may also (or only) place
 * additional bets on this seat's hand: Art. 13 lets them be placed on any player's hand; `main: 0`
 * with a side bet is such a side-only bettor.
 */
export type BehindBet = SideStakes & {
  readonly owner: string;
  readonly main: number;
  /** With `behindFollows: bettor-chooses`: whether this bettor follows a split / a double. */
  readonly followSplit?: boolean;
  readonly followDouble?: boolean;
};

export interface SeatEntry {
  readonly seat: number;
  readonly bets: SeatBets;
  readonly behind?: readonly BehindBet[];
  /** Whether a player sits at the seat (false: only standing bettors; Art. 3 n.4, rule 16). */
  readonly seated?: boolean;
}

/** Winning-streak marker of a seat, carried from round to round (Art. 13 5), Art. 11 n.2). */
export interface StreakState {
  readonly seat: number;
  /** Open bets by level, in minor units. */
  readonly bets: Partial<Record<`${StreakLevel}`, number>>;
  /** Consecutive rounds won so far (the marker's position is wins + 1). */
  readonly wins: number;
}

export interface RoundSetup {
  readonly rules: BlackjackRules;
  readonly seats: readonly SeatEntry[];
  readonly streaks?: readonly StreakState[];
  /**
   * Seats whose station a fault kept from betting in this round's window (the table decides:
   * engine/table/betting.ts). Not dealt, their open streak stakes are returned, not lost.
   */
  readonly keptOut?: readonly number[];
  /** The first round after a shuffle: per-round burns do not apply (the shoe-start burn did). */
  readonly firstRoundOfShoe?: boolean;
  /** The jackpot's program and pools as the round starts (Portugal rules 38–50). */
  readonly jackpot?: JackpotState;
  /** How many of each card had left the shoe before the round, so a card beyond its copies is refused across rounds. */
  readonly out?: Readonly<Partial<Record<CardCode, number>>>;
  /** The bets the round knows (engine/blackjack/bets/catalogue.ts unless given). */
  readonly catalogue?: readonly BlackjackBetEntry[];
}

/* ───────────────────────────── outputs ───────────────────────────── */

export type CardTarget = { readonly to: 'burn' } | { readonly to: 'dealer' } | { readonly to: 'hand'; readonly seat: number; readonly hand: number };

export type CardStep =
  'burn-round' | 'first' | 'dealer-up' | 'second' | 'dealer-hole' | 'split-second' | 'hit' | 'double' | 'burn-dealer-second' | 'dealer-second' | 'dealer-draw';

/**
 * Every decision the round asks for, of a hand's play and of the questions before and during it.
 * Each is one the table words (`DECISION_ACTIONS`, which adds war's and a bettor behind's): one
 * missing there fails to compile, not on a screen.
 */
export const ACTION_TYPES = [
  'hit',
  'stand',
  'double',
  'split',
  'surrender',
  'insurance',
  'decline-insurance',
  'even-money',
  'decline-even-money',
  'take-five-card-half',
  'continue',
] as const satisfies readonly DecisionAction[];
export type ActionType = (typeof ACTION_TYPES)[number];

export function isActionType(a: string): a is ActionType {
  return (ACTION_TYPES as readonly string[]).includes(a);
}

export type Action =
  | { readonly type: Exclude<ActionType, 'insurance' | 'double' | 'split'> }
  | {
      readonly type: 'double' | 'split';
      /**
       * Bettors behind (owners) whose bet would follow this double or split but does not: it stays
       * at its original stake on the doubled hand (Portugal rule 30), or rides on the first of the
       * two hands (rule 28). The seat's own bet always follows. Macau Art. 20 is silent on both;
       * the same reading applies there (docs/table-host.md). A host lists a bettor who cannot cover
       * its share, so the deciding player's double or split never depends on another's credit.
       */
      readonly notFollowing?: readonly string[];
    }
  | { readonly type: 'insurance'; readonly amount: number };

export type Offer = 'play' | 'insurance' | 'even-money' | 'five-card';

export type Expectation =
  | {
      readonly kind: 'card';
      readonly target: CardTarget;
      /** What the card is, as a code for the dealer's display (translated there). */
      readonly step: CardStep;
      /** The same in English, for logs and error messages. */
      readonly why: string;
    }
  | {
      readonly kind: 'decision';
      readonly seat: number;
      readonly hand: number;
      readonly offer: Offer;
      readonly legal: readonly ActionType[];
      /** Who decides for the seat (Art. 20 n.1; rules 15–16): `seat:<n>` or a behind bettor. */
      readonly decider: string;
      readonly insurance?: { readonly min: number; readonly max: number };
    }
  | { readonly kind: 'done' };

export interface BlackjackSettlementLine extends SettlementLine {
  /** The bettor behind, for back bets; absent for the seat's own bets. */
  readonly owner?: string;
  /** A winning-streak stake wagered in an earlier round and carried open until this one decided it. */
  readonly carried?: true;
}

/** A winning-streak stake wagered this round that stays open past it (the host holds it: ledger `held`). */
export interface HeldStreakStake {
  readonly seat: number;
  readonly bet: `streak${StreakLevel}`;
  readonly amount: number;
}

export interface HandView {
  readonly seat: number;
  readonly hand: number;
  readonly cards: CardCode[];
  readonly total: number;
  readonly soft: boolean;
  readonly status: HandStatus;
  /** Ace and a ten as a hand's first two cards, not after a split: «Black Jack» (Art. 10 n.1, n.6; rule 20). */
  readonly natural: boolean;
  readonly stake: number;
}

export type HandStatus = 'open' | 'stood' | 'busted' | 'surrendered' | 'blackjack' | 'settled';

/** A refusal of the round's procedure; a supervisor's act refused says why as facts too (`act`, said by key in service mode). */
export class RoundError extends Error {
  constructor(
    message: string,
    readonly act?: ActRefusal,
  ) {
    super(message);
  }
}

/* ─────────────── the procedure's own state (round-procedure.ts; plain data) ─────────────── */

export interface Stake {
  /** The bettor behind; absent for the seat holder's own stake (a checkpoint's JSON keeps no undefined). */
  readonly owner?: string;
  stake: number;
  readonly base: number;
  readonly followSplit: boolean;
  readonly followDouble: boolean;
  /** The stake stayed out of a split of its hand (rule 28) or a double (rule 30): its lines say so. */
  stayedOutSplit: boolean;
  stayedOutDouble: boolean;
}

export interface Hand {
  readonly seat: number;
  cards: Card[];
  stakes: Stake[];
  fromSplit: boolean;
  splitAces: boolean;
  doubled: boolean;
  aceLocked: boolean;
  status: HandStatus;
  acted: boolean;
  fiveOffered: boolean;
  bonusDone: boolean;
  /** Net result of the main bet of the seat owner on this hand, once settled (for streaks). */
  outcome?: 'win' | 'lose' | 'push';
}

export interface Seat {
  readonly entry: SeatEntry;
  readonly seat: number;
  readonly owner: string;
  readonly decider: string;
  hands: Hand[];
  insurance: number;
  /** Insurance of bettors behind (rule 15), by bettor, in the order they were asked. */
  behindInsurance: [string, number][];
  /** The player declined to split a pair formed after a split (Art. 16 n.5). */
  declinedResplit: boolean;
  surrendered: boolean;
  firstTwo: Card[];
  /** The card dealt to the first hand of a split of the first two cards (a third seven, Art. 13 2)(2)). */
  afterSplit?: Card;
  awaitingAfterSplit: boolean;
  /** Hands (by index when formed) whose first two cards after a split were a pair. */
  splitPairs: number[];
  /** Every card dealt to the seat's hands, in dealing order: the player's cards of rule 42. */
  dealt: Card[];
  /** Open streak bets; `carried`: open since an earlier round (their stakes were wagered then). */
  streak?: { bets: Partial<Record<`${StreakLevel}`, number>>; wins: number; carried: boolean };
}

/**
 * Where the procedure waits, and what it does with the answer: a card for a place in the deal, or
 * a decision of a seat (`k`: the seat's index in table order; `i`: its hand; `j`: a stake on it).
 */
export type Resume =
  | { readonly at: 'burn-round' | 'dealer-up' | 'dealer-hole' | 'burn-dealer-second' | 'dealer-second' | 'dealer-draw' | 'done' }
  | { readonly at: 'first' | 'second' | 'even-money' | 'insurance'; readonly k: number }
  | { readonly at: 'insurance-behind'; readonly k: number; readonly j: number }
  | { readonly at: 'split-second' | 'resplit-aces' | 'five-card' | 'play' | 'hit' | 'double'; readonly k: number; readonly i: number };

export interface SeatViews {
  readonly hands: readonly HandView[];
  readonly stakes: readonly StakeView[];
}

/** What the procedure keeps between moves beside what a round shows: its seats, where it waits, its flags. */
export interface ProcedureState {
  readonly seats: readonly Seat[];
  /** Each seat's hands and stakes as the round shows them, kept so that a move rebuilds only the seats it changed. */
  readonly views: readonly SeatViews[];
  readonly resume: Resume;
  /** Cards drawn by mistake and not seen, waiting for the next player who asks for a card (rule 18). */
  readonly unseen: readonly Card[];
  readonly insuranceSettled: boolean;
  /** A card beyond the first deal has been dealt to a hand (hit, double, a split hand's second): surrender is then too late (Art. 18 n.2). */
  readonly additionalDealt: boolean;
}

/** What happened in a round, in order: with its setup, the round itself (round.ts plays it). */
export type RoundEvent =
  | { readonly card: Card }
  | { readonly action: Action }
  | { readonly discard: Card; readonly why: string }
  | { readonly held: Card }
  /** `dealingError`: an error in the deal that could not be rectified (Macau Art. 5 n.1 2)); absent, another reason. */
  | { readonly void: string; readonly dealingError?: true };

/** A stake on a seat's hand now, by bettor (the seat holder's owner is undefined). */
export interface StakeView {
  readonly seat: number;
  readonly hand: number;
  readonly owner?: string;
  readonly stake: number;
  readonly base: number;
  readonly followSplit: boolean;
  readonly followDouble: boolean;
  readonly stayedOutSplit: boolean;
  readonly stayedOutDouble: boolean;
}

/** The jackpot after a round in which a chip played: pools, what moved, the hits (Portugal rules 38–50). */
export interface JackpotSettlement {
  readonly state: JackpotState;
  readonly moves: readonly JackpotLevelMove[];
  readonly results: readonly JackpotResult[];
}

/**
 * A round of blackjack as plain data: its setup and what happened (`log`), and what follows from
 * them, computed when the round moved (round.ts): what is expected next, the lines written, the
 * hands. Nothing in it changes; a move makes a new one.
 */
export interface RoundState {
  readonly setup: RoundSetup;
  readonly log: readonly RoundEvent[];
  /** What must happen next: which card for whom, or which decision with its legal actions. */
  readonly expected: Expectation;
  readonly done: boolean;
  /** Voided (Art. 5 n.1 2)): every bet returned. */
  readonly voided: boolean;
  /** The first round after the shoe was shuffled ("o início do jogo", Art. 5 n.1 1)). */
  readonly firstOfShoe: boolean;
  /** Settlement lines as bets are decided, each naming its article. */
  readonly lines: readonly BlackjackSettlementLine[];
  readonly dealer: readonly Card[];
  readonly burns: readonly Card[];
  /** Cards that left the shoe but do not count, with the reason. */
  readonly discards: readonly { readonly card: Card; readonly why: string }[];
  readonly hands: readonly HandView[];
  /** Every stake on every hand now, seat by seat. */
  readonly stakes: readonly StakeView[];
  /** Streak markers as the round started: those carried in, and the seats' new streak bets at no wins. */
  readonly streaksBefore: readonly StreakState[];
  /** Streak markers after the round (only meaningful once done). */
  readonly streaks: readonly StreakState[];
  /** The jackpot after the round (only once done, and only when a chip played). */
  readonly jackpot?: JackpotSettlement;
  /** The pools this round plays for: the chips are collected before the deal (rule 48), the display incremented (rule 41). */
  readonly jackpotPools?: Readonly<Record<string, number>>;
  /** Streak stakes wagered this round that stay open past it (only meaningful once done). */
  readonly held: readonly HeldStreakStake[];
  /** How many of each card have left the shoe, the round's included. */
  readonly out: Readonly<Partial<Record<CardCode, number>>>;
  /** The procedure's own state: each move (round-procedure.ts) starts from it, never from the log. */
  readonly procedure: ProcedureState;
}
