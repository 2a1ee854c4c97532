import { odds, payLine, type PayLine } from '../table/pay-line.js';
import { warRulesOf, type WarProfile } from './profiles.js';

/** The help's pay table of a «Desafio ao Casino» profile, with the rule each line is settled by. */
export function warPayTable(p: WarProfile): PayLine[] {
  const rules = warRulesOf(p.id);
  return [
    payLine('win', odds(1, 1), rules.win),
    payLine('tieBet', odds(p.tiePays, 1), rules.tieBetWins),
    // «Perder metade do valor da aposta inicial»: war's own words, not blackjack's surrender.
    payLine('warSurrender', { kind: 'returned', part: 'half' }, rules.surrender),
    payLine('warHigher', odds(1, 1), rules.warHigher),
    // Art. 7 n.5 al.2: a tie at war pays the pot and an amount equal to the first bet: both bets 1 to 1.
    payLine('warTie', odds(1, 1), rules.warTie),
  ];
}
