import type { DecisionRequest, DecisionTaken, NotFollowed, Outcome, RoundStake } from '../table/game.js';
import { isActionType, RoundError, stakesOf, type Action, type ActionType, type Expectation } from './round.js';
import { whyIllegal } from './round-step.js';
import { tableDecide } from './table.js';
import { ownerTotals } from './table-bets.js';
import { insuranceAmountRef } from './refs.js';
import {
  DECLINE_FOLLOW,
  FOLLOW_OFFERS,
  moved,
  nextToAnswer,
  ownerName,
  roundOf,
  type BlackjackTableRound,
  type BlackjackTableSetup,
  type BlackjackTableShoe,
  type StagedFollow,
} from './table-setup.js';

// A seat's decision at a blackjack table (engine/blackjack/table-game.ts `decide`): checked against
// the credit of everyone it puts money in play for, staged while bettors behind choose to follow
// (Portugal rules 28, 30), then applied to the round.

type Decided = Outcome<DecisionTaken<BlackjackTableShoe, BlackjackTableRound>>;
type DecisionDue = Extract<Expectation, { kind: 'decision' }>;
/** What a decision costs each bettor on the hand: the seat's own station is `undefined`. */
type Costs = Map<number | undefined, number>;

/** A seat's decision, or a bettor behind's answer to one staged. */
export function blackjackDecide(g: BlackjackTableSetup, s: BlackjackTableShoe, r: BlackjackTableRound, d: DecisionRequest): Decided {
  if (r.staged) return answerFollow(g, s, r, r.staged, d);
  const x = roundOf(s).expected;
  if (x.kind !== 'decision' || x.seat !== d.seat) return { ok: false, reason: `seat ${d.seat} has no decision to make`, refusal: 'no-decision' };
  const action = x.legal.find((a) => a === d.action);
  if (action === undefined) {
    // Why, with its article: the bar of the function that left it out of the legal list.
    const why = isActionType(d.action) ? whyIllegal(roundOf(s), d.action) : null;
    return { ok: false, reason: `"${d.action}" is not legal now${why ? `: ${why}` : ''} (legal: ${x.legal.join(', ')})`, refusal: 'illegal-action' };
  }
  // A bettor behind is asked for its own insurance once the seat insures (rule 15): it pays it.
  const insurer = r.owners[x.decider];
  const priced = priceDecision(g, s, r, x, action, d, insurer);
  if (!priced.ok) return priced;
  const credit = creditFor(g, priced.cost, d, x.hand, action, insurer);
  if (!credit.ok) return credit;
  const { stayOut } = credit;
  const followable = action === 'double' || action === 'split' ? action : null;
  const act: Action = followable && stayOut.length > 0 ? { type: followable, notFollowing: stayOut.map((n) => ownerName(n.station)) } : priced.act;
  if (g.chooses && followable) {
    // Rules 28, 30: ask each bettor behind who could pay its share before the seat's
    // decision takes effect (the seat's own credit was checked above).
    const ask = [...priced.cost].flatMap(([bettor, c]) =>
      bettor !== undefined && bettor !== insurer && c > 0 && !stayOut.some((n) => n.station === bettor) ? [{ station: bettor, cost: c }] : [],
    );
    if (ask.length > 0) {
      const staged: StagedFollow = { seat: d.seat, hand: x.hand, action: followable, ask, answers: [], short: stayOut };
      // The bettors who cannot pay are named now, journalled with the seat's decision, so a
      // replay asks the same bettors again.
      return { ok: true, shoe: s, round: { ...r, staged }, stakes: [], notFollowing: stayOut.map((n) => n.station) };
    }
  }
  return applyDecision(g, s, r, d.seat, act, stayOut, insurer);
}

/**
 * The engine's action for a legal decision and what it costs each bettor on the hand: the seat's
 * own station (undefined) and every bettor behind whose stake follows a double or a split (Art. 20).
 */
function priceDecision(
  g: BlackjackTableSetup,
  s: BlackjackTableShoe,
  r: BlackjackTableRound,
  x: DecisionDue,
  action: ActionType,
  d: DecisionRequest,
  insurer: number | undefined,
): Outcome<{ act: Action; cost: Costs }> {
  const cost: Costs = new Map();
  const add = (bettor: number | undefined, n: number) => cost.set(bettor, (cost.get(bettor) ?? 0) + n);
  if (action === 'insurance') {
    // No amount named: the largest. One outside the range is refused, never trimmed (the host judges each amount as it came).
    const insure = d.amount ?? x.insurance?.max ?? 0;
    if (!x.insurance || insure < x.insurance.min || insure > x.insurance.max) {
      const range = x.insurance ? `from ${x.insurance.min} to ${x.insurance.max}` : 'none offered';
      return { ok: false, reason: `insurance of ${insure}: must be ${range} (${insuranceAmountRef(g.rules.profile)})`, refusal: 'illegal-action' };
    }
    add(insurer, insure);
    return { ok: true, act: { type: 'insurance', amount: insure }, cost };
  }
  for (const st of stakesOf(roundOf(s), d.seat).filter((z) => z.hand === x.hand)) {
    const bettor = st.owner === undefined ? undefined : r.owners[st.owner];
    if (action === 'double' && st.followDouble) add(bettor, st.stake);
    if (action === 'split' && st.followSplit) add(bettor, st.base);
  }
  return { ok: true, act: { type: action }, cost };
}

