import type { Card } from '../cards/card.js';
import type { Rng } from '../random/seeded-rng.js';
import type { BlackjackBetEntry } from './bets/entry.js';
import { RESET_READING, START_TIMES_STAKE } from './jackpot/program.js';
import type { JackpotState } from './jackpot/settle.js';
import { dealCard, decideRound, discardCard, openRound, RoundError, type Action, type RoundState, type SeatEntry, type StreakState } from './round.js';
import type { BlackjackRules } from './rules.js';
import { countOut, NEW_SHOE, peekShoe, roundEnded, shoeCardOut, shoeNext, shuffledShoe, type ShoeState } from './shoe-session.js';

/**
 * A table from round to round, as plain data and functions: the shoe (shuffle, burns, cut card,
 * last round), the winning-streak markers and the jackpot pool carried between rounds, and the
 * round in play. Every card that leaves the shoe goes through `tableCardOut`, which sends it where
 * the procedure says: to the start-of-shoe burn or to the round. The same functions serve the
 * live path (cards read by the shoe) and the seeded path (`dealFromShoe`). Each returns a new
 * table, or throws a `RoundError` and leaves the one it was given as it was.
 */
export type TablePhase = 'shuffle' | 'burn' | 'betting' | 'round';

/** What a table plays under: its rules and the bets its rounds know (engine/blackjack/bets/catalogue.ts). */
export interface TableRules {
  readonly rules: BlackjackRules;
  readonly catalogue: readonly BlackjackBetEntry[];
}

export interface TableState {
  readonly shoe: ShoeState;
  readonly streaks: readonly StreakState[];
  readonly jackpot?: JackpotState;
  /** Rounds completed since the table opened. */
  readonly rounds: number;
  readonly shoeBurns: readonly Card[];
  /** The round in play, or the last one once done; none after a void. */
  readonly round?: RoundState;
}

/** A table just opened: its shoe waits for a shuffle. */
export function openTable(jackpot?: JackpotState): TableState {
  return { shoe: NEW_SHOE, streaks: [], ...(jackpot ? { jackpot } : {}), rounds: 0, shoeBurns: [] };
}

export function tablePhase(t: TableState): TablePhase {
  if (t.round && !t.round.done) return 'round';
  const step = shoeNext(t.shoe);
  return step.kind === 'shuffle' ? 'shuffle' : step.kind === 'burn' ? 'burn' : 'betting';
}

/** The shoe was shuffled (physically, or here from `rng`). `players` places the Portugal carta-aviso (rule 9). */
export function tableShuffled(c: TableRules, t: TableState, players: number, rng?: Rng): TableState {
  if (tablePhase(t) === 'round') throw new RoundError('cannot shuffle during a round');
  return { ...t, shoe: shuffledShoe(c.rules, players, rng) };
}

/**
 * The round as the table keeps it: plain data. A table's state goes into checkpoints as JSON, so
 * the catalogue (its bets' functions) is the table's, given with each move (`inPlay`), never the
 * state's: restored from a checkpoint, a round holding it had lost every function, and the next
 * move threw (found by the kill trials: `bet.offered is not a function`, the host unable to start).
 */
function kept(round: RoundState): RoundState {
  if (round.setup.catalogue === undefined) return round;
  const { catalogue: _table, ...setup } = round.setup;
  return { ...round, setup };
}

/** The round in play with the table's catalogue, for a move. */
function inPlay(c: TableRules, round: RoundState): RoundState {
  return { ...round, setup: { ...round.setup, catalogue: c.catalogue } };
}

/** A round's end carried into the table: its streaks and jackpot, and the shoe told. */
function afterRound(c: TableRules, t: TableState, played: RoundState, shoe: ShoeState): TableState {
  const round = kept(played);
  if (!round.done) return { ...t, round, shoe };
  const jackpot = t.jackpot && round.jackpot ? round.jackpot.state : t.jackpot;
  return {
    ...t,
    round,
    streaks: round.streaks,
    ...(jackpot ? { jackpot } : {}),
    rounds: t.rounds + 1,
    shoe: roundEnded(c.rules, shoe),
  };
}

/** Closes the betting and starts a round with these bets (validated by the round); `keptOut`: seats a fault kept from betting. */
export function startTableRound(c: TableRules, t: TableState, seats: readonly SeatEntry[], keptOut: readonly number[] = []): TableState {
  const phase = tablePhase(t);
  if (phase !== 'betting') throw new RoundError(`cannot start a round now: ${phase === 'round' ? 'a round is in play' : `the shoe needs a ${phase}`}`);
  const step = shoeNext(t.shoe);
  // Only the seats with open streak stakes matter to the round: its setup names no other.
  const kept = keptOut.filter((x) => t.streaks.some((st) => st.seat === x));
  const round = openRound({
    rules: c.rules,
    seats,
    streaks: t.streaks,
    ...(kept.length > 0 ? { keptOut: kept } : {}),
    firstRoundOfShoe: step.kind === 'round' && step.firstRoundOfShoe,
    out: t.shoe.out,
    catalogue: c.catalogue,
    ...(t.jackpot ? { jackpot: t.jackpot } : {}),
  });
  // A round with nothing to deal (impossible with a main bet) would be done at once.
  return afterRound(c, t, round, t.shoe);
}

