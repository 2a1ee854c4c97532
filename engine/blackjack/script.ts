import { cardCode, parseCard, CardParseError, type Card } from '../cards/card.js';
import {
  dealCard,
  dealerView,
  decideRound,
  openRound,
  RoundError,
  type RoundState,
  type Action,
  type ActionType,
  type BlackjackSettlementLine,
  type SeatEntry,
  type StreakState,
} from './round.js';
import type { BlackjackRules } from './rules.js';
import { jackpotProgramProblems, type JackpotCarry, type JackpotProgram } from './jackpot/program.js';
import type { JackpotLevelMove, JackpotState } from './jackpot/settle.js';

/**
 * The scripted round (disputes, tests, inspectors): bets, the cards in the exact order they left
 * the shoe, and the decisions in the order the engine asks for them. Played as a round in the
 * middle of a shoe: per-round burns the profile enables are part of the card list.
 */
export interface ScriptInput {
  readonly seats: readonly SeatEntry[];
  readonly cards: readonly string[];
  readonly decisions?: readonly ScriptDecision[];
  readonly streaks?: readonly StreakState[];
  /**
   * Portugal's progressive (rules 38–50): the program the round played under and each level's pool
   * as the round started, before its chips (the journal's `jackpot.settle` `before`), with the
   * fraction of a unit each level's increments carried in (`carryIn`, parts of 100,000,000).
   */
  readonly jackpot?: ScriptJackpot;
}

export interface ScriptJackpot {
  readonly program: JackpotProgram;
  readonly pools: Readonly<Record<string, number>>;
  readonly carry?: JackpotCarry;
}

export interface ScriptDecision {
  readonly seat: number;
  readonly hand: number;
  readonly action: string;
  /** Optional: who decides (`seat:<n>` or a bettor behind); checked when given. */
  readonly owner?: string;
  /** A double or split: the bettors behind who do not follow it (Portugal rules 28, 30; see `Action`). */
  readonly notFollowing?: readonly string[];
}

export interface ScriptOutput {
  hands: { seat: number; hand: number; cards: string[]; total: number }[];
  dealer: { cards: string[]; total: number };
  burns?: string[];
  settlements: BlackjackSettlementLine[];
  streaks?: StreakState[];
  /** What the round did to each level of the progressive, and the fractions it carries on. */
  jackpot?: { moves: JackpotLevelMove[]; carry?: JackpotCarry };
}

export class ScriptError extends Error {}

const SIMPLE: readonly string[] = [
  'hit',
  'stand',
  'double',
  'split',
  'surrender',
  'decline-insurance',
  'even-money',
  'decline-even-money',
  'take-five-card-half',
  'continue',
] satisfies ActionType[];

export function parseAction(text: string): Action {
  const m = /^insurance:(\d+)$/.exec(text);
  if (m) return { type: 'insurance', amount: Number(m[1]) };
  if (SIMPLE.includes(text)) return { type: text as Exclude<ActionType, 'insurance'> };
  throw new ScriptError(`"${text}" is not an action; actions: ${[...SIMPLE, 'insurance:<amount>'].join(', ')}`);
}

/** The jackpot as the round file gives it, checked against the program's levels and the profile. */
function jackpotOf(rules: BlackjackRules, j: ScriptJackpot | undefined): JackpotState | undefined {
  if (j === undefined) return undefined;
  if (!rules.jackpot) throw new ScriptError('the round file has a jackpot but the rules play none (set jackpot=true under portugal-2001, rules 38-39)');
  const problems = jackpotProgramProblems(j.program);
  if (problems.length > 0) throw new ScriptError(`jackpot program refused: ${problems.join('; ')}`);
  const levels = j.program.levels.map((l) => l.level);
  const missing = levels.filter((l) => !Object.hasOwn(j.pools, l));
  const extra = Object.keys(j.pools).filter((l) => !levels.includes(l));
  const strayCarry = Object.keys(j.carry ?? {}).filter((l) => !levels.includes(l));
  if (missing.length > 0 || extra.length > 0 || strayCarry.length > 0)
    throw new ScriptError(
      `jackpot pools must name each level of the program (${levels.join(', ')}): ${[
        ...missing.map((l) => `no pool for "${l}"`),
        ...extra.map((l) => `"${l}" is not a level of the program`),
        ...strayCarry.map((l) => `a carry for "${l}", not a level of the program`),
      ].join('; ')}`,
    );
  // The pools as they stood: nothing left to journal, so no funding (`unfunded` is the ledger's).
  const unfunded = Object.fromEntries(levels.map((l) => [l, 0]));
  return { program: j.program, pools: { ...j.pools }, unfunded, ...(j.carry ? { carry: { ...j.carry } } : {}) };
}

