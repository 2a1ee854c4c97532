import { cardCode, type Card, type CardCode } from '../cards/card.js';
import { freshCards, shuffled, ShoeInventory } from '../cards/shoe.js';
import type { Rng } from '../random/seeded-rng.js';
import type { BlackjackRules } from './rules.js';

/**
 * The shoe between rounds: shuffle, cut card («carta branca» / «carta-aviso»), burns at the start
 * of a shoe, the last round, and the continuous shuffler. It works the same whether the cards
 * come from a seeded shuffle (simulation, tests, the automatic-shuffler model) or are read one by
 * one from the card-reading shoe (the live path): `cardOut` is told of every card that leaves.
 *
 * - Macau Art. 2 n.1 (1): the second white card among the last 30 or more cards; n.2 (1): its
 *   appearance marks the last round; n.2 (2): the dealer may shuffle after any round; n.2 (4):
 *   an automatic shuffler takes the cards back after each round. Art. 4 n.1: burn as many cards
 *   as decks, or one.
 * - Portugal rule 9: the carta-aviso about the 50th card from the end, or the middle with one
 *   player; rule 10: one card burnt; rule 11: the round in progress when it comes out is the last,
 *   and if it comes out just before a round, that round is still played; rules 52, 56–60: an
 *   automatic/continuous shuffler has no cut, no carta-aviso and no last-round announcement.
 */
export type ShoeStep =
  | { readonly kind: 'shuffle'; readonly why: string }
  | { readonly kind: 'burn'; readonly count: number; readonly why: string }
  | { readonly kind: 'round'; readonly firstRoundOfShoe: boolean; readonly lastRound: boolean };

/**
 * A live shoe's position as plain data (the table state machine keeps it between rounds and
 * serialises it). Only a shoe read card by card has one: a seeded shoe's order is the simulator's.
 */
export interface BlackjackShoeSnapshot {
  readonly dealt: number;
  readonly burnsLeft: number;
  readonly cutSeen: boolean;
  readonly lastRoundAnnounced: boolean;
  readonly roundsThisShoe: number;
  readonly needShuffle: boolean;
  /** The card before which the cut card sits; null when the shoe has none (a shuffler). */
  readonly cutAt: number | null;
  readonly out: Partial<Record<CardCode, number>>;
}

export class BlackjackShoe {
  readonly rules: BlackjackRules;
  /** Cards of the current shoe in order, when it was shuffled here (seeded); empty on the live path. */
  private order: Card[] = [];
  private dealt = 0;
  private burnsLeft = 0;
  private cutSeen = false;
  private lastRoundAnnounced = false;
  private roundsThisShoe = 0;
  private needShuffle = true;
  private cutAt = Infinity;
  inventory: ShoeInventory;

  constructor(rules: BlackjackRules) {
    this.rules = rules;
    this.inventory = new ShoeInventory(rules.decks);
  }

  get size(): number {
    return this.rules.decks * 52;
  }

  /** Cards behind the cut card for a shoe, or undefined when the shuffler makes it pointless. */
  cutCardFromEnd(playersAtTable: number): number | undefined {
    const r = this.rules;
    if (r.shuffler !== 'manual') return undefined;
    if (r.cutCardMiddleWithOnePlayer && playersAtTable === 1) return Math.floor(this.size / 2);
    return r.cutCardFromEnd;
  }

  /** What the dealer must do next before (or instead of) dealing a round. */
  next(): ShoeStep {
    if (this.needShuffle)
      return { kind: 'shuffle', why: this.roundsThisShoe === 0 && this.dealt === 0 ? 'new shoe' : 'the cut card came out: the last round is over' };
    if (this.burnsLeft > 0) return { kind: 'burn', count: this.burnsLeft, why: 'burn at the start of the shoe (art.4 n.1 / rule 10)' };
    return { kind: 'round', firstRoundOfShoe: this.roundsThisShoe === 0, lastRound: this.cutSeen };
  }

  /**
   * A shuffle happened. With an `rng` the order is drawn here (seeded path); without, the cards
   * are shuffled physically and only read as they come out (live path).
   */
  shuffled(playersAtTable: number, rng?: Rng): void {
    this.order = rng ? shuffled(freshCards(this.rules.decks), rng) : [];
    this.dealt = 0;
    this.cutSeen = false;
    this.lastRoundAnnounced = false;
    this.roundsThisShoe = 0;
    this.needShuffle = false;
    this.inventory = new ShoeInventory(this.rules.decks);
    const behind = this.cutCardFromEnd(playersAtTable);
    this.cutAt = behind === undefined ? Infinity : this.size - behind;
    const b = this.rules.burnAtShoeStart;
    this.burnsLeft = b === 'decks' ? this.rules.decks : b === 'one' ? 1 : 0;
  }

