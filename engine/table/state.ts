import type { Card, CardCode } from '../cards/card.js';
import {
  REMOTE_STATION_BASE,
  type LineBet,
  type HoldReason,
  type RefusalReason,
  type Spot,
  type BetId,
  type DecisionAction,
  type JackpotCombination,
} from './vocabulary.js';

/** A bet's limits in minor units. */
export interface Limits {
  readonly min: number;
  readonly max: number;
}

export interface Timings {
  /** How long betting stays open. */
  readonly bettingMs: number;
  /** How long a seat has for each decision before its stated default is taken. */
  readonly decisionMs: number;
  /** The minimum time results stay on screen before the next betting window. */
  readonly resultsMs: number;
}

/**
 * What the table is, as far as its rounds go: journalled (`open`, `configure`) so that a fold of
 * the journal plays by the limits and timings the live table had, whatever the configuration
 * file says at the next start.
 */
export interface TableParams {
  readonly tableId: string;
  /** Which station controls which seat. */
  readonly stations: readonly { readonly station: number; readonly seat: number }[];
  /**
   * How many remote stations (a stadium) the table takes: stations REMOTE_STATION_BASE + 1 …
   * + remote, with no seat. Absent: none. Which machine is which station is the host's
   * enrolment; the table only knows the numbers.
   */
  readonly remote?: number;
  readonly limits: Limits;
  /** Limits of a bet type where they differ from the table's; `behind` is a bet behind a seat. */
  readonly betLimits: Readonly<Partial<Record<BetId | 'behind', Limits>>>;
  readonly timings: Timings;
  /** The most all stations together may have on the table in one round, if the casino caps it (Macau 2009 Art. 5 n.2 3)(8)). */
  readonly roundMax?: number;
  /** A progressive jackpot award above this is paid by an attendant (a handpay), not to the credit meter. */
  readonly jackpotHandpayAbove?: number;
  /**
   * The table's currency (ISO 4217), which the stakes and handpays it journals name: after a
   * change of currency they still read in theirs. Absent (a journal's parameters from before 7
   * December 2026): they name none, as then.
   */
  readonly currency?: string;
}

/** Chips a station has on one spot. */
export interface Chips {
  readonly station: number;
  readonly spot: Spot;
  readonly amount: number;
}

/**
 * A stake a station has in play this round, as its bet lines were journalled: its own seat's
 * bets, a bet behind another seat (`seat` names it), and what decisions raised (a double, a split,
 * insurance, a war raise) — behind a seat when the raise is of a bet behind.
 */
export interface InPlay {
  readonly station: number;
  readonly bet: LineBet;
  readonly seat?: number;
  readonly amount: number;
}

/** A spot that did not play when betting closed: its chips stayed credit, and the station is told why. */
export interface Unplayed extends Chips {
  readonly min: number;
  readonly reason: RefusalReason;
}

export interface DealtCard {
  readonly card: CardCode;
  /** Where it went: `seat:3:hand:0`, `dealer`, `banker`, `burn`, `seat:1:war`… */
  readonly to: string;
}

/** A decision as the round record keeps it. */
export interface Decision {
  readonly seat: number;
  readonly hand?: number;
  readonly station: number;
  readonly action: DecisionAction;
  /** The countdown ran out and the stated default was taken. */
  readonly auto?: boolean;
  /** A double or split: the bettors behind (`station:<n>`) who could not cover their share and did not follow. */
  readonly notFollowing?: readonly string[];
}

/** A settlement line as journalled: the game's line with the station it pays. */
export interface SettledLine {
  readonly station: number;
  readonly seat: number;
  readonly bet: LineBet;
  readonly hand?: number;
  readonly stake: number;
  readonly net: number;
  readonly rule: string;
  /** The non-default choices the line was settled under, and their authorisation reference. */
  readonly choices?: readonly string[];
  readonly authorisation?: string;
  /** The part of the win an attendant pays (a jackpot award above the table's handpay amount). */
  readonly handpay?: number;
  /** The stake was wagered in an earlier round and held since (a winning streak). */
  readonly carried?: true;
}