/**
 * The deciding player's double or split never waits on another's credit: a bettor behind who
 * cannot cover its share does not follow. On a double its bet stays at its stake on the hand
 * (Portugal rule 30), on a split it rides on the first hand (rule 28). Macau Art. 20 (2009 and
 * 2004) is silent on doubles and splits of bets behind: the Portuguese rules apply by analogy
 * (docs/table-host.md). What refuses the decision is only the credit of the one who decides it
 * (or insures) and of the seat's own station, whose bet always follows.
 */
function creditFor(
  g: BlackjackTableSetup,
  cost: Costs,
  d: DecisionRequest,
  hand: number,
  action: ActionType,
  insurer: number | undefined,
): Outcome<{ stayOut: NotFollowed[] }> {
  const stayOut: NotFollowed[] = [];
  for (const [bettor, c] of cost) {
    if (c <= 0 || d.canAfford(c, bettor)) continue;
    // Macau Art. 20 is silent on it: the bet stays out (default) or the seat's decision is refused (`behindShortOfCredit`).
    if (bettor !== undefined && bettor !== insurer && (action === 'double' || action === 'split') && g.rules.behindShortOfCredit === 'stays-out') {
      stayOut.push({ station: bettor, seat: d.seat, hand, action, amount: c });
      continue;
    }
    return { ok: false, reason: bettor !== undefined ? `station ${bettor} has not the credit for this decision` : 'not enough credit', refusal: 'over-credit' };
  }
  return { ok: true, stayOut };
}

/** A bettor behind's answer to a staged double or split; the last answer applies the seat's decision. */
function answerFollow(g: BlackjackTableSetup, s: BlackjackTableShoe, r: BlackjackTableRound, st: StagedFollow, d: DecisionRequest): Decided {
  const next = nextToAnswer(st);
  if (!next || d.seat !== st.seat) return { ok: false, reason: `seat ${d.seat} has no decision to make`, refusal: 'no-decision' };
  if (d.action !== FOLLOW_OFFERS[st.action] && d.action !== DECLINE_FOLLOW) {
    return {
      ok: false,
      reason: `"${d.action}" is not legal now (legal: ${FOLLOW_OFFERS[st.action]}, ${DECLINE_FOLLOW})`,
      refusal: 'illegal-action',
    };
  }
  const follows = d.action !== DECLINE_FOLLOW;
  if (follows && !d.canAfford(next.cost, next.station))
    return { ok: false, reason: `station ${next.station} has not the credit to follow the ${st.action}`, refusal: 'over-credit' };
  const staged: StagedFollow = { ...st, answers: [...st.answers, { station: next.station, follows }] };
  if (nextToAnswer(staged)) return { ok: true, shoe: s, round: { ...r, staged }, stakes: [], notFollowing: [] };
  const out = [...st.short.map((n) => n.station), ...staged.answers.filter((a) => !a.follows).map((a) => a.station)].map(ownerName);
  return applyDecision(g, s, { ...r, staged: null }, st.seat, { type: st.action, ...(out.length > 0 ? { notFollowing: out } : {}) }, st.short, undefined);
}

/** Applies a decision to the engine and says what it put into play, by bettor. */
function applyDecision(
  g: BlackjackTableSetup,
  s: BlackjackTableShoe,
  r: BlackjackTableRound,
  seat: number,
  act: Action,
  short: readonly NotFollowed[],
  insurer: number | undefined,
): Decided {
  const before = ownerTotals(stakesOf(roundOf(s), seat));
  let next: BlackjackTableShoe;
  try {
    next = moved(tableDecide(g.table, s.table, act));
  } catch (e) {
    if (e instanceof RoundError) return { ok: false, reason: e.message, refusal: 'illegal-action' };
    throw e;
  }
  // What the decision put into play, by bettor: the growth of their stakes, plus any insurance.
  const after = ownerTotals(stakesOf(roundOf(next), seat));
  const bet = act.type === 'insurance' ? 'insurance' : act.type === 'split' ? 'split' : 'double';
  const stakes: RoundStake[] = [];
  for (const [owner, total] of after) {
    const bettor = owner === undefined ? undefined : r.owners[owner];
    const raised = total - (before.get(owner) ?? 0) + (bettor === insurer && act.type === 'insurance' ? act.amount : 0);
    if (raised > 0) stakes.push({ seat, bet, amount: raised, ...(bettor !== undefined ? { bettor } : {}) });
  }
  const out = act.type === 'double' || act.type === 'split' ? (act.notFollowing ?? []) : [];
  const notFollowing = out.map((o) => r.owners[o]).filter((x): x is number => x !== undefined);
  return { ok: true, shoe: next, round: { ...r, staged: null, notFollowed: [...r.notFollowed, ...short] }, stakes, notFollowing };
}
