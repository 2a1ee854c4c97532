import { doublesLoseOriginalOnly, type BlackjackRules } from '../rules.js';
import type { Compositions } from './compositions.js';
import { DealerCache } from './dealer-cache.js';
import { DealerTree } from './dealer.js';

/** Cards of each value 1..10 in a full shoe of `decks` decks (index 0 unused). */
export function fullShoe(decks: number): Int32Array {
  const s = new Int32Array(11);
  for (let v = 1; v <= 9; v++) s[v] = 4 * decks;
  s[10] = 16 * decks;
  return s;
}

/**
 * Everything the recursions share for one dealer up card: the shoe without it, the dealer cache,
 * and how a dealer Black Jack enters the player's values.
 *
 * The dealer's hole card (or second card) is exchangeable with the player's draws, so every
 * value is computed as if it were drawn last, from whatever the player left: "the dealer has
 * Black Jack" then has probability `bjCount / remaining` at each point of the player's hand.
 * - With a peek (Macau procedure 3) a dealer Black Jack ends the round before any decision:
 *   everything the player settles during play is weighted by the chance that it is not there
 *   (`settleWeight`), and the round adds -1 for it once (see round-value.ts).
 * - With no hole card or an unpeeked one, what is settled during play (busts, surrender, the five
 *   card payment, the 6-7-8 prize) stands whatever the dealer has, and a standing hand loses to a
 *   dealer Black Jack as `dealerBlackjackTakes` says.
 */
export class UpCard {
  readonly up: number;
  readonly shoe: Int32Array;
  readonly total: number;
  readonly cache: DealerCache;
  readonly peek: boolean;
  /** Value completing a dealer Black Jack with this up card (10 for an ace, 1 for a ten), else 0. */
  readonly bjCard: number;
  /** A dealer Black Jack can still meet the player's standing hands (no peek, ace or ten up). */
  readonly bjAfterPlay: boolean;
  /** Art. 19 five-card half payment offered (never against an ace). */
  readonly fiveCard: boolean;

  constructor(
    readonly rules: BlackjackRules,
    readonly comps: Compositions,
    full: Int32Array,
    up: number,
  ) {
    this.up = up;
    this.shoe = full.slice();
    this.shoe[up] = this.shoe[up]! - 1;
    let n = 0;
    for (let v = 1; v <= 10; v++) n += this.shoe[v]!;
    this.total = n;
    this.cache = new DealerCache(new DealerTree(up, rules.dealerSoft17), this.shoe, n);
    this.peek = rules.holeCard === 'peek';
    this.bjCard = up === 1 ? 10 : up === 10 ? 1 : 0;
    this.bjAfterPlay = !this.peek && this.bjCard > 0;
    this.fiveCard = rules.fiveCardHalfPay && up !== 1;
  }

  /** Loss of a standing hand of `stake` units to a dealer Black Jack found after play. */
  standingLossToBlackjack(stake: number): number {
    // A doubled hand (stake 2) loses one unit only where Art. 17 n.3 or the offer of Art. 10 n.7 limits it.
    return doublesLoseOriginalOnly(this.rules) ? -1 : -stake;
  }
}
