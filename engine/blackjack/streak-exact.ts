import { STREAK_LEVELS, STREAK_PAYS, type StreakLevel } from './bets/streak.js';

/** One level of the winning streak: the chance it wins once placed, and its house edge per bet decided. */
export interface StreakLevelFigure {
  readonly level: StreakLevel;
  /** Probability the bet is won: `level` rounds won before a round lost (ties leave it open, Art. 11 n.2). */
  readonly won: number;
  /** House edge in percent of the stake (positive: the house's advantage). */
  readonly houseEdge: number;
  /** Its standard error, in points, when the round probabilities are estimated (0 when they are given exactly). */
  readonly standardError: number;
}

/**
 * The winning streak's levels (Macau 2009 Art. 13 5), Art. 14 n.5: 3, 8, 18, 38 to 1) from the
 * probabilities that a round advances the marker (`won`) or loses the bets (`lost`); a tie (Art.
 * 11 n.2, Art. 16 n.7 2)) leaves the marker where it was. With every round dealt from a full shoe
 * (rounds independent and alike), a level-k bet wins with probability r^k, r = won / (won + lost),
 * and returns (pays + 1)·r^k per unit: exact given `won` and `lost`. `decisive`: how many
 * decisive rounds estimated r, for its standard error (omit for exact inputs).
 */
export function streakFigures(won: number, lost: number, decisive?: number): StreakLevelFigure[] {
  if (!(won > 0) || !(lost > 0) || won + lost > 1 + 1e-12) throw new RangeError(`round probabilities out of range: won ${won}, lost ${lost}`);
  const r = won / (won + lost);
  const seR = decisive !== undefined && decisive > 0 ? Math.sqrt((r * (1 - r)) / decisive) : 0;
  return STREAK_LEVELS.map((level) => {
    const p = r ** level;
    const back = STREAK_PAYS[level] + 1;
    return { level, won: p, houseEdge: 100 * (1 - back * p), standardError: 100 * back * level * r ** (level - 1) * seR };
  });
}
