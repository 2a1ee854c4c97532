import type { z } from 'zod';
import type { Card, CardCode } from '../cards/card.js';
import type { SettlementLine } from '../settlement/settlement-line.js';
import type { PayLine } from './pay-line.js';
import type { ActRefusal } from './act-refusal.js';
import type {
  BetId,
  CardDestination,
  Correction,
  DecisionAction,
  GameKind,
  HoldReason,
  LineBet,
  OwnWord,
  Prize,
  RefusalReason,
  JackpotCombination,
} from './vocabulary.js';

/**
 * A refusal carries the English detail for the log and, for a player's command, the reason shown
 * to them; for a supervisor's act, why as facts (`act`), which service mode says by key.
 */
export type Outcome<T = object> =
  ({ readonly ok: true } & T) | { readonly ok: false; readonly reason: string; readonly refusal?: RefusalReason; readonly act?: ActRefusal };

/** What the dealer must deal next, as the table display cues it. */
export interface CardCue {
  readonly kind: 'card';
  readonly to: CardDestination;
  readonly seat?: number;
  readonly hand?: number;
  readonly faceDown?: boolean;
  /** Burns still to make, where the game counts them (shoe start, war). */
  readonly burnsLeft?: number;
  /**
   * A card a player asked for (a hit, a double) or the dealer draws: a misdrawn card kept for
   * the next one asked for is placed here (Portugal rule 18).
   */
  readonly asked?: boolean;
}

/**
 * A dealing error the game's text orders corrected, for a hold of one of `holds`, with the
 * article; or one it forbids (`forbiddenBy`: the text says the card stands).
 */
export type CorrectionRule =
  | { readonly correction: Correction; readonly holds: readonly HoldReason[]; readonly rule: string }
  | { readonly correction: Correction; readonly holds: readonly HoldReason[]; readonly forbiddenBy: string };

/**
 * Who decides for a seat: its own station, or a bettor behind it (Macau Art. 20; Portugal rules
 * 15–16); or, on the stadium box of a game whose remote stations decide for their own bets (war,
 * Art. 7 n.4), every remote station listed, each for itself and all within one countdown.
 */
export type Decider =
  | { readonly kind: 'seat' }
  | { readonly kind: 'behind'; readonly station: number }
  | { readonly kind: 'stadium'; readonly stations: readonly StadiumDecider[] };

/** A remote station deciding on the stadium box for its own bet. */
export interface StadiumDecider {
  readonly station: number;
}

export interface DecisionDue {
  readonly kind: 'decision';
  readonly seat: number;
  readonly hand?: number;
  readonly legal: readonly DecisionAction[];
  /**
   * What a timeout takes: an action that puts no credit into play (the table refuses a default
   * that stakes, engine/table/dealing.ts), so it is always one the player can take.
   */
  readonly default: DecisionAction;
  readonly decider: Decider;
  /** What taking the offer costs the one who decides (a bettor behind following a double or split). */
  readonly cost?: number;
}

/** What a round waits for: a card from the shoe, a seat's decision, or nothing (it can settle). */
export type Pending = { readonly kind: 'card'; readonly cue: CardCue } | DecisionDue | { readonly kind: 'done' };

/** A seat's bets when betting closes, with the stations betting behind it (in the order they bet). */
export interface SeatStakes {
  readonly seat: number;
  readonly bets: Readonly<Partial<Record<BetId, number>>>;
  /**
   * Other stations' bets on this seat's hand: behind it (`main`, 0 when it has none) and their
   * additional bets on the hand (`sides`: Art. 13, "de uma ou mais mãos de qualquer jogador").
   */
  readonly behind: readonly { readonly station: number; readonly main: number; readonly sides?: Readonly<Partial<Record<BetId, number>>> }[];
}

/** A winning-streak marker (Macau 2009 Art. 13 5)(2) iii)): rounds won in a row and the levels still open. */
export interface StreakMark {
  readonly wins: number;
  readonly open: readonly { readonly bet: BetId; readonly amount: number }[];
}

/** A seat's winning-streak marker. */
export interface SeatStreak extends StreakMark {
  readonly seat: number;
}

/** How a round moved a seat's marker, for the round's record: null where the seat had none. */
export interface StreakMove {
  readonly seat: number;
  readonly before: StreakMark | null;
  readonly after: StreakMark | null;
}

