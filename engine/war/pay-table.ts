import { odds, payLine, type PayLine } from '../table/pay-line.js';
import { WAR_RULES, type WarProfile } from './profiles.js';

/** The help's pay table of a «Desafio ao Casino» profile, with the rule each line is settled by. */
export function warPayTable(p: WarProfile): PayLine[] {
  return [
    payLine('win', odds(1, 1), WAR_RULES.win),
    payLine('tieBet', odds(p.tiePays, 1), WAR_RULES.tieBetWins),
    payLine('surrender', { kind: 'returned', part: 'half' }, WAR_RULES.surrender),
    payLine('warHigher', odds(1, 1), WAR_RULES.warHigher),
  ];
}
