import { cardOf, type CardCode } from '../../cards/card.js';
import { rankValue } from '../hand.js';
import { isProfileId, resolveRules } from '../rules.js';
import type { DecisionAdvisor, DecisionAsked, HandSeen } from '../../table/advisor.js';
import type { DecisionAction } from '../../table/vocabulary.js';
import { computeStrategy, type StrategyTable } from './basic-strategy.js';

export type { DecisionAdvisor, DecisionAsked, HandSeen } from '../../table/advisor.js';

/** A card code's blackjack value, 1 (ace) … 10. */
const value = (code: CardCode): number => rankValue(cardOf(code).rank);

/**
 * A blackjack decision by basic strategy for the profile, the best-ranked action that is legal
 * now; offers (insurance, even money, five-card half) declined, which is what the table's own
 * default does too; a seat's double or split followed from behind where the strategy would make
 * it. Moved here from host/autoplay (issue 53) so the host asks the game for it instead of naming
 * the game.
 */
export class BlackjackAdvisor implements DecisionAdvisor {
  private readonly strategy: StrategyTable;

  constructor(profile: string) {
    if (!isProfileId(profile)) throw new RangeError(`no blackjack profile "${profile}"`);
    this.strategy = computeStrategy(resolveRules(profile));
  }

  choose(decision: DecisionAsked, hands: readonly HandSeen[]): DecisionAction {
    const legal = decision.legal;
    const dealer = hands.find((h) => h.owner === 'dealer');
    const mine = hands.find((h) => h.owner === 'seat' && h.seat === decision.seat && (h.hand ?? 0) === (decision.hand ?? 0));
    const upCode = dealer?.cards.find((c): c is CardCode => c !== 'XX');
    const isPlay = legal.includes('hit') || legal.includes('stand');
    // Asked behind a seat that doubles or splits (Portugal rules 28, 30): follow when basic
    // strategy would make that same decision on the hand.
    const follow = legal.find((a) => a === 'follow-double' || a === 'follow-split');
    const seen = mine?.cards.filter((c): c is CardCode => c !== 'XX') ?? [];
    // A hand the player cannot see all of (dealt face down) is left to the default.
    if ((!isPlay && !follow) || !mine || !upCode || seen.length === 0 || seen.length < mine.cards.length) return decision.default;
    const values = seen.map(value);
    const hard = values.reduce((a, b) => a + b, 0);
    const ace = values.includes(1);
    const pair = values.length === 2 && values[0] === values[1] ? (values[0] ?? 0) : 0;
    if (follow) {
      const best = this.strategy.ranked(value(upCode), Math.min(hard, 31), ace, seen.length, pair, true, (decision.hand ?? 0) > 0)[0];
      return best === (follow === 'follow-double' ? 'double' : 'split') ? follow : decision.default;
    }
    const first = legal.includes('double') || legal.includes('split') || legal.includes('surrender');
    const ranked = this.strategy.ranked(
      value(upCode),
      Math.min(hard, 31),
      ace,
      seen.length,
      legal.includes('split') ? pair : 0,
      first,
      (decision.hand ?? 0) > 0,
    );
    for (const a of ranked) {
      const taken = legal.find((l) => l === a);
      if (taken) return taken;
    }
    return decision.default;
  }
}
