import type { CardFace, StationRecallRound } from '../../../protocol/index.js';

/** Where a recorded card went, as a hand of the replay: the dealer, baccarat's sides, or a seat's hand. */
export interface ReplayHand {
  key: string;
  owner: 'dealer' | 'banker' | 'player' | 'seat';
  seat?: number;
  hand: number;
  cards: CardFace[];
}

/** Parses a recorded card's destination (`dealer`, `banker`, `seat:3:hand:1`, `seat:3`, `seat:3:war`, `burn`). */
export function destination(to: string): { owner: ReplayHand['owner']; seat?: number; hand: number } | null {
  if (to === 'dealer' || to === 'banker' || to === 'player') return { owner: to, hand: 0 };
  const m = /^seat:(\d+)(?::hand:(\d+)|:(war))?$/.exec(to);
  if (!m) return null;
  return { owner: 'seat', seat: Number(m[1]), hand: m[2] !== undefined ? Number(m[2]) : m[3] ? 1 : 0 };
}

/**
 * The hands of a recorded round after its first `count` cards, for the replay: the dealer's (or
 * banker's and player's) and the given seat's own; burns and other seats' cards are left out.
 */
export function replayHands(round: StationRecallRound, seat: number, count: number): ReplayHand[] {
  const hands = new Map<string, ReplayHand>();
  for (const c of round.cards.slice(0, count)) {
    const d = destination(c.to);
    if (!d || (d.owner === 'seat' && d.seat !== seat)) continue;
    const key = d.owner === 'seat' ? `seat:${d.seat}:${d.hand}` : d.owner;
    let h = hands.get(key);
    if (!h) {
      h = { key, owner: d.owner, ...(d.seat !== undefined ? { seat: d.seat } : {}), hand: d.hand, cards: [] };
      hands.set(key, h);
    }
    h.cards.push(c.card);
  }
  const order = (h: ReplayHand) => (h.owner === 'dealer' ? 0 : h.owner === 'player' ? 1 : h.owner === 'banker' ? 2 : 3 + h.hand);
  return [...hands.values()].sort((a, b) => order(a) - order(b));
}

/** How many of the round's cards the replay shows: the ones that land on a shown hand. */
export function replayCardCount(round: StationRecallRound, seat: number): number {
  return round.cards.filter((c) => {
    const d = destination(c.to);
    return d !== null && (d.owner !== 'seat' || d.seat === seat);
  }).length;
}

/** The index, in the full card list, of the n-th card the replay shows. */
export function shownCardIndex(round: StationRecallRound, seat: number, n: number): number {
  let seen = 0;
  for (let i = 0; i < round.cards.length; i++) {
    const d = destination(round.cards[i]!.to);
    if (d === null || (d.owner === 'seat' && d.seat !== seat)) continue;
    if (++seen === n) return i + 1;
  }
  return round.cards.length;
}