export function runScript(rules: BlackjackRules, input: ScriptInput): ScriptOutput {
  let round: RoundState;
  const jackpot = jackpotOf(rules, input.jackpot);
  try {
    round = openRound({
      rules,
      seats: input.seats,
      ...(input.streaks ? { streaks: input.streaks } : {}),
      ...(jackpot ? { jackpot } : {}),
      firstRoundOfShoe: false,
    });
  } catch (e) {
    if (e instanceof RoundError) throw new ScriptError(e.message);
    throw e;
  }
  const cards: Card[] = input.cards.map((c, i) => {
    try {
      return parseCard(c);
    } catch (e) {
      if (e instanceof CardParseError) throw new ScriptError(`cards[${i}]: ${e.message}`);
      throw e;
    }
  });
  const decisions = input.decisions ?? [];
  let ci = 0;
  let di = 0;
  try {
    for (;;) {
      const x = round.expected;
      if (x.kind === 'done') break;
      if (x.kind === 'card') {
        const c = cards[ci];
        if (!c) {
          const t = x.target;
          const who = t.to === 'hand' ? `seat ${t.seat} hand ${t.hand}` : t.to;
          throw new ScriptError(`missing card: card ${ci + 1} is needed for ${who} (${x.why}) but the list has ${cards.length}`);
        }
        round = dealCard(round, c);
        ci++;
        continue;
      }
      round = decideScripted(round, x, decisions[di], di);
      di++;
    }
  } catch (e) {
    if (e instanceof RoundError) throw new ScriptError(`${e.message} (at card ${ci + 1}, decision ${di + 1})`);
    throw e;
  }
  if (ci < cards.length) throw new ScriptError(`${cards.length - ci} card(s) left over after the round: ${cards.slice(ci).map(cardCode).join(' ')}`);
  if (di < decisions.length) throw new ScriptError(`${decisions.length - di} decision(s) left over after the round, first: ${JSON.stringify(decisions[di])}`);
  const out: ScriptOutput = {
    hands: round.hands.map((h) => ({ seat: h.seat, hand: h.hand, cards: h.cards, total: h.total })),
    dealer: (({ cards: c, total }) => ({ cards: c, total }))(dealerView(round)),
    settlements: [...round.lines],
  };
  if (round.burns.length > 0) out.burns = round.burns.map(cardCode);
  if (rules.winningStreak) out.streaks = [...round.streaks];
  if (round.jackpot) out.jackpot = { moves: [...round.jackpot.moves], ...(round.jackpot.state.carry ? { carry: { ...round.jackpot.state.carry } } : {}) };
  return out;
}

/** The script's decision `di` applied to the round, checked against who must answer which prompt now. */
function decideScripted(round: RoundState, x: Extract<RoundState['expected'], { kind: 'decision' }>, d: ScriptDecision | undefined, di: number): RoundState {
  if (!d) {
    throw new ScriptError(`missing decision ${di + 1}: seat ${x.seat} hand ${x.hand} must answer the ${x.offer} prompt; legal: ${x.legal.join(', ')}`);
  }
  if (d.seat !== x.seat || d.hand !== x.hand) {
    throw new ScriptError(
      `decision ${di + 1} is for seat ${d.seat} hand ${d.hand}, but seat ${x.seat} hand ${x.hand} must answer the ${x.offer} prompt now (legal: ${x.legal.join(', ')})`,
    );
  }
  if (d.owner !== undefined && d.owner !== x.decider) {
    throw new ScriptError(
      `decision ${di + 1} is given by "${d.owner}", but "${x.decider}" must answer the ${x.offer} prompt of seat ${x.seat} hand ${x.hand} now`,
    );
  }
  const action = parseAction(d.action);
  if (d.notFollowing !== undefined) {
    if (action.type !== 'double' && action.type !== 'split')
      throw new ScriptError(`decision ${di + 1}: notFollowing goes with a double or a split, not "${d.action}"`);
    if (!Array.isArray(d.notFollowing) || !d.notFollowing.every((o) => typeof o === 'string'))
      throw new ScriptError(`decision ${di + 1}: notFollowing must be a list of bettors behind`);
    return decideRound(round, { type: action.type, notFollowing: d.notFollowing });
  }
  return decideRound(round, action);
}