/** A read that left the shoe while the table was already on hold: journalled, never placed. */
export interface HeldRead {
  readonly card?: string;
  readonly shoeSequence?: number;
}

export interface Hold {
  readonly reason: HoldReason;
  /** The card that caused it, when one of the table's decks was read (an extra card, one out of turn); absent in older states. */
  readonly card?: Card | null;
  /** What the shoe reported for a card it could not take as one of the table's (another deck set), as evidence. */
  readonly reported?: string;
  /** The shoe's sequence number of the event that caused it, when the shoe gave one. */
  readonly sequence: number | null;
  /** Reads that left the shoe after the hold began; the hold's resolution must account for them. */
  readonly reads: readonly HeldRead[];
  /** The round the hold belongs to, or null for a hold between rounds. */
  readonly roundId: string | null;
}

export const TIMER_KINDS = ['betting', 'decision', 'results'] as const;
export type TimerKind = (typeof TIMER_KINDS)[number];

/** The countdown running, numbered so that a timer that fires late for an older one is ignored. */
export interface Countdown {
  readonly id: number;
  readonly kind: TimerKind;
  readonly endsAt: number;
}

/** What the current faults stop (host/tilts decides; the table obeys). */
export interface FaultGates {
  /** Why a fault halts the table: nothing is placed, decided or settled meanwhile. */
  readonly halted: string | null;
  /** Why new bets are refused though the table plays on (e.g. upstream offline beyond the limit). */
  readonly newBetsStopped: string | null;
  /** Stations a fault disables: no bets there. */
  readonly disabled: readonly number[];
  /** Why the progressive jackpot's chip is refused (its controller is at fault); absent in older states. */
  readonly jackpotStopped?: string | null;
}

/** One finished round on the history strip (blackjack, war). */
export interface HistoryItem {
  readonly roundId: string;
  readonly dealer: readonly (CardCode | 'XX')[];
  readonly dealerTotal: number | null;
  readonly seats: readonly { readonly seat: number; readonly outcome: 'win' | 'lose' | 'push' }[];
}

export const MAX_HISTORY = 20;

/**
 * The whole table as plain, serialisable data: the rounds, the chips, the shoe, the holds, the
 * credits it plays against. `S` and `R` are the game's shoe and round state
 * (engine/table/game.ts). Nothing here is changed in place: `step` returns a new state.
 */