  /** The next card of a seeded shoe (simulation and tests); the live path reads cards instead. */
  draw(): Card {
    const c = this.order[this.dealt];
    if (!c) throw new RangeError('the shoe is empty');
    this.cardOut(c);
    return c;
  }

  /**
   * Every card that leaves the shoe, dealt or burnt. False when the card breaks the inventory
   * (more copies than decks): the table goes on hold.
   */
  cardOut(card: Card): boolean {
    if (!this.inventory.take(card)) return false;
    this.countOut();
    return true;
  }

  /** Counts a card out whose inventory was already taken (by a round sharing `inventory`). */
  countOut(): void {
    this.dealt++;
    if (this.burnsLeft > 0 && this.roundsThisShoe === 0) this.burnsLeft--;
    // The cut card sits before card `cutAt`: it shows when that card is drawn.
    if (this.dealt > this.cutAt && !this.cutSeen) this.cutSeen = true;
  }

  /** The next card of a seeded shoe, without taking it out. */
  peek(): Card {
    const c = this.order[this.dealt];
    if (!c) throw new RangeError('the shoe is empty');
    return c;
  }

  /** The card-reading shoe reports the cut card itself (live path). */
  cutCardOut(): void {
    this.cutSeen = true;
  }

  /** Whether the round about to start / in progress is announced as the last of the shoe (rule 11). */
  get lastRound(): boolean {
    return this.cutSeen && this.rules.shuffler === 'manual';
  }

  /** A round ended. Decides whether the next step is a shuffle. */
  roundEnded(opts: { dealerWantsShuffle?: boolean } = {}): void {
    this.roundsThisShoe++;
    if (this.rules.shuffler === 'continuous') {
      // Rules 58–59 / Art. 2 n.2 (4): the cards go back into the shuffler after each round.
      this.inventory = new ShoeInventory(this.rules.decks);
      if (this.order.length > 0) this.needShuffle = true;
      return;
    }
    if (this.cutSeen) {
      if (!this.lastRoundAnnounced) this.lastRoundAnnounced = true;
      this.needShuffle = true;
    }
    // Macau Art. 2 n.2 (2): the dealer may shuffle after any round.
    if (opts.dealerWantsShuffle) this.needShuffle = true;
  }

  /** Cards left before the cut card (for the dealer display). */
  cardsToCut(): number | undefined {
    return Number.isFinite(this.cutAt) ? Math.max(0, this.cutAt - this.dealt) : undefined;
  }

  /** The live shoe's position as plain data (refused for a seeded shoe, whose order is not kept). */
  snapshot(): BlackjackShoeSnapshot {
    if (this.order.length > 0) throw new RangeError('a seeded shoe is not snapshotted: replay it from its seed');
    return {
      dealt: this.dealt,
      burnsLeft: this.burnsLeft,
      cutSeen: this.cutSeen,
      lastRoundAnnounced: this.lastRoundAnnounced,
      roundsThisShoe: this.roundsThisShoe,
      needShuffle: this.needShuffle,
      cutAt: Number.isFinite(this.cutAt) ? this.cutAt : null,
      out: this.inventory.counts(),
    };
  }

  /** A live shoe at the position `snapshot` gave. */
  static restore(rules: BlackjackRules, s: BlackjackShoeSnapshot): BlackjackShoe {
    const shoe = new BlackjackShoe(rules);
    shoe.dealt = s.dealt;
    shoe.burnsLeft = s.burnsLeft;
    shoe.cutSeen = s.cutSeen;
    shoe.lastRoundAnnounced = s.lastRoundAnnounced;
    shoe.roundsThisShoe = s.roundsThisShoe;
    shoe.needShuffle = s.needShuffle;
    shoe.cutAt = s.cutAt ?? Infinity;
    shoe.inventory = ShoeInventory.fromCounts(rules.decks, s.out);
    return shoe;
  }

  describe(): string {
    return `${this.dealt} card(s) out of ${this.size}${this.cutSeen ? ', cut card out' : ''}${this.order.length > 0 ? `, next ${this.order[this.dealt] ? cardCode(this.order[this.dealt] as Card) : '—'}` : ''}`;
  }
}
