import type { MessageKey } from './i18n.js';

// Where a dealt card went, as the engines write it into the journal (`to` of a round's card):
// `burn`, `dealer`, `banker`, `player`, `seat:<n>` (casino war), `seat:<n>:war` (the war's card) and
// `seat:<n>:hand:<h>` (blackjack, hands counted from 0). A recall page says it in the reader's
// language; a place this version does not know (a newer engine's) is shown as it was recorded.

/** A place's words: a key of the catalogues' `cardPlace` section and its numbers (the seat, the hand). */
export interface PlaceSaid {
  readonly key: MessageKey;
  readonly values: Readonly<Record<string, number>>;
}

/** The places named by a word alone. */
function named(to: string): MessageKey | null {
  switch (to) {
    case 'burn':
      return 'cardPlace.burn';
    case 'dealer':
      return 'cardPlace.dealer';
    case 'banker':
      return 'cardPlace.banker';
    case 'player':
      return 'cardPlace.player';
    default:
      return null;
  }
}

/** A seat or hand number as written by the engines: decimal, no sign, no leading zero, small. */
function count(text: string | undefined): number | null {
  if (text === undefined || !/^(0|[1-9][0-9]{0,3})$/.test(text)) return null;
  return Number(text);
}

/** The words' key and values for a card's place, or null when the place is not one the engines write. */
export function cardPlaceSaid(to: string): PlaceSaid | null {
  const word = named(to);
  if (word !== null) return { key: word, values: {} };
  const parts = to.split(':');
  if (parts[0] !== 'seat') return null;
  const seat = count(parts[1]);
  if (seat === null) return null;
  if (parts.length === 2) return { key: 'cardPlace.seat', values: { seat } };
  if (parts.length === 3 && parts[2] === 'war') return { key: 'cardPlace.seatWar', values: { seat } };
  const hand = count(parts[3]);
  if (parts.length === 4 && parts[2] === 'hand' && hand !== null) return { key: 'cardPlace.seatHand', values: { seat, hand: hand + 1 } };
  return null;
}
