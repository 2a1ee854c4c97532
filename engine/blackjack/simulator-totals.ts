import type { FirstCardsBetId } from './bets/catalogue.js';
import { STREAK_LEVELS, type StreakLevel } from './bets/streak.js';
import { FIRST_TWO } from './simulator-cards.js';

/** What the simulator adds up over rounds, and the house edge it reads from them. */

/** The side bets the simulator settles: the catalogue's bets of the first cards (in their settlement order), then the streak's levels. */
export type SimSideBet = FirstCardsBetId | `streak${StreakLevel}`;
export const SIM_SIDE_BETS: readonly SimSideBet[] = [...FIRST_TWO.map((b) => b.id).filter(isSimSideBet), ...STREAK_LEVELS.map((l) => `streak${l}` as const)];

function isSimSideBet(id: string): id is FirstCardsBetId {
  return FIRST_TWO.some((b) => b.id === id);
}

export interface SimTotals {
  hands: number;
  /** Sum and sum of squares of the main result per round, in units of the initial bet. */
  sum: number;
  sumSq: number;
  /** Per side bet: results per unit staked, and how many bets were decided. */
  side: Record<SimSideBet, { sum: number; sumSq: number; n: number }>;
}

export function emptyTotals(): SimTotals {
  const side = {} as SimTotals['side'];
  for (const b of SIM_SIDE_BETS) side[b] = { sum: 0, sumSq: 0, n: 0 };
  return { hands: 0, sum: 0, sumSq: 0, side };
}

export function mergeTotals(into: SimTotals, from: SimTotals): void {
  into.hands += from.hands;
  into.sum += from.sum;
  into.sumSq += from.sumSq;
  for (const b of SIM_SIDE_BETS) {
    into.side[b].sum += from.side[b].sum;
    into.side[b].sumSq += from.side[b].sumSq;
    into.side[b].n += from.side[b].n;
  }
}

/** House edge and its standard error, in percent of the stake; positive = house advantage. */
export function edge(sum: number, sumSq: number, n: number): { houseEdge: number; stdErr: number } {
  if (n === 0) return { houseEdge: 0, stdErr: 0 };
  const mean = sum / n;
  const variance = Math.max(0, sumSq / n - mean * mean);
  return { houseEdge: -mean * 100, stdErr: Math.sqrt(variance / n) * 100 };
}
