import type { TFunction } from 'i18next';
import type { HandView } from '../../../protocol/index.js';

/**
 * What is written under a hand: nothing before its first card (a seat that bet and waits for
 * cards has no total yet) or while a card is hidden; «Black Jack» for a natural, never `11/21`; a
 * soft total both ways (`7/17`) while the player could still want either, and 21 as 21.
 */
export function handTotalText(hand: Pick<HandView, 'cards' | 'total' | 'soft' | 'natural'>, t: TFunction): string {
  if (hand.total === null || hand.cards.length === 0) return '';
  if (hand.natural) return t('felt.natural');
  return hand.soft && hand.total < 21 ? t('felt.softTotal', { low: hand.total - 10, high: hand.total }) : String(hand.total);
}
