import { odds, payLine } from '../../table/pay-line.js';
import { ref } from '../refs.js';
import { familyBet } from './entry.js';

/** Winning streak of 2, 3, 4, 5 rounds pays 3, 8, 18, 38 to 1 (Art. 14 n.5). */
export const STREAK_LEVELS = [2, 3, 4, 5] as const;
export type StreakLevel = (typeof STREAK_LEVELS)[number];
export const STREAK_PAYS: Readonly<Record<StreakLevel, number>> = { 2: 3, 3: 8, 4: 18, 5: 38 };

/**
 * The winning streak (Macau 2009 Art. 13 5)): one spot per level, placed together and carried
 * from round to round until decided (engine/blackjack/settle/streak.ts); on the station's own seat
 * only (the rounds "ganhas pelo jogador"). A void round leaves its markers where they were.
 */
const level = <const Id extends `streak${StreakLevel}`>(id: Id, n: StreakLevel) =>
  familyBet({
    id,
    kind: 'additional',
    onVoid: 'markers-kept',
    family: 'streak',
    offered: (r) => r.winningStreak,
    payLines: (r) => [payLine(id, odds(STREAK_PAYS[n], 1), ref(r.profile, 'streakWin'), true)],
  });

export const streak2 = level('streak2', 2);
export const streak3 = level('streak3', 3);
export const streak4 = level('streak4', 4);
export const streak5 = level('streak5', 5);
