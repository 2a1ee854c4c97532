import type { PayLine } from '../table/pay-line.js';
import { BLACKJACK_CATALOGUE, firstCardsBets } from './bets/catalogue.js';
import type { BlackjackBetEntry } from './bets/entry.js';
import type { BlackjackRules } from './rules.js';

/**
 * The help's pay table of resolved blackjack rules, from the bet catalogue: the main bet's lines,
 * then the additional bets the table offers (Art. 13), those of the first cards in the order they
 * are settled, then the others; each line quotes the rule its settlement uses.
 */
export function blackjackPayTable(rules: BlackjackRules, catalogue: readonly BlackjackBetEntry[] = BLACKJACK_CATALOGUE): PayLine[] {
  const first = firstCardsBets(catalogue);
  const others = catalogue.filter((b) => b.kind === 'additional' && b.family !== 'first-cards');
  return [...catalogue.filter((b) => b.kind === 'main'), ...first, ...others].filter((b) => b.offered(rules)).flatMap((b) => b.payLines(rules));
}
