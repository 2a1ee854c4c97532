import type { StreakMark } from '../table/game.js';
import type { BetId } from '../table/vocabulary.js';
import { onOtherSeatsOf } from './bets/catalogue.js';
import type { BlackjackBetEntry, SideBetId } from './bets/entry.js';
import { STREAK_LEVELS, type StreakLevel } from './bets/streak.js';
import type { SeatBets, SideStakes, StreakState } from './round-types.js';
import type { BlackjackRules, RegulatedProfileId } from './rules.js';

/** The table's spots and stakes as the blackjack round takes them, and the round's back as the table shows it. */

/** The engine's bets of a seat from the table's spots: the main bet, the additional bets by the catalogue, the streak's levels. */
export function seatBets(catalogue: readonly BlackjackBetEntry[], b: Readonly<Partial<Record<BetId, number>>>): SeatBets {
  const streak: Partial<Record<`${StreakLevel}`, number>> = {};
  for (const lvl of STREAK_LEVELS) {
    const amount = b[`streak${lvl}`];
    if (amount !== undefined) streak[`${lvl}`] = amount;
  }
  const sides = catalogue.filter((x) => x.family === 'first-cards' || x.family === 'jackpot');
  return {
    main: b.main ?? 0,
    ...sideStakes(sides, b),
    ...(Object.keys(streak).length > 0 ? { streak } : {}),
  };
}

/** The stakes a bettor placed on these bets, as the engine takes them. */
export function sideStakes(bets: readonly BlackjackBetEntry[], b: Readonly<Partial<Record<BetId, number>>>): SideStakes {
  const out: Partial<Record<SideBetId, number>> = {};
  for (const { id } of bets) {
    const amount = b[id];
    if (id !== 'main' && amount !== undefined) out[id] = amount;
  }
  return out;
}

/** Which additional bets the profile offers on another seat's hand, under which subparagraphs of Art. 13. */
export function onOtherSeats(
  catalogue: readonly BlackjackBetEntry[],
  rules: BlackjackRules,
  profileId: RegulatedProfileId,
): { bets: BetId[]; rule: string } | undefined {
  const { bets, subparagraphs, byReading } = onOtherSeatsOf(catalogue, rules);
  if (bets.length === 0) return undefined;
  const read = byReading.length > 0 ? `${byReading.join(', ')} by our reading of «antes da distribuição da primeira carta de qualquer mão»` : '';
  return { bets, rule: `${profileId} art.13 ${[subparagraphs.join(', '), read].filter((x) => x !== '').join('; ')}` };
}

/** A seat's engine streak state as the table shows and records it. */
export function streakMark(x: StreakState): StreakMark {
  return {
    wins: x.wins,
    open: STREAK_LEVELS.flatMap((lvl) => {
      const amount = x.bets[`${lvl}`];
      return amount === undefined ? [] : [{ bet: `streak${lvl}` as const, amount }];
    }),
  };
}

/** Each bettor's total stake on a seat's hands (the seat's own station under `undefined`). */
export function ownerTotals(stakes: readonly { owner?: string; stake: number }[]): Map<string | undefined, number> {
  const out = new Map<string | undefined, number>([[undefined, 0]]);
  for (const st of stakes) out.set(st.owner, (out.get(st.owner) ?? 0) + st.stake);
  return out;
}