/** A stake wagered this round that stays in play past it (a winning-streak bet still open). */
export interface HeldStake {
  readonly seat: number;
  readonly bet: LineBet;
  readonly amount: number;
}

/**
 * A remote station's own bets when betting closes, on the stadium box (STADIUM_SEAT): a game
 * whose remote stations bet on their own spots settles them against the coup like a seat's,
 * each line naming the station (`bettor`).
 */
export interface StadiumStakes {
  readonly station: number;
  readonly bets: Readonly<Partial<Record<BetId, number>>>;
}

/** A stake a round adds while it runs (a war raise, a double, a split, insurance). */
export interface RoundStake {
  readonly seat: number;
  readonly bet: LineBet;
  readonly amount: number;
  /** The station betting behind the seat that stakes it; absent for the seat's own station. */
  readonly bettor?: number;
}

/**
 * A bet behind that did not follow the seat's double or split because its station could not cover
 * its share (`amount`): it stayed at its stake on the doubled hand, or on the first of the split
 * hands (Portugal rules 28, 30; Macau by analogy). Its station is told.
 */
export interface NotFollowed {
  readonly station: number;
  readonly seat: number;
  readonly hand: number;
  readonly action: 'double' | 'split';
  readonly amount: number;
}

/** A settlement line of a game; a bettor behind the seat is named by its station. */
export interface GameLine extends SettlementLine {
  readonly bet: LineBet;
  readonly bettor?: number;
  /** The stake was wagered in an earlier round and held since (a winning streak). */
  readonly carried?: true;
}

/** One hand on the felt: the dealer's, baccarat's banker or player, or a seat's (split hands apart). */
export interface HandView {
  readonly owner: 'dealer' | 'banker' | 'player' | 'seat';
  readonly seat?: number;
  readonly hand?: number;
  /** Card codes; `XX` for a card nobody may see yet (the hole card). */
  readonly cards: (CardCode | 'XX')[];
  readonly total: number | null;
  readonly soft?: boolean;
  /** Blackjack's «Black Jack»: the screens name it rather than count it (`11/21`). */
  readonly natural?: true;
  readonly status?: string;
}

/** A station's decision as the game is asked to take it. */
export interface DecisionRequest {
  readonly seat: number;
  /** The station deciding (on the stadium box, the remote station deciding for its own bet). */
  readonly station: number;
  readonly action: DecisionAction;
  /** For decisions that name an amount (insurance). */
  readonly amount?: number;
  /** Whether the seat's station (`bettor` absent) or the station betting behind can stake `amount` more. */
  readonly canAfford: (amount: number, bettor?: number) => boolean;
  /** The countdown ran out and the table takes the stated default: no act of the player's (a line may say so). */
  readonly auto?: boolean;
}

export interface DecisionTaken<S, R> {
  readonly shoe: S;
  readonly round: R;
  /** What the decision put into play, by bettor. */
  readonly stakes: readonly RoundStake[];
  /** Bettors behind who could not cover their share of a double or split and do not follow it. */
  readonly notFollowing: readonly number[];
}

/** Bets behind another station's seat, as the profile allows them (Macau Art. 20; Portugal rules 15–16). */
export interface BehindRule {
  readonly maxBettorsPerSeat: number;
  /** The article that allows bets behind a seat, for a refusal's detail. */
  readonly rule: string;
  /** What fixes `maxBettorsPerSeat`: the article where the text names a number, else the house's option (a refusal's detail). */
  readonly cap: string;
}

/**
 * What the game's text fixes about stakes and the table itself, each with the rule that fixes
 * it; null where the text fixes nothing. The table checks them when it is configured
 * (`limitProblems`) and at every bet.
 */
