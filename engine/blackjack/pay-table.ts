import { odds, parseRatio, payLine, type PayLine } from '../table/pay-line.js';
import type { PayItem } from '../table/vocabulary.js';
import { ref } from './refs.js';
import { describeRules, type BlackjackRules } from './rules.js';
import { ANY_PAIR_PAYS, OVER_UNDER_PAYS, PERFECT_PAIRS_PAYS, SEVENS_PAYS, STREAK_PAYS } from './side-bets.js';

/** The help's pay table of resolved blackjack rules; each line quotes the rule its settlement uses (refs.ts). */
export function blackjackPayTable(rules: BlackjackRules): PayLine[] {
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
  return [...lines, ...sideBetLines(rules)];
}

/** The additional bets the table offers (Art. 13), each at the odds Art. 14 gives it. */
function sideBetLines(rules: BlackjackRules): PayLine[] {
  const id = rules.profile;
  const side = (item: PayItem, win: number, key: Parameters<typeof ref>[1]): PayLine => payLine(item, odds(win, 1), ref(id, key), true);
  const lines: PayLine[] = [];
  if (rules.anyPair) lines.push(side('anyPair', ANY_PAIR_PAYS, 'anyPair'));
  if (rules.sevens) {
    lines.push(
      side('sevensTwo', SEVENS_PAYS.two, 'sevens'),
      side('sevensTwoSuited', SEVENS_PAYS.twoSuited, 'sevens'),
      side('sevensThree', SEVENS_PAYS.three, 'sevens'),
      side('sevensThreeSuited', SEVENS_PAYS.threeSuited, 'sevens'),
    );
  }
  if (rules.overUnder13) lines.push(side('over13', OVER_UNDER_PAYS, 'overUnder'), side('under13', OVER_UNDER_PAYS, 'overUnder'));
  if (rules.perfectPairs) {
    lines.push(
      side('perfectPairMixed', PERFECT_PAIRS_PAYS.mixed, 'perfectPairs'),
      side('perfectPairColoured', PERFECT_PAIRS_PAYS.coloured, 'perfectPairs'),
      side('perfectPairPerfect', PERFECT_PAIRS_PAYS.perfect, 'perfectPairs'),
    );
  }
  if (rules.winningStreak) {
    lines.push(
      side('streak2', STREAK_PAYS[2], 'streakWin'),
      side('streak3', STREAK_PAYS[3], 'streakWin'),
      side('streak4', STREAK_PAYS[4], 'streakWin'),
      side('streak5', STREAK_PAYS[5], 'streakWin'),
    );
  }
  return lines;
}
