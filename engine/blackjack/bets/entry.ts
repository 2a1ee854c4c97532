import type { Card } from '../../cards/card.js';
import type { BetEntry } from '../../table/bet-catalogue.js';
import type { BetId } from '../../table/vocabulary.js';
import type { BlackjackRules } from '../rules.js';
import type { Citation } from './citation.js';

/**
 * What decides a bet of the first cards: the seat's first two cards; the card dealt to the first
 * hand of a split of those two (a third seven, Art. 13 2)(2)); the hands a split formed again
 * into a pair (Art. 13 1)(2)), by index.
 */
export interface FirstCards {
  readonly first: Card;
  readonly second: Card;
  readonly afterSplit?: Card;
  readonly splitPairs: readonly number[];
}

/** An additional bet's id: any bet but the main one. */
export type SideBetId = Exclude<BetId, 'main'>;

/** One settlement line of a bet of the first cards, for one bettor's stake. */
export interface FirstCardsLine {
  readonly hand: number;
  readonly stake: number;
  readonly net: number;
  readonly citation: Citation;
}

interface BlackjackBet extends BetEntry<BlackjackRules> {
  /**
   * The subparagraph of Art. 13 that lets a station place the bet on another seat's hand (`1)`:
   * «qualquer par» "de uma ou mais mãos de qualquer jogador"); absent: on its own seat only.
   */
  readonly onOtherSeats?: string;
  /**
   * The subparagraph says only when the bet is placed («antes da distribuição da primeira carta de
   * qualquer mão»: 2), 3)), not that another player's hand may carry it: on another seat's hand by
   * our reading of «qualquer mão», and the table's rule says so.
   */
  readonly onOtherSeatsByReading?: true;
  /**
   * A void round (Macau Art. 5 n.1 2), a supervisor's void): its stake is returned, or (the winning
   * streak) its markers stay where they were before the round.
   */
  readonly onVoid: 'returned' | 'markers-kept';
}

/**
 * An additional bet decided by a seat's first cards (Macau 2009 Art. 13 1)–4)): the round
 * settles it for the seat and for every bettor on the hand, returns it when the round is void,
 * the simulator tabulates it and the exact calculator enumerates it, all from `settle`.
 */
export interface FirstCardsBet extends BlackjackBet {
  readonly id: SideBetId;
  readonly family: 'first-cards';
  /**
   * Where its lines come among a seat's additional bets when they are settled and journalled
   * (Art. 13's order: any pair, sevens, over/under, perfect pairs). A journal's order never
   * changes (recovery compares it): a new bet takes the next number.
   */
  readonly settleOrder: number;
  /** The lines of one bettor's stake. The first is the stake's own (hand 0); more lines add prizes with stake 0. */
  settle(cards: FirstCards, stake: number, rules: BlackjackRules): readonly FirstCardsLine[];
  /**
   * Its exact house edge in percent off a full shoe of `decks` decks, where a closed form is
   * published; without it the exact calculator enumerates every first two cards through `settle`.
   */
  exact?(decks: number, rules: BlackjackRules): number;
}

/**
 * A bet whose settlement is its family's own code: the main bet (the hands, engine/blackjack/
 * settle/main.ts), the winning streak over rounds (settle/streak.ts), the progressive jackpot
 * (settle/jackpot.ts).
 */
export interface FamilyBet extends BlackjackBet {
  readonly family: 'main' | 'streak' | 'jackpot';
}

export type BlackjackBetEntry = FirstCardsBet | FamilyBet;

/** An entry, its id kept as the literal it is (the catalogue's ids type the round's bets). */
export function firstCardsBet<const Id extends SideBetId>(e: FirstCardsBet & { readonly id: Id }): FirstCardsBet & { readonly id: Id } {
  return e;
}
export function familyBet<const Id extends BetId>(e: FamilyBet & { readonly id: Id }): FamilyBet & { readonly id: Id } {
  return e;
}
