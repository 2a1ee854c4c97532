import type { Card } from '../../cards/card.js';
import { handTotal } from '../hand.js';
import { lineChoices } from '../line-choices.js';
import { ref, stayedOutRef, type RefKey } from '../refs.js';
import { doublesLoseOriginalOnly, type BlackjackRules } from '../rules.js';
import type { BlackjackSettlementLine, HandStatus } from '../round-types.js';
import type { Hand, Seat, Stake } from '../round-seats.js';
import { handContext, lineOf } from './line.js';

/**
 * The main bet's settlement (and the bets behind it, stake by stake): a hand's result against
 * the dealer, each line naming its article (refs.ts) and, for a bet behind that stayed out of a
 * split or double, Portugal rule 28 / 30 too.
 */

/** What a hand's result of kind `key` pays a stake `x`, in minor units. */
export function mainNet(key: RefKey, x: number): number {
  // The texts say exactly 3:2 and half. A stake that makes a fraction of a minor unit has it
  // go to the player (wins up, losses down), as in baccarat and war: never against the player.
  switch (key) {
    case 'blackjack':
    case 'blackjackVs21':
      return Math.ceil((3 * x) / 2);
    case 'win':
    case 'win21':
    case 'split21':
    case 'split21DealerBust':
    case 'dealerBust':
    case 'win21DealerBust':
    case 'evenMoney':
      return x;
    case 'special678':
      return 3 * x;
    case 'fiveCard':
      return Math.ceil(x / 2);
    case 'surrender':
      return 0 - Math.floor(x / 2); // not -0 for a 1 unit stake
    case 'push':
    case 'blackjackPush':
      return 0;
    default:
      return -x;
  }
}

/** The article of a main-bet line; a bet behind that stayed out of a split or double names rule 28 / 30 too. */
export function mainRule(rules: BlackjackRules, key: RefKey, st: Stake): string {
  const stayed = stayedOutRef(rules.profile, st.stayedOutSplit, st.stayedOutDouble);
  return stayed ? `${ref(rules.profile, key)}; ${stayed}` : ref(rules.profile, key);
}

/** The result of a hand still open against the dealer's final hand (no dealer Black Jack): its kind of line. */
export function resultAgainst(dealer: readonly Card[], h: Hand): RefKey {
  const dt = handTotal(dealer).total;
  if (h.status === 'blackjack') return dealer.length > 2 && dt === 21 ? 'blackjackVs21' : 'blackjack';
  const pt = handTotal(h.cards, h.aceLocked).total;
  // Art. 10 n.6, rule 20: two cards of 21 on a split hand win as 21, not as Black Jack.
  const split21 = h.fromSplit && pt === 21 && h.cards.length === 2;
  if (dt > 21) return split21 ? 'split21DealerBust' : pt === 21 && h.cards.length > 2 ? 'win21DealerBust' : 'dealerBust';
  if (pt > dt) return split21 ? 'split21' : pt === 21 && h.cards.length > 2 ? 'win21' : 'win';
  if (pt < dt) return 'lose';
  return 'push';
}

/** A hand settled: its lines, the seat's own result on it (for the streak), and its status after. */
export interface HandSettled {
  readonly lines: readonly BlackjackSettlementLine[];
  readonly outcome: 'win' | 'lose' | 'push';
  readonly status: HandStatus;
}

/** Every stake on a hand settled by one result `key`. */
export function settleHand(rules: BlackjackRules, s: Seat, h: Hand, key: RefKey): HandSettled {
  const idx = s.hands.indexOf(h);
  let outcome: 'win' | 'lose' | 'push' = 'push';
  const lines: BlackjackSettlementLine[] = [];
  for (const st of h.stakes) {
    const net = mainNet(key, st.stake);
    // The streak follows the seat's own bet (Art. 13 5)).
    if (st.owner === undefined) outcome = net > 0 ? 'win' : net < 0 ? 'lose' : 'push';
    lines.push(lineOf(s.seat, 'main', idx, st.stake, net, mainRule(rules, key, st), st.owner, lineChoices(rules, key, handContext(h, st))));
  }
  return { lines, outcome, status: key === 'bust' ? 'busted' : key === 'surrender' ? 'surrendered' : 'settled' };
}

/**
 * A hand still open against the dealer's Black Jack that is not one itself. Per bettor: a split
 * or doubled bettor loses only the original bet (Art. 16 n.6; Art. 17 n.3 for doubles of its n.1
 * 1)-2); the house's offer of Art. 10 n.7 for a double on 11, `doublesLoseOriginalOnly`). A bettor who
 * already lost a hand by busting has lost at least that much: the rest of that bettor's hands are
 * returned (`lostAlready`, shared over the seat's hands, is updated).
 */
export function loseToDealerBlackjack(rules: BlackjackRules, s: Seat, h: Hand, lostAlready: Map<string | undefined, boolean>): HandSettled {
  const limitSplits = rules.dealerBlackjackTakes === 'original-only';
  const limitDoubles = doublesLoseOriginalOnly(rules);
  const split = s.hands.length > 1;
  const idx = s.hands.indexOf(h);
  const lines: BlackjackSettlementLine[] = [];
  for (const st of h.stakes) {
    let net = -st.stake;
    // Under a peek every dealer Black Jack is found before the players act (the round ends there).
    const taken: RefKey = rules.holeCard === 'peek' ? 'dealerBlackjackAtPeek' : 'dealerBlackjack';
    let key: RefKey = handTotal(h.cards, h.aceLocked).total === 21 ? 'dealerBlackjackBeats21' : taken;
    if (split && limitSplits) {
      key = 'splitOriginalOnly';
      net = lostAlready.get(st.owner) ? 0 : -st.base;
      lostAlready.set(st.owner, true);
    } else if (h.doubled && limitDoubles && st.stake > st.base) {
      key = split ? 'splitOriginalOnly' : rules.doubleOn === 'eleven' ? 'doubleOnElevenOriginalOnly' : 'doubleOriginalOnly';
      net = -st.base;
    }
    lines.push(lineOf(s.seat, 'main', idx, st.stake, net, mainRule(rules, key, st), st.owner, lineChoices(rules, key, handContext(h, st))));
  }
  return { lines, outcome: 'lose', status: 'settled' };
}

/** The bettors of a seat who already lost a hand by busting (`loseToDealerBlackjack`). */
export function bustedBettors(s: Seat): Map<string | undefined, boolean> {
  const lost = new Map<string | undefined, boolean>();
  for (const h of s.hands) if (h.status === 'busted') for (const st of h.stakes) lost.set(st.owner, true);
  return lost;
}
