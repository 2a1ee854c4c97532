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

export function runScript(rules: BlackjackRules, input: ScriptInput): ScriptOutput {
  let round: RoundState;
  try {
    round = openRound({ rules, seats: input.seats, ...(input.streaks ? { streaks: input.streaks } : {}), firstRoundOfShoe: false });
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
      const d = decisions[di];
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
        round = decideRound(round, { type: action.type, notFollowing: d.notFollowing });
      } else round = decideRound(round, action);
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
  return out;
}
