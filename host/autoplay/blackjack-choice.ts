import { isProfileId, resolveRules } from '../../engine/blackjack/rules.js';
import { computeStrategy, type StrategyTable } from '../../engine/strategy/basic-strategy.js';
import type { DecisionAction, HandView, StationDecision } from '../../protocol/index.js';

const VALUE: Record<string, number> = { A: 1, T: 10, J: 10, Q: 10, K: 10 };

/** A card code's blackjack value, 1 (ace) … 10. */
function value(code: string): number {
  const rank = code.slice(0, -1);
  return VALUE[rank] ?? Number(rank);
}

/**
 * A simulated player's blackjack decision: basic strategy for the profile (engine/strategy), the
 * best-ranked action that is legal now; offers (insurance, even money, five-card half) declined,
 * which is what the table's own default does too; a seat's double or split followed from behind
 * where the strategy would make it.
 */
export class BlackjackChooser {
  private readonly strategy: StrategyTable;

  constructor(profile: string) {
    if (!isProfileId(profile)) throw new RangeError(`no blackjack profile "${profile}"`);
    this.strategy = computeStrategy(resolveRules(profile));
  }

  choose(decision: StationDecision, hands: readonly HandView[]): DecisionAction {
    const legal = decision.legal;
    const dealer = hands.find((h) => h.owner === 'dealer');
    const mine = hands.find((h) => h.owner === 'seat' && h.seat === decision.seat && (h.hand ?? 0) === (decision.hand ?? 0));
    const upCode = dealer?.cards.find((c) => c !== 'XX');
    const isPlay = legal.includes('hit') || legal.includes('stand');
    // Asked behind a seat that doubles or splits (Portugal rules 28, 30): follow when basic
    // strategy would make that same decision on the hand.
    const follow = legal.find((a) => a === 'follow-double' || a === 'follow-split');
    if ((!isPlay && !follow) || !mine || !upCode || mine.cards.length === 0) return decision.default;
    const values = mine.cards.map(value);
    const hard = values.reduce((a, b) => a + b, 0);
    const ace = values.includes(1);
    const pair = values.length === 2 && values[0] === values[1] ? (values[0] as number) : 0;
    if (follow) {
      const best = this.strategy.ranked(value(upCode), Math.min(hard, 31), ace, mine.cards.length, pair, true, (decision.hand ?? 0) > 0)[0];
      return best === (follow === 'follow-double' ? 'double' : 'split') ? follow : decision.default;
    }
    const first = legal.includes('double') || legal.includes('split') || legal.includes('surrender');
    const ranked = this.strategy.ranked(
      value(upCode),
      Math.min(hard, 31),
      ace,
      mine.cards.length,
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
