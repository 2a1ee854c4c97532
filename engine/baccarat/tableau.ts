/**
 * The punto-banco tableau (the drawing rules are not in the Macau texts on file; they are the
 * standard table every punto-banco game uses; no Macau text gives it), and the coup as a sequence of cards
 * taken one at a time: the live table reads them from the shoe, the simulator from a seeded one.
 * Dealing order P1 B1 P2 B2, then the player's third card and the banker's as the tableau says.
 */
import { isTenValue, type Card, type Rank } from '../cards/card.js';

export type Side = 'player' | 'banker';
export type Winner = Side | 'tie';

/** Baccarat points of a rank: ace 1, 2–9 face value, tens and faces 0. */
export function pointValue(rank: Rank): number {
  if (rank === 'A') return 1;
  if (isTenValue(rank)) return 0;
  return Number(rank);
}

export function handTotal(cards: readonly Card[]): number {
  let t = 0;
  for (const c of cards) t += pointValue(c.rank);
  return t % 10;
}

/** The player draws a third card on 0–5 and stands on 6–7 (8–9 are naturals, handled before). */
export function playerDraws(playerTotal: number): boolean {
  return playerTotal <= 5;
}

/**
 * Whether the banker draws, given the banker's two-card total and the point value of the
 * player's third card (`null` when the player stood). When the player stood the banker plays
 * like the player (draws on 0–5). Otherwise the banker's third-card table.
 */
export function bankerDraws(bankerTotal: number, playerThird: number | null): boolean {
  if (playerThird === null) return bankerTotal <= 5;
  switch (bankerTotal) {
    case 0:
    case 1:
    case 2:
      return true;
    case 3:
      return playerThird !== 8;
    case 4:
      return playerThird >= 2 && playerThird <= 7;
    case 5:
      return playerThird >= 4 && playerThird <= 7;
    case 6:
      return playerThird === 6 || playerThird === 7;
    default:
      return false;
  }
}

/** The cards of a coup so far, each side in the order dealt. */
export interface CoupCards {
  readonly player: readonly Card[];
  readonly banker: readonly Card[];
}

export const EMPTY_COUP: CoupCards = { player: [], banker: [] };

/** The next card the coup expects: for whom and which of that side's cards it is (1–3). */
export interface ExpectedCard {
  readonly to: Side;
  readonly position: 1 | 2 | 3;
}

/** Thrown when a card is offered to a coup that is already complete. */
export class CoupCompleteError extends Error {
  constructor() {
    super('the coup is complete: no more cards are expected');
  }
}

/** `null` when the coup is complete. This is what the table display shows the dealer. */
export function nextExpected(coup: CoupCards): ExpectedCard | null {
  const p = coup.player.length;
  const b = coup.banker.length;
  if (p + b < 4) return p === b ? { to: 'player', position: (p + 1) as 1 | 2 } : { to: 'banker', position: (b + 1) as 1 | 2 };
  const pt2 = handTotal(coup.player.slice(0, 2));
  const bt2 = handTotal(coup.banker.slice(0, 2));
  if (pt2 >= 8 || bt2 >= 8) return null;
  if (p === 2) {
    if (playerDraws(pt2)) return { to: 'player', position: 3 };
    return b === 2 && bankerDraws(bt2, null) ? { to: 'banker', position: 3 } : null;
  }
  const third = coup.player[2];
  if (b === 2 && third !== undefined && bankerDraws(bt2, pointValue(third.rank))) return { to: 'banker', position: 3 };
  return null;
}

/** Places the card where the tableau expects it. */
export function dealCard(coup: CoupCards, card: Card): CoupCards {
  const next = nextExpected(coup);
  if (next === null) throw new CoupCompleteError();
  return next.to === 'player' ? { player: [...coup.player, card], banker: coup.banker } : { player: coup.player, banker: [...coup.banker, card] };
}

export interface CoupResult {
  readonly player: readonly Card[];
  readonly banker: readonly Card[];
  readonly playerTotal: number;
  readonly bankerTotal: number;
  readonly winner: Winner;
  /** Either side had 8 or 9 on two cards. */
  readonly natural: boolean;
  /** The side's first two cards are of the same rank (K-K yes, K-Q no). */
  readonly playerPair: boolean;
  readonly bankerPair: boolean;
}

/** The result of a complete coup; throws if cards are still expected. */
export function coupResult(coup: CoupCards): CoupResult {
  const next = nextExpected(coup);
  if (next !== null) throw new Error(`the coup is not complete: ${next.to} card ${next.position} is expected`);
  const [p1, p2] = coup.player;
  const [b1, b2] = coup.banker;
  const playerTotal = handTotal(coup.player);
  const bankerTotal = handTotal(coup.banker);
  return {
    player: coup.player,
    banker: coup.banker,
    playerTotal,
    bankerTotal,
    winner: playerTotal > bankerTotal ? 'player' : bankerTotal > playerTotal ? 'banker' : 'tie',
    natural: handTotal(coup.player.slice(0, 2)) >= 8 || handTotal(coup.banker.slice(0, 2)) >= 8,
    playerPair: p1 !== undefined && p2 !== undefined && p1.rank === p2.rank,
    bankerPair: b1 !== undefined && b2 !== undefined && b1.rank === b2.rank,
  };
}

/** Plays a whole coup from cards in shoe order; returns the result and how many cards it used. */
export function playCoup(cards: readonly Card[], from = 0): { result: CoupResult; used: number } {
  let coup = EMPTY_COUP;
  let i = from;
  while (nextExpected(coup) !== null) {
    const c = cards[i];
    if (c === undefined) throw new RangeError(`the coup needs more cards than the ${cards.length - from} given`);
    coup = dealCard(coup, c);
    i++;
  }
  return { result: coupResult(coup), used: i - from };
}
