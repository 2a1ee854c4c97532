import type { Card } from '../../cards/card.js';
import type { ProgressiveLevelMove } from '../../table/game.js';
import { holds, type JackpotCombination } from './combinations.js';
import { carriedContributions, type JackpotAwardLine, type JackpotCarry, type JackpotProgram } from './program.js';

/**
 * The jackpot as it stands between rounds: the program and each level's pool. `unfunded` is the
 * part of a pool the house has committed but no settlement has journalled yet (the start value
 * when the table opened with the program, a reset): the next settlement journals it.
 */
export interface JackpotState {
  readonly program: JackpotProgram;
  readonly pools: Readonly<Record<string, number>>;
  readonly unfunded: Readonly<Record<string, number>>;
  /** The fraction of a unit each level's increments left, for the next round (rule 40); absent while none. */
  readonly carry?: JackpotCarry;
}

/** A table opening with a program: every level at its start value (rule 44), not yet journalled. */
export function openJackpot(program: JackpotProgram): JackpotState {
  const pools: Record<string, number> = {};
  for (const l of program.levels) pools[l.level] = l.start;
  return { program, pools, unfunded: { ...pools } };
}

/** The pools a round plays for once its chips are collected (rule 41: the display is incremented then). */
export function poolsInPlay(state: JackpotState, totalStake: number): Record<string, number> {
  const c = carriedContributions(state.program, totalStake, state.carry).added;
  const out: Record<string, number> = {};
  for (const l of state.program.levels) out[l.level] = (state.pools[l.level] ?? 0) + (c[l.level] ?? 0);
  return out;
}

/** One player's jackpot chip and the cards rule 42 counts for it. */
export interface JackpotEntry {
  readonly seat: number;
  readonly hand: number;
  readonly stake: number;
  readonly cards: readonly Card[];
}

export interface JackpotResult {
  readonly seat: number;
  readonly hand: number;
  readonly stake: number;
  readonly award: number;
  readonly combination?: JackpotCombination;
  readonly level?: string;
  /** The top award of its level, split among several holders (rule 50 b)). */
  readonly shared?: true;
}

/** What a settlement did to one level: the table's own shape, which the ledger journals. */
export type JackpotLevelMove = ProgressiveLevelMove;

/** The best award line the cards hold: the program lists its awards best first. */
export function bestAward(program: JackpotProgram, cards: readonly Card[]): JackpotAwardLine | undefined {
  return program.awards.find((a) => holds(a.combination, cards));
}

/**
 * Settles every jackpot chip of a round. The chip always goes (rules 41, 48): the authority's
 * percentage of it increments the pools (rule 40). Awards are paid whatever the main result
 * (rule 43). Per level, when several combinations win in one round (rule 50): the fixed awards
 * are paid from the smallest to the largest, then what remains of the pool goes to the holders
 * of the combination that takes the pool, split equally (rule 50 b)): each share is rounded up,
 * the house adding the units that do not divide to the pool first (`rounding`, fewer than the
 * sharers), so no share is rounded against the player. A fixed award is never more than the
 * pool holds. After an award the house brings the pool back up to its reset value (rule 44).
 */
export function settleJackpot(
  entries: readonly JackpotEntry[],
  state: JackpotState,
): { results: JackpotResult[]; moves: JackpotLevelMove[]; state: JackpotState } {
  const program = state.program;
  const totalStake = entries.reduce((t, e) => t + e.stake, 0);
  const { added, carry } = carriedContributions(program, totalStake, state.carry);
  const evaluated = entries.map((e) => ({ e, award: bestAward(program, e.cards) }));
  const awards = new Map<JackpotEntry, { amount: number; shared: boolean }>();
  const moves: JackpotLevelMove[] = [];
  const pools: Record<string, number> = {};
  for (const level of program.levels) {
    const id = level.level;
    const before = state.pools[id] ?? 0;
    const contribution = added[id] ?? 0;
    let remaining = before + contribution;
    const winners = evaluated.filter((x): x is { e: JackpotEntry; award: JackpotAwardLine } => x.award?.level === id);
    // Rule 50 a): «Os prémios são pagos do menor para o maior».
    const fixed = winners.flatMap((w) => (w.award.pays === 'pool' ? [] : [{ w, amount: w.award.pays.fixed }])).sort((a, b) => a.amount - b.amount);
    let paid = 0;
    for (const { w, amount } of fixed) {
      const pay = Math.min(remaining, amount);
      awards.set(w.e, { amount: pay, shared: false });
      remaining -= pay;
      paid += pay;
    }
    const top = winners.filter((w) => w.award.pays === 'pool');
    let rounding = 0;
    if (top.length > 0) {
      // Equal shares, rounded up: no payout is rounded against the player. The house adds the
      // units that do not divide (fewer than one a sharer) to the pool before the award.
      const share = Math.ceil(remaining / top.length);
      rounding = share * top.length - remaining;
      for (const w of top) awards.set(w.e, { amount: share, shared: top.length > 1 });
      remaining = 0;
      paid += share * top.length;
    }
    const seed = winners.length > 0 ? Math.max(0, level.reset - remaining) : 0;
    const after = remaining + seed;
    const carryIn = state.carry?.[id] ?? 0;
    moves.push({
      level: id,
      before,
      funded: state.unfunded[id] ?? 0,
      contribution,
      ...(carryIn > 0 ? { carryIn } : {}),
      award: paid,
      hits: winners.length,
      ...(rounding > 0 ? { rounding } : {}),
      seed,
      after,
    });
    pools[id] = after;
  }
  const results = evaluated.map(({ e, award }): JackpotResult => {
    const a = awards.get(e);
    return {
      seat: e.seat,
      hand: e.hand,
      stake: e.stake,
      award: a?.amount ?? 0,
      ...(award ? { combination: award.combination, level: award.level } : {}),
      ...(a?.shared ? { shared: true as const } : {}),
    };
  });
  const unfunded: Record<string, number> = {};
  for (const l of program.levels) unfunded[l.level] = 0;
  const carried = Object.values(carry).some((x) => x > 0);
  return { results, moves, state: { program, pools, unfunded, ...(carried ? { carry } : {}) } };
}