/**
 * A card left the shoe (read by the card-reading shoe, or drawn by `dealFromShoe`). Start-of-
 * shoe burns are taken here; round cards go to the round, which takes them out of the shoe's
 * inventory: a card beyond its copies is refused (table on hold).
 */
export function tableCardOut(c: TableRules, t: TableState, card: Card): TableState {
  const phase = tablePhase(t);
  if (phase === 'burn') {
    const shoe = shoeCardOut(c.rules, t.shoe, card);
    if (!shoe) throw new RoundError("a card beyond the decks' copies: the table goes on hold");
    return { ...t, shoe, shoeBurns: [...t.shoeBurns, card] };
  }
  if (phase !== 'round' || !t.round) throw new RoundError(`no card is expected now (${phase})`);
  if (t.round.expected.kind !== 'card') throw new RoundError('no card is expected now: a decision is awaited');
  const round = dealCard(inPlay(c, t.round), card);
  return afterRound(c, t, round, countOut({ ...t.shoe, out: round.out }));
}

/** Seeded path: draws the next card of the shuffled shoe and places it. */
export function dealFromShoe(c: TableRules, t: TableState): { readonly table: TableState; readonly card: Card } {
  const card = peekShoe(t.shoe);
  return { table: tableCardOut(c, t, card), card };
}

/** A decision for the round in play (the round may end on it, e.g. a surrender with nothing left to deal). */
export function tableDecide(c: TableRules, t: TableState, action: Action): TableState {
  if (!t.round || t.round.done) throw new RoundError('no decision is expected now');
  return afterRound(c, t, decideRound(inPlay(c, t.round), action), t.shoe);
}

/** A card that must not count (Art. 5 n.1 1), Art. 6 1), rule 17): out of the shoe, into the discards. */
export function tableDiscard(c: TableRules, t: TableState, card: Card, why: string): TableState {
  if (!t.round || t.round.done) throw new RoundError('no round in play');
  const round = kept(discardCard(inPlay(c, t.round), card, why));
  return { ...t, round, shoe: countOut({ ...t.shoe, out: round.out }) };
}

/** The card-reading shoe reported the cut card (live path). */
export function tableCutCardOut(t: TableState): TableState {
  return { ...t, shoe: { ...t.shoe, cutSeen: true } };
}

/**
 * A jackpot level set between rounds (two people, the authority's reference; Portugal rules 40,
 * 44). Returns what the house had committed to it unjournalled (now journalled with the reset).
 */
export function resetTableJackpot(t: TableState, level: string, to: number): { readonly table: TableState; readonly unfunded: number } {
  if (tablePhase(t) === 'round') throw new RoundError('a jackpot level is reset between rounds only', { why: 'jackpot-between-rounds' });
  const j = t.jackpot;
  if (!j) throw new RoundError('this table plays no jackpot', { why: 'jackpot-none' });
  const def = j.program.levels.find((l) => l.level === level);
  if (!def) throw new RoundError(`the jackpot has no level "${level}"`, { why: 'jackpot-no-level', level });
  const stake = j.program.stake;
  const min = stake * START_TIMES_STAKE;
  const article = RESET_READING;
  if (to < min)
    throw new RoundError(`${to} is below 10,000 × the chip of ${stake} = ${min} (${article})`, { why: 'jackpot-below-minimum', to, stake, min, article });
  const held = j.pools[level] ?? 0;
  if (to < held) throw new RoundError(`level ${level} holds ${held}: a reset never takes from the players`, { why: 'jackpot-below-held', level, held });
  const unfunded = j.unfunded[level] ?? 0;
  return { table: { ...t, jackpot: { ...j, pools: { ...j.pools, [level]: to }, unfunded: { ...j.unfunded, [level]: 0 } } }, unfunded };
}

/**
 * The round in play was voided (every bet returned): it is over for the shoe, whose cards stay
 * out, while the winning streaks and the jackpot pool stay as they were before it.
 */
export function voidTableRound(c: TableRules, t: TableState): TableState {
  if (!t.round || t.round.done) return t;
  const { round: _voided, ...rest } = t;
  return { ...rest, shoe: roundEnded(c.rules, t.shoe) };
}

/**
 * The winning streaks of `seats` ended between rounds, their seats given to another station or to
 * none (engine/table/seat-streaks.ts): the table without their markers, and what each one's open
 * levels stake. Nothing ends while a round is in play (its seats' streaks are the round's).
 */
export function endTableStreaks(t: TableState, seats: readonly number[]): { readonly table: TableState; readonly ended: { seat: number; amount: number }[] } {
  const ending = tablePhase(t) === 'round' ? [] : t.streaks.filter((st) => seats.includes(st.seat));
  if (ending.length === 0) return { table: t, ended: [] };
  const ended = ending.map((st) => ({ seat: st.seat, amount: Object.values(st.bets).reduce((a, b) => a + b, 0) }));
  return { table: { ...t, streaks: t.streaks.filter((st) => !seats.includes(st.seat)) }, ended };
}
