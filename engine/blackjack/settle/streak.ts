import { STREAK_LEVELS, STREAK_PAYS, type StreakLevel } from '../bets/streak.js';
import { lineChoices } from '../line-choices.js';
import { ref, type RefKey } from '../refs.js';
import type { BlackjackRules } from '../rules.js';
import type { BlackjackSettlementLine, HeldStreakStake, StreakState } from '../round-types.js';
import type { Seat } from '../round-seats.js';

/**
 * Winning streak (Art. 13 5), Art. 11 n.2, Art. 16 n.7, Art. 18 n.3): the round's result moves
 * each seat's marker; levels reached are paid, a lost round loses every open level, a tie leaves
 * them. A seat with open streak bets that does not bet this round breaks the obligation of Art. 13
 * 5)(2) vi) ("o jogador deve apostar nos jogos seguintes, consecutivamente"): the text names no
 * other consequence, so its streak bets are lost (our reading; docs/rules/blackjack.md). A seat
 * whose station a fault kept from betting (`keptOut`) broke no obligation: its open streak stakes
 * are returned and its streak ends (the house's reading, no article: docs/rules/blackjack.md).
 */
export function settleStreaks(
  rules: BlackjackRules,
  seats: readonly Seat[],
  carriedIn: readonly StreakState[],
  keptOut: readonly number[] = [],
): { lines: BlackjackSettlementLine[]; streaks: StreakState[]; held: HeldStreakStake[] } {
  const p = rules.profile;
  const lines: BlackjackSettlementLine[] = [];
  const out: StreakState[] = [];
  const held: HeldStreakStake[] = [];
  const line = (seat: number, lvl: StreakLevel, stake: number, net: number, carried: boolean, key: RefKey) =>
    lines.push({
      seat,
      bet: `streak${lvl}`,
      hand: 0,
      stake,
      net,
      rule: ref(p, key),
      ...lineChoices(rules, key),
      ...(carried ? { carried: true as const } : {}),
    });
  const dealt = new Set(seats.map((s) => s.seat));
  for (const absent of carriedIn) {
    if (dealt.has(absent.seat)) continue;
    for (const lvl of STREAK_LEVELS) {
      const stake = absent.bets[`${lvl}`];
      if (stake === undefined) continue;
      if (keptOut.includes(absent.seat)) line(absent.seat, lvl, stake, 0, true, 'streakKeptOut');
      else line(absent.seat, lvl, stake, -stake, true, 'streakAbsent');
    }
  }
  for (const s of seats) {
    const st = s.streak;
    if (!st) continue;
    const { result, winKey, loseKey } = roundResult(s);
    const bets = { ...st.bets };
    let wins = st.wins;
    if (result === 'win') {
      wins++;
      for (const lvl of STREAK_LEVELS) {
        const k = `${lvl}` as const;
        const stake = bets[k];
        if (stake !== undefined && lvl <= wins) {
          line(s.seat, lvl, stake, STREAK_PAYS[lvl] * stake, st.carried, winKey);
          delete bets[k];
        }
      }
    } else if (result === 'lose') {
      for (const lvl of STREAK_LEVELS) {
        const k = `${lvl}` as const;
        const stake = bets[k];
        if (stake !== undefined) line(s.seat, lvl, stake, -stake, st.carried, loseKey);
        delete bets[k];
      }
      wins = 0;
    }
    if (Object.keys(bets).length > 0) {
      out.push({ seat: s.seat, bets, wins });
      // Stakes wagered this round and still open are held past it; carried ones stay held.
      if (!st.carried)
        for (const lvl of STREAK_LEVELS) {
          const amount = bets[`${lvl}`];
          if (amount !== undefined) held.push({ seat: s.seat, bet: `streak${lvl}`, amount });
        }
    }
  }
  return { lines, streaks: out, held };
}

/**
 * The seat's round for its streak: surrendered is lost (Art. 18 n.3); split hands count won when
 * more won than lost (Art. 16 n.7 1) where they are a majority; our reading where pushes leave
 * them none), kept when as many, lost when fewer (n.7 2)-3)).
 */
function roundResult(s: Seat): { result: 'win' | 'tie' | 'lose'; winKey: RefKey; loseKey: RefKey } {
  if (s.surrendered) return { result: 'lose', winKey: 'streakWin', loseKey: 'streakSurrender' };
  const outcomes = s.hands.map((h) => h.outcome ?? 'push');
  const wins = outcomes.filter((o) => o === 'win').length;
  const losses = outcomes.filter((o) => o === 'lose').length;
  const result = wins > losses ? 'win' : wins < losses ? 'lose' : 'tie';
  const split = s.hands.length > 1;
  // Art. 16 n.7 1) is a majority of the split hands; more won than lost with pushes among them is not one.
  const winKey: RefKey = !split ? 'streakWin' : 2 * wins > outcomes.length ? 'streakSplitWin' : 'streakSplitWinByReading';
  return { result, winKey, loseKey: split ? 'streakSplitLose' : 'streakLose' };
}
