import type { LimitRules } from '../table/game.js';
import { BLACKJACK_CATALOGUE } from './bets/catalogue.js';
import type { BlackjackBetEntry } from './bets/entry.js';
import { describeRules, type BlackjackRules } from './rules.js';

/**
 * What a blackjack profile fixes about stakes, each with the article its option comes from:
 * Portugal's bets in multiples of the minimum (rule 14) and maximum of 30 minimums (rule 37);
 * Macau 2009's cap on the table's total per round, which the casino may set with procedure 3
 * (Art. 5 n.2 3)(8)); one additional bet per player (Art. 13, the literal reading).
 */
export function blackjackLimitRules(
  rules: BlackjackRules,
  catalogue: readonly BlackjackBetEntry[] = BLACKJACK_CATALOGUE,
  /** The progressive's chip, when the table plays one (its program's stake, Portugal rule 47). */
  jackpotStake?: number,
): LimitRules {
  const articles = describeRules(rules);
  // The additional bets the table offers (the streak's levels count as one: the table groups them).
  const additional = catalogue.filter((b) => b.kind === 'additional' && b.offered(rules)).map((b) => b.id);
  return {
    multiplesOfMinimum: rules.betInMultiplesOfMinimum ? articles.betInMultiplesOfMinimum.article : null,
    maxTimesMinimum: rules.maxBetMultiple > 0 ? { times: rules.maxBetMultiple, rule: articles.maxBetMultiple.article } : null,
    minSeats: null,
    // A subparagraph of procedure 3: under the other procedures a cap is the casino's own, citing no article.
    roundMaxRule: rules.profile === 'macau-2009' && rules.dealProcedure === 'macau-3' ? 'macau-2009 art.5 n.2 3)(8)' : null,
    oneAdditionalBet: rules.oneSideBetPerPlayer ? { bets: additional, rule: articles.oneSideBetPerPlayer.article } : null,
    // «a aposta no jackpot é constituída apenas por uma ficha por cada jogador, no montante previamente definido».
    ...(jackpotStake !== undefined ? { oneChip: { bet: 'jackpot', amount: jackpotStake, rule: 'portugal-2001 rule 47' } } : {}),
    ...(rules.profile === 'portugal-2001' ? { shoeEndsEarlyOnlyWithoutStakes: 'portugal-2001 rule 12' } : {}),
  };
}
