import { lineChoices } from '../line-choices.js';
import { ref } from '../refs.js';
import type { BlackjackRules } from '../rules.js';
import type { BlackjackSettlementLine } from '../round-types.js';
import type { Seat } from '../round-seats.js';
import { lineOf } from './line.js';

/**
 * Insurance (Macau Art. 12 n.2–3; Portugal rule 33), the seat's and its bettors' behind (rule 15):
 * 2 to 1 against the dealer's Black Jack (found at the peek under procedure 3: Art. 5 n.2 3)(3)-(4)),
 * lost otherwise.
 */
export function insuranceLines(rules: BlackjackRules, seats: readonly Seat[], dealerBlackjack: boolean): BlackjackSettlementLine[] {
  const p = rules.profile;
  const out: BlackjackSettlementLine[] = [];
  for (const s of seats) {
    const bets: [string | undefined, number][] = [[undefined, s.insurance], ...s.behindInsurance];
    for (const [owner, amount] of bets) {
      if (amount <= 0) continue;
      const behind = { behind: owner !== undefined };
      const win = rules.holeCard === 'peek' ? 'insuranceWinAtPeek' : 'insuranceWin';
      if (dealerBlackjack) out.push(lineOf(s.seat, 'insurance', 0, amount, 2 * amount, ref(p, win), owner, lineChoices(rules, win, behind)));
      else out.push(lineOf(s.seat, 'insurance', 0, amount, -amount, ref(p, 'insuranceLose'), owner, lineChoices(rules, 'insuranceLose', behind)));
    }
  }
  return out;
}
