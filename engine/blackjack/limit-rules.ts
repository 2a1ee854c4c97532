import type { LimitRules } from '../table/game.js';
import { describeRules, type BlackjackRules } from './rules.js';

/**
 * What a blackjack profile fixes about stakes, each with the article its option comes from:
 * Portugal's bets in multiples of the minimum (rule 14) and maximum of 30 minimums (rule 37);
 * Macau 2009's cap on the table's total per round, which the casino may set (Art. 5 n.2 (3)(8)).
 */
export function blackjackLimitRules(rules: BlackjackRules): LimitRules {
  const articles = describeRules(rules);
  return {
    multiplesOfMinimum: rules.betInMultiplesOfMinimum ? articles.betInMultiplesOfMinimum.article : null,
    maxTimesMinimum: rules.maxBetMultiple > 0 ? { times: rules.maxBetMultiple, rule: articles.maxBetMultiple.article } : null,
    minSeats: null,
    roundMaxRule: rules.profile === 'macau-2009' ? 'macau-2009 art.5 n.2 (3)(8)' : null,
  };
}