export interface LimitRules {
  /** Every bet the spot's minimum or a whole multiple of it (Portugal rule 14). */
  readonly multiplesOfMinimum: string | null;
  /** A spot's maximum at most this many times its minimum (Portugal rule 37: 30). */
  readonly maxTimesMinimum: { readonly times: number; readonly rule: string } | null;
  /** The fewest seats the table may have («Desafio ao Casino»: seven or more). */
  readonly minSeats: { readonly seats: number; readonly rule: string } | null;
  /** The article that lets the casino cap the total bet on the table per round, if the text has one. */
  readonly roundMaxRule: string | null;
  /** A station may place only one of these additional bets per round (Macau Art. 13 "uma das seguintes apostas", read literally). */
  readonly oneAdditionalBet: { readonly bets: readonly BetId[]; readonly rule: string } | null;
  /**
   * A bet that is one chip of a fixed amount, whatever the table's limits say (Portugal rule 47:
   * the jackpot bet «apenas por uma ficha por cada jogador, no montante previamente definido»):
   * the table makes that amount the bet's minimum and maximum (`withChipLimits`).
   */
  readonly oneChip?: { readonly bet: BetId; readonly amount: number; readonly rule: string };
  /**
   * The article under which the shoe may end before it is spent only while play is interrupted (no
   * stake on the layout): Portugal rule 12 lets the dealer spread the shoe's cards «sempre que o jogo
   * for interrompido por ausência de jogadores ou quando, embora algum permaneça na mesa, não faça
   * aposta». Absent where the text says nothing of it.
   */
  readonly shoeEndsEarlyOnlyWithoutStakes?: string;
}

/** What the table display draws beside the felt, and how it names things, per game. */
export interface Presentation {
  /** Whether the felt has a dealer's hand (baccarat has banker and player instead). */
  readonly dealerHand: boolean;
  /** The panel beside the felt: baccarat's roads, or the last rounds' strip. */
  readonly panel: 'roads' | 'history';
  /** The catalogue key of an action where the game words it its own way (war's surrender is half the bet back). */
  readonly actionWords?: Readonly<Partial<Record<DecisionAction, OwnWord>>>;
  /** The catalogue key of a bet where the game names it its own way (war's tie bet is not baccarat's tie). */
  readonly betWords?: Readonly<Partial<Record<LineBet, OwnWord>>>;
}

/**
 * What the game's text fixes about its bets and its table under the profile, each with the
 * article that fixes it: the spots, who may bet where, the limits, the pay table, the corrections
 * and the void. Plain data, read by the table before any move.
 */
export interface GameRules {
  /** The spots a seat may bet on, in display order. */
  readonly bets: readonly BetId[];
  /** Bets behind another station's seat; null where the game or its profile has none. */
  readonly behind: BehindRule | null;
  /**
   * How a remote station (no seat) plays: on its own spots, settled on the stadium box like a
   * seat (baccarat: every seat plays the same coup); only behind a seat, within `behind`'s limits
   * (blackjack: Macau Art. 20, Portugal rules 15-16); or not at all (null).
   */
  readonly remote: 'own-spots' | 'behind' | null;
  /**
   * The bet every other bet of a seat stands beside, and the article that says so (null where
   * only the engine requires it): a seat's additional bets without it do not play. Null where a
   * seat may play any of its bets alone (baccarat; war's tie bet).
   */
  readonly initialBet: { readonly bet: BetId; readonly rule: string | null } | null;
  /**
   * The additional bets a station may place on another seat's hand, and the article that lets it
   * (Macau Art. 13 1)-3)); absent where none may.
   */
  readonly onOtherSeats?: { readonly bets: readonly BetId[]; readonly rule: string };
  readonly limitRules: LimitRules;
  /** The pay table the station's help shows, each line with the rule the settlement quotes. */
  readonly payTable: readonly PayLine[];
  /** The dealing errors the text orders corrected (engine/table/holds.ts `correct`); none: the round is voided. */
  readonly corrections: readonly CorrectionRule[];
  /** The article under which a round that cannot be corrected is cancelled; null where the text has none. */
  readonly voidRule: string | null;
}

