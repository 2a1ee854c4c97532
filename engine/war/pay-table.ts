import { odds, payLine, type PayLine } from '../table/pay-line.js';
import { warRulesOf, type WarProfile } from './profiles.js';

/** The help's pay table of a «Desafio ao Casino» profile, with the rule each line is settled by. */
export function warPayTable(p: WarProfile): PayLine[] {
  const rules = warRulesOf(p.id);
  return [
    payLine('win', odds(1, 1), rules.win),
    payLine('tieBet', odds(p.tiePays, 1), rules.tieBetWins),
    payLine('surrender', { kind: 'returned', part: 'half' }, rules.surrender),
    payLine('warHigher', odds(1, 1), rules.warHigher),
  ];
}
