import { cardCode, type Card, type CardCode } from '../cards/card.js';
import { freshCards, shuffled } from '../cards/shoe.js';
import type { Rng } from '../random/seeded-rng.js';
import type { BlackjackRules } from './rules.js';

/**
 * The shoe between rounds: shuffle, cut card («carta branca» / «carta-aviso»), burns at the start
 * of a shoe, the last round, and the continuous shuffler. It works the same whether the cards
 * come from a seeded shuffle (simulation, tests, the automatic-shuffler model) or are read one by
 * one from the card-reading shoe (the live path): `shoeCardOut` is told of every card that leaves.
 * A shoe is plain data (`ShoeState`); each function below returns a new one.
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

/** How many of each card have left the shoe since it was shuffled. */
export type CardsOut = Readonly<Partial<Record<CardCode, number>>>;

/** A shoe's position as plain data. */
export interface ShoeState {
  readonly dealt: number;
  readonly burnsLeft: number;
  readonly cutSeen: boolean;
  readonly lastRoundAnnounced: boolean;
  readonly roundsThisShoe: number;
  readonly needShuffle: boolean;
  /** The card before which the cut card sits; null when the shoe has none (a shuffler). */
  readonly cutAt: number | null;
  readonly out: CardsOut;
  /** Cards of the current shoe in order, when it was shuffled here (seeded); absent on the live path. */
  readonly order?: readonly Card[];
}

/** A shoe waiting for its first shuffle. */
export const NEW_SHOE: ShoeState = {
  dealt: 0,
  burnsLeft: 0,
  cutSeen: false,
  lastRoundAnnounced: false,
  roundsThisShoe: 0,
  needShuffle: true,
  cutAt: null,
  out: {},
};

export const shoeSize = (rules: BlackjackRules): number => rules.decks * 52;

/** `out` with one more `card`, or null when the decks hold no more copies of it (the table goes on hold). */
export function withCardOut(out: CardsOut, decks: number, card: Card): CardsOut | null {
  const code = cardCode(card);
  const n = out[code] ?? 0;
  return n >= decks ? null : { ...out, [code]: n + 1 };
}

/** Cards behind the cut card for a shoe, or undefined when the shuffler makes it pointless. */
export function cutCardFromEnd(rules: BlackjackRules, playersAtTable: number): number | undefined {
  if (rules.shuffler !== 'manual') return undefined;
  if (rules.cutCardMiddleWithOnePlayer && playersAtTable === 1) return Math.floor(shoeSize(rules) / 2);
  return rules.cutCardFromEnd;
}

/** What the dealer must do next before (or instead of) dealing a round. */
export function shoeNext(s: ShoeState): ShoeStep {
  if (s.needShuffle) return { kind: 'shuffle', why: s.roundsThisShoe === 0 && s.dealt === 0 ? 'new shoe' : 'the cut card came out: the last round is over' };
  if (s.burnsLeft > 0) return { kind: 'burn', count: s.burnsLeft, why: 'burn at the start of the shoe (art.4 n.1 / rule 10)' };
  return { kind: 'round', firstRoundOfShoe: s.roundsThisShoe === 0, lastRound: s.cutSeen };
}

/**
 * A shuffle happened. With an `rng` the order is drawn here (seeded path); without, the cards
 * are shuffled physically and only read as they come out (live path).
 */
export function shuffledShoe(rules: BlackjackRules, playersAtTable: number, rng?: Rng): ShoeState {
  const behind = cutCardFromEnd(rules, playersAtTable);
  const b = rules.burnAtShoeStart;
  return {
    dealt: 0,
    cutSeen: false,
    lastRoundAnnounced: false,
    roundsThisShoe: 0,
    needShuffle: false,
    out: {},
    cutAt: behind === undefined ? null : shoeSize(rules) - behind,
    burnsLeft: b === 'decks' ? rules.decks : b === 'one' ? 1 : 0,
    ...(rng ? { order: shuffled(freshCards(rules.decks), rng) } : {}),
  };
}

/**
 * A card that left the shoe, dealt or burnt: null when it breaks the inventory (more copies
 * than decks), and the table goes on hold.
 */
export function shoeCardOut(rules: BlackjackRules, s: ShoeState, card: Card): ShoeState | null {
  const out = withCardOut(s.out, rules.decks, card);
  return out ? countOut({ ...s, out }) : null;
}

/** Counts a card out whose inventory was already taken (by the round it went to). */
export function countOut(s: ShoeState): ShoeState {
  const dealt = s.dealt + 1;
  const burnsLeft = s.burnsLeft > 0 && s.roundsThisShoe === 0 ? s.burnsLeft - 1 : s.burnsLeft;
  // The cut card sits before card `cutAt`: it shows when that card is drawn.
  const cutSeen = s.cutSeen || (s.cutAt !== null && dealt > s.cutAt);
  return { ...s, dealt, burnsLeft, cutSeen };
}

/** The next card of a seeded shoe, without taking it out (simulation and tests; the live path reads cards instead). */
export function peekShoe(s: ShoeState): Card {
  const c = s.order?.[s.dealt];
  if (!c) throw new RangeError('the shoe is empty');
  return c;
}

/** The card-reading shoe reports the cut card itself (live path). */
export function cutCardOut(s: ShoeState): ShoeState {
  return { ...s, cutSeen: true };
}

/** Whether the round about to start / in progress is announced as the last of the shoe (rule 11). */
export function isLastRound(rules: BlackjackRules, s: ShoeState): boolean {
  return s.cutSeen && rules.shuffler === 'manual';
}

/** A round ended. Decides whether the next step is a shuffle. */
export function roundEnded(rules: BlackjackRules, s: ShoeState, opts: { dealerWantsShuffle?: boolean } = {}): ShoeState {
  const roundsThisShoe = s.roundsThisShoe + 1;
  if (rules.shuffler === 'continuous') {
    // Rules 58–59 / Art. 2 n.2 (4): the cards go back into the shuffler after each round.
    return { ...s, roundsThisShoe, out: {}, needShuffle: s.needShuffle || (s.order?.length ?? 0) > 0 };
  }
  const cut = s.cutSeen;
  // Macau Art. 2 n.2 (2): the dealer may shuffle after any round.
  const needShuffle = s.needShuffle || cut || opts.dealerWantsShuffle === true;
  return { ...s, roundsThisShoe, needShuffle, lastRoundAnnounced: s.lastRoundAnnounced || cut };
}

/** Cards left before the cut card (for the dealer display). */
export function cardsToCut(s: ShoeState): number | undefined {
  return s.cutAt === null ? undefined : Math.max(0, s.cutAt - s.dealt);
}

export function describeShoe(rules: BlackjackRules, s: ShoeState): string {
  const next = s.order ? `, next ${s.order[s.dealt] ? cardCode(s.order[s.dealt] as Card) : '—'}` : '';
  return `${s.dealt} card(s) out of ${shoeSize(rules)}${s.cutSeen ? ', cut card out' : ''}${next}`;
}

/** The next card of a seeded shoe, taken out (simulation and tests). */
export function drawShoe(rules: BlackjackRules, s: ShoeState): { readonly shoe: ShoeState; readonly card: Card } {
  const card = peekShoe(s);
  const shoe = shoeCardOut(rules, s, card);
  if (!shoe) throw new RangeError(`${cardCode(card)}: a seeded shoe holds no more copies than its decks`);
  return { shoe, card };
}