/** The shoe's procedure between rounds: a fresh shoe, its burns, the cut card, its end; a progressive's reset. */
export interface ShoeMoves<S> {
  /** A fresh shoe's state (before its shoe-level procedure: burns). */
  initial(): S;
  /** The shoe was replaced: its shoe-level procedure starts again. */
  newShoe(shoe: S): S;
  /** The reading shoe reported the cut card. */
  cutCard(shoe: S): S;
  /** A card the dealer must handle between rounds (a burn at shoe start), or null. */
  shoeCue(shoe: S): CardCue | null;
  takeShoeCard(shoe: S, card: Card): Outcome<{ shoe: S; to: string }>;
  /** The shoe has ended (cut card out and the last round played): shuffle before betting. */
  shoeFinished(shoe: S): boolean;
  /** The cut card is out: the table announces the last round(s) of the shoe. */
  lastRoundOfShoe(shoe: S): boolean;
  /**
   * The most cards one coup of `hands` betting hands can take, where that can pass the cards
   * behind the cut card (war's wars); absent where the game's own cut leaves room (blackjack's
   * 50–60 from the end, baccarat's six-card coup). A simulated dealer places its cut card so that
   * its last coup fits.
   */
  longestCoup?(hands: number): number;
  /**
   * A level set to `to` between rounds (two people, the authority's reference): refused below the
   * program's minimum or below what the level holds. `unfunded`: what the house had committed to
   * it and not journalled, which the reset journals with it.
   */
  resetProgressive?(shoe: S, level: string, to: number): Outcome<{ shoe: S; unfunded: number }>;
  /**
   * Stakes carried between rounds on seats given to another station, or to none (the configuration
   * changed): the winning streaks of `seats` end, between rounds only, and what each one's open
   * levels stake comes back (`ended`), under `rule`. Absent where the game carries no stake.
   */
  endStreaks?(shoe: S, seats: readonly number[]): { shoe: S; ended: readonly { readonly seat: number; readonly amount: number }[]; rule: string };
}

/** A round from its bets to its settlement: what it waits for, each card and decision, the settlement, a void. */
export interface RoundMoves<S, R> {
  /**
   * A new round for the seats that bet, and the remote stations' own bets on the stadium box
   * (games with `remote: 'own-spots'`); throws only on a bug (the table checks bets first).
   * `keptOut`: the seats whose station a fault kept from betting in the window (a game that carries
   * stakes across rounds, a winning streak, returns theirs rather than taking them).
   */
  startRound(shoe: S, seats: readonly SeatStakes[], stadium?: readonly StadiumStakes[], keptOut?: readonly number[]): { shoe: S; round: R };
  pending(shoe: S, round: R): Pending;
  /** Places the card the round expects; `to` records where it went (`seat:3:hand:0`, `banker`, `burn`…). */
  takeCard(shoe: S, round: R, card: Card): Outcome<{ shoe: S; round: R; to: string }>;
  decide(shoe: S, round: R, request: DecisionRequest): Outcome<DecisionTaken<S, R>>;
  /**
   * Settlement lines, once `pending` is done; the shoe moves on past the round. A table playing a
   * progressive jackpot also says what the round did to its pools (journalled as `jackpot.settle`).
   */
  settle(
    shoe: S,
    round: R,
  ): {
    shoe: S;
    lines: readonly GameLine[];
    progressive?: ProgressiveSettled;
    held?: readonly HeldStake[];
    streaks?: readonly StreakMove[];
  };
  /** The round in play was voided: the shoe goes on without it (its cards stay out). */
  voidRound(shoe: S, round: R): S;
  /**
   * The last card placed in the round, taken back as void and sent to the discards (a card that
   * came out face up where the procedure deals it face down): the round expects the same card
   * again. Refused when it cannot be: a decision followed the card, the card is dealt face up, the
   * text keeps it valid.
   */
  withdrawLastCard(shoe: S, round: R): Outcome<{ shoe: S; round: R; card: CardCode }>;
  /** The bets behind that did not follow a double or split of this round for want of credit. */
  notFollowed(round: R): readonly NotFollowed[];
}

/** What the screens see of the shoe and the round: the hands, a prize, the streaks, the coups, the progressive's pools. */
export interface GameScreens<S, R> {
  /** The hands as the table shows them; hidden cards as `XX`. */
  hands(shoe: S, round: R | null): HandView[];
  /** What a winning line is for the screens to celebrate; undefined for a main bet's result or a loss. */
  prizeOf(line: Pick<GameLine, 'bet' | 'rule' | 'net'>): Prize | undefined;
  /** Blackjack's winning-streak markers as the shoe stands (before a round in play settles, after it once settled). */
  streaks?(shoe: S): readonly SeatStreak[];
  /** Baccarat: the coups of the shoe so far, for the road maps. */
  coups?(shoe: S): readonly CoupSummary[];
  /**
   * The progressive jackpot the table plays (Portugal rules 38–50), null where it plays none: its
   * pools as they stand — a round's chips counted as soon as they are collected (rule 41).
   */
  progressive?(shoe: S, round: R | null): ProgressiveView | null;
}

