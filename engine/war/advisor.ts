import type { Chance, DecisionAdvisor, DecisionAsked } from '../table/advisor.js';
import type { DecisionAction } from '../table/vocabulary.js';

/**
 * A simulated war player after a tie (Art. 7 n.4): goes to war four times in five, surrenders
 * otherwise, drawing on the host's seeded chance only when both are offered; any other decision
 * takes what a timeout would.
 */
export class WarAdvisor implements DecisionAdvisor {
  constructor(private readonly chance: Chance) {}

  choose(d: DecisionAsked): DecisionAction {
    if (d.legal.includes('war') && d.legal.includes('surrender')) return this.chance(0.8) ? 'war' : 'surrender';
    return d.default;
  }
}
