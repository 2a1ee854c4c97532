import type { FirstCardsBet, SideBetId } from '../bets/entry.js';
import { isRegulated, type BlackjackRules } from '../rules.js';
import type { BlackjackSettlementLine } from '../round-types.js';
import type { Seat } from '../round-seats.js';
import { lineOf } from './line.js';

/**
 * A void round: every bet returned, each hand's stakes, insurance, then the additional bets the
 * catalogue returns (`returned`: the seat's, in their order; the bettors' on the hand, of the first
 * cards). Streak markers stay where they were. The lines cite Macau Art. 5 n.1 2) only for an error
 * in dealing that cannot be rectified (`dealingError`); any other void, and every Portuguese one
 * (no rule of its text voids a round), is the house's reading and cites no article.
 */
export function voidLines(
  rules: BlackjackRules,
  seats: readonly Seat[],
  returned: readonly SideBetId[],
  firstCards: readonly FirstCardsBet[],
  why: string,
  dealingError = false,
): BlackjackSettlementLine[] {
  const profile = rules.profile;
  const rule = !isRegulated(profile)
    ? `${profile} round void: ${why}`
    : dealingError && profile !== 'portugal-2001'
      ? `${profile} art.5 n.1 2): ${why}`
      : `${profile} house reading, no article: round void: ${why}`;
  const lines: BlackjackSettlementLine[] = [];
  for (const s of seats) {
    s.hands.forEach((h, i) => {
      for (const st of h.stakes) lines.push(lineOf(s.seat, 'main', i, st.stake, 0, rule, st.owner));
    });
    if (s.insurance > 0) lines.push(lineOf(s.seat, 'insurance', 0, s.insurance, 0, rule));
    for (const [owner, amount] of s.behindInsurance) lines.push(lineOf(s.seat, 'insurance', 0, amount, 0, rule, owner));
    const b = s.entry.bets;
    for (const k of returned) {
      const v = b[k];
      if (v) lines.push(lineOf(s.seat, k, 0, v, 0, rule));
    }
    for (const bb of s.entry.behind ?? []) {
      for (const { id } of firstCards) {
        const v = bb[id];
        if (v) lines.push(lineOf(s.seat, id, 0, v, 0, rule, bb.owner));
      }
    }
  }
  return lines;
}