/**
 * One game as the table plays it: what it is (kind, profile, identity, decks), what its text
 * fixes (`rules`), its shoe's procedure (`shoe`), its rounds (`round`), and what the screens see
 * of it (`presentation`, `screens`). `S` is the game's shoe-level state and `R` a round's, both
 * plain serialisable data; every function is pure and returns new state rather than changing the
 * old, so the table's state machine (engine/table/step.ts) can fold the journal through it.
 */
export interface GameDefinition<S, R> {
  readonly kind: GameKind;
  readonly profile: string;
  /**
   * The game, its profile and its rule options as one string: the journal records it when the
   * table opens, and a fold never feeds inputs journalled under another identity through this one.
   */
  readonly identity: string;
  readonly decks: number;
  readonly rules: GameRules;
  readonly presentation: Presentation;
  readonly shoe: ShoeMoves<S>;
  readonly round: RoundMoves<S, R>;
  readonly screens: GameScreens<S, R>;
  /** The schemas of the game's shoe and round as a checkpoint holds them (JSON): a start parses them (host/table/recover.ts). */
  readonly schemas: { readonly shoe: z.ZodType<S>; readonly round: z.ZodType<R> };
}

/**
 * What a game starts with before any profile is chosen (issue 53: the host names no game): the
 * profile a simulated table plays unless told, the short code of its simulated table's id, and,
 * for a game with a progressive, the example table of `--jackpot` (a profile and the options that
 * switch the progressive on with the engine's example program, under its reference).
 */
export interface GameDefaults {
  readonly profile: string;
  readonly tableCode: string;
  readonly jackpotExample?: { readonly profile: string; readonly options: Readonly<Record<string, unknown>>; readonly authorisation: string };
}

/** The members of a game definition that are facts, not moves: what the table states about its game before any move. */
export type GameFacts = Pick<GameDefinition<unknown, unknown>, 'kind' | 'profile' | 'identity' | 'decks' | 'rules' | 'presentation'>;

/** A progressive jackpot's pools as the screens show them. */
export interface ProgressiveView {
  /** The authority's approval of the program (rules 40, 43). */
  readonly reference: string;
  /** The one chip of rule 47. */
  readonly stake: number;
  readonly levels: readonly {
    readonly level: string;
    /** What the pool shows: with the round's chips once collected. */
    readonly pool: number;
    /** The pool between rounds, as the last settlement left it (the ledger's pool plus `unfunded`). */
    readonly held: number;
    /** Committed by the house (start value, reset) and not journalled yet. */
    readonly unfunded: number;
  }[];
}

/** What a settlement did to one level of a progressive, as the ledger journals it (`jackpot.settle`). */
export interface ProgressiveLevelMove {
  readonly level: string;
  /** The pool before this round's chips (what the last settlement left, plus anything unfunded). */
  readonly before: number;
  /** The part of `before` journalled now for the first time (start value, reset). */
  readonly funded: number;
  readonly contribution: number;
  /**
   * The fraction of a unit this level's increments carried into the round (parts of 100,000,000,
   * Portugal rule 40), absent when none: with `before` it is all a replay needs to give the same
   * contribution (`etg round`).
   */
  readonly carryIn?: number;
  readonly award: number;
  readonly hits: number;
  /**
   * What the house adds to the pool before the award so the holders sharing it (Portugal rule
   * 50 b)) get equal shares rounded up, never down: fewer units than the sharers; absent when none.
   */
  readonly rounding?: number;
  /** What the house adds after an award so the pool is back at its reset value (Portugal rule 44). */
  readonly seed: number;
  readonly after: number;
}

/** What a round did to each level of the progressive, and who hit it. */
export interface ProgressiveSettled {
  readonly reference: string;
  readonly levels: readonly ProgressiveLevelMove[];
  readonly hits: readonly {
    readonly seat: number;
    readonly hand: number;
    readonly combination: JackpotCombination;
    readonly level: string;
    readonly amount: number;
  }[];
}

/** A finished coup as the road maps need it. */
export interface CoupSummary {
  readonly winner: 'banker' | 'player' | 'tie';
  readonly playerPair: boolean;
  readonly bankerPair: boolean;
  readonly playerTotal: number;
  readonly bankerTotal: number;
}
