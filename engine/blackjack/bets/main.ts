import { odds, parseRatio, payLine, type PayLine } from '../../table/pay-line.js';
import { ref } from '../refs.js';
import { describeRules } from '../rules.js';
import { familyBet } from './entry.js';

/**
 * The main bet (the initial bet of every text): the hands it plays, its doubles, splits, insurance
 * and surrender are the round's (engine/blackjack/round.ts, settle/main.ts).
 */
export const main = familyBet({
  id: 'main',
  kind: 'main',
  onVoid: 'returned',
  family: 'main',
  offered: () => true,
  payLines: (rules) => {
    const id = rules.profile;
    const r = describeRules(rules);
    const lines: PayLine[] = [
      payLine('win', odds(1, 1), ref(id, 'win')),
      payLine('blackjack', parseRatio(String(r.blackjackPays.value)), ref(id, 'blackjack')),
      payLine('insurance', odds(2, 1), ref(id, 'insuranceWin')),
    ];
    if (r.fiveCardHalfPay.value === true) lines.push(payLine('fiveCard', odds(1, 2), ref(id, 'fiveCard')));
    if (r.surrender.value !== 'none') lines.push(payLine('surrender', { kind: 'returned', part: 'half' }, ref(id, 'surrender')));
    // Art. 15: three times the bet, instead of the main result or on top of it as the profile says.
    if (r.bonus678.value !== 'none')
      lines.push(payLine(r.bonus678.value === 'in-addition' ? 'special678Extra' : 'special678', odds(3, 1), ref(id, 'special678')));
    return lines;
  },
});