export interface TableState<S, R> {
  readonly params: TableParams;
  /** Each station's credit meter, as the ledger has it (fed by the ledger's own entries). */
  readonly credits: Readonly<Record<number, number>>;
  /** Rounds opened so far: the serial in each round id. */
  readonly roundNo: number;
  readonly roundId: string;
  readonly phase: 'betting' | 'dealing' | 'results';
  readonly countdown: Countdown | null;
  /** Countdowns started so far: the next one's id. */
  readonly countdowns: number;
  /** Chips on the spots during the betting window: still credit until betting closes. */
  readonly chips: readonly Chips[];
  /** What each station has in play this round (journalled as bets). */
  readonly placed: readonly InPlay[];
  readonly unplayed: readonly Unplayed[];
  readonly shoe: S;
  readonly round: R | null;
  readonly cards: readonly DealtCard[];
  readonly decisions: readonly Decision[];
  /** The lines of the round just settled (results), or null. */
  readonly results: readonly SettledLine[] | null;
  readonly hold: Hold | null;
  /** The shoe is finished or out of step: a new shoe before the next round. */
  readonly needsShuffle: boolean;
  /** A new shoe was loaded while a round was in play: applied when the round ends. */
  readonly shoeDeferred: boolean;
  /** Shoes loaded so far (the road maps are per shoe). */
  readonly shoeNo: number;
  /** Cards out of the current shoe, by code: a card beyond the decks' copies is a hold. */
  readonly out: Readonly<Partial<Record<CardCode, number>>>;
  /** The shoe's sequence numbers journalled since it was loaded: a re-reported card is placed once. */
  readonly sequences: readonly number[];
  readonly faults: FaultGates;
  readonly history: readonly HistoryItem[];
  /**
   * Cards drawn by mistake and not seen, kept for the next card a player asks for (or the
   * dealer's next draw) in the round in play: Portugal rule 18, Macau Art. 5 n.1 2). Absent in
   * older states.
   */
  readonly held?: readonly HeldCard[];
  /** The last progressive jackpot award (Portugal rules 38–50), for the table display. Absent in older states and until one. */
  readonly lastJackpotHit?: JackpotHit;
  /**
   * A jackpot award of the round on show paid by hand and not yet paid: its cards stay on the
   * table until it is (Portugal rule 49), so the round stays in its results and no new betting
   * opens. `handpays`: the `handpay.request` transaction ids still owed. Absent otherwise.
   */
  readonly jackpotUnpaid?: { readonly roundId: string; readonly seat: number; readonly handpays: readonly string[] };
  /**
   * The jackpot level resets so far (`n`) and the latest time one was taken at (`at`): a reset at
   * that time or before it (two in one millisecond, a clock set back) gets the count in its
   * transaction id, so no two share one. A serial, kept across `open`. Absent in older states and until one.
   */
  readonly jackpotResets?: { readonly at: number; readonly n: number };
  /**
   * The stations a fault kept from betting at some moment of the betting window open now (disabled,
   * or every station while new bets were stopped): the round it opens returns their open streak
   * stakes rather than taking them (engine/blackjack/settle/streak.ts). Absent when none, and in older states.
   */
  readonly keptOut?: readonly number[];
  /**
   * The seating a start's configuration gave while a round was in play: the round keeps the seats
   * it was dealt with (`params.stations`) and these apply when the next betting window opens
   * (engine/table/seat-change.ts). Absent otherwise, and in older states.
   */
  readonly seatsNext?: TableParams['stations'];
}

/** A progressive jackpot award: the round, the seat and its station, the combination, the level, the amount. */
export interface JackpotHit {
  readonly roundId: string;
  readonly seat: number;
  readonly station?: number;
  readonly combination: JackpotCombination;
  readonly level: string;
  readonly amount: number;
}

/** A misdrawn card kept for the next card asked for, with the shoe's sequence number of its read. */
export interface HeldCard {
  readonly card: Card;
  readonly sequence?: number;
}

/** Whether `station` is one of the table's remote stations (no seat). */
export function isRemote(params: Pick<TableParams, 'remote'>, station: number): boolean {
  return station > REMOTE_STATION_BASE && station <= REMOTE_STATION_BASE + (params.remote ?? 0);
}

/** Whether the table has a station with this number: a seated one or a remote one. */
export function hasStation(params: Pick<TableParams, 'stations' | 'remote'>, station: number): boolean {
  return isRemote(params, station) || params.stations.some((s) => s.station === station);
}

/** The seat a station controls, if any. */
export function seatOf(params: TableParams, station: number): number | undefined {
  return params.stations.find((s) => s.station === station)?.seat;
}

/** The station controlling a seat, if any. */
export function stationAt(params: TableParams, seat: number): number | undefined {
  return params.stations.find((s) => s.seat === seat)?.station;
}

/** The limits of a spot: its own where the table names them, else the table's (a bet behind plays under the main bet's). */
export function spotLimits(params: Pick<TableParams, 'limits' | 'betLimits'>, spot: Spot): Limits {
  if (spot.bet === 'behind') return params.betLimits.behind ?? params.betLimits.main ?? params.limits;
  return params.betLimits[spot.bet] ?? params.limits;
}

/** The `currency` member of an entry naming the table's money: the parameters' currency, none where they name none. */
export function currencyOf(params: Pick<TableParams, 'currency'>): { currency?: string } {
  return params.currency === undefined ? {} : { currency: params.currency };
}
