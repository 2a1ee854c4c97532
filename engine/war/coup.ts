/**
 * A coup of «Desafio ao Casino» fed one card (or one decision) at a time, so the live table can
 * take cards straight from the reading shoe and show the dealer what comes next.
 *
 * Order (Art. 5 n.2–3): one card face up to each betting seat from the left (ascending seat
 * number), then the croupier's. Then every seat that tied and may choose (Art. 7 n.4) decides:
 * surrender or war. Then each seat that went to war, in seat order: three cards burned, the
 * next to the seat, three burned, the next to the croupier (Art. 7 n.5). The text describes
 * one player's war; with several, each war is played in full in turn, the croupier drawing a
 * card for each (interpretation, docs/rules/war.md). Cards are valid face up (Art. 3): every card
 * in this game is dealt face up, so an exposed card is never a misdeal.
 *
 * The remote stations' box (`box`, docs/stadium.md) is dealt like one more seat after the seats'
 * first cards: one card the bettors on it share. After a tie each of its bettors who may choose
 * decides for its own bet, all within the same countdown; the box goes to war, after the seats'
 * wars, if any of them chose war, and its war card settles every one of those.
 */
import type { Card, Rank } from '../cards/card.js';
import type { WarProfile } from './profiles.js';

/** Ace high, then K … 2 (Art. 4). */
export function warRank(rank: Rank): number {
  switch (rank) {
    case 'A':
      return 14;
    case 'K':
      return 13;
    case 'Q':
      return 12;
    case 'J':
      return 11;
    case 'T':
      return 10;
    default:
      return Number(rank);
  }
}

export function compareCards(a: Card, b: Card): -1 | 0 | 1 {
  const d = warRank(a.rank) - warRank(b.rank);
  return d > 0 ? 1 : d < 0 ? -1 : 0;
}

export interface WarBets {
  readonly main?: number;
  readonly tie?: number;
}

export interface WarSeat {
  readonly seat: number;
  readonly bets: WarBets;
}

export type WarAction = 'war' | 'surrender';

export interface SeatWar {
  readonly seatBurns: readonly Card[];
  readonly seatCard?: Card;
  readonly croupierBurns: readonly Card[];
  readonly croupierCard?: Card;
}

/** One remote station's bets on the box. */
export interface WarBettor {
  readonly station: number;
  readonly bets: WarBets;
}

/** The remote stations' box: dealt like a seat, each bettor deciding for its own bet after a tie. */
export interface WarBox {
  readonly bettors: readonly WarBettor[];
  readonly card?: Card;
  /** Each bettor's choice after a tie, by station. */
  readonly decisions: Readonly<Record<number, WarAction>>;
  /** The stations whose decision was the timeout's default, not their own (absent: none). */
  readonly timedOut?: readonly number[];
  readonly war?: SeatWar;
}

export interface WarCoup {
  /** The remote stations' box; absent when no remote station bets. */
  readonly box?: WarBox;
  readonly options: Pick<WarProfile, 'mainBetOnTieWithTieBet' | 'warBurns'>;
  /** Betting seats in dealing order. */
  readonly seats: readonly WarSeat[];
  /** First cards, by index into `seats`. */
  readonly cards: readonly Card[];
  readonly croupier?: Card;
  readonly decisions: Readonly<Record<number, WarAction>>;
  /**
   * The seats whose decision was the timeout's default (absent: none). Art. 7 n.4 gives the player
   * the choice and says nothing of a player who does not make it, so their line cites no article.
   */
  readonly timedOut?: readonly number[];
  /** Wars in seat order, by seat number. */
  readonly wars: Readonly<Record<number, SeatWar>>;
}

export type WarExpectation =
  | { readonly kind: 'card'; readonly to: number | 'box' | 'croupier'; readonly phase: 'first' | 'war' }
  | { readonly kind: 'burn'; readonly before: number | 'box' | 'croupier'; readonly seat: number | 'box'; readonly remaining: number }
  | { readonly kind: 'decisions'; readonly seats: readonly number[] }
  /** The box's bettors who tied and still have to choose, all at once. */
  | { readonly kind: 'box-decisions'; readonly stations: readonly number[] }
  | { readonly kind: 'complete' };

export class WarInputError extends Error {}

function validStake(v: number | undefined, what: string): number {
  if (v === undefined) return 0;
  if (!Number.isSafeInteger(v) || v < 0) throw new WarInputError(`${what} must be whole minor units ≥ 0, got ${v}`);
  return v;
}

export function newWarCoup(seats: readonly WarSeat[], options: WarCoup['options'], box: readonly WarBettor[] = []): WarCoup {
  if (seats.length === 0 && box.length === 0) throw new WarInputError('no seat has a bet');
  const bettors = new Set<number>();
  for (const b of box) {
    if (bettors.has(b.station)) throw new WarInputError(`station ${b.station} appears twice on the box`);
    bettors.add(b.station);
    const main = validStake(b.bets.main, `station ${b.station} main bet`);
    const tie = validStake(b.bets.tie, `station ${b.station} tie bet`);
    if (main + tie === 0) throw new WarInputError(`station ${b.station} has no bet on the box`);
  }
  const seen = new Set<number>();
  for (const s of seats) {
    if (!Number.isInteger(s.seat) || s.seat < 1) throw new WarInputError(`seat numbers are integers from 1, got ${s.seat}`);
    if (seen.has(s.seat)) throw new WarInputError(`seat ${s.seat} appears twice`);
    seen.add(s.seat);
    const main = validStake(s.bets.main, `seat ${s.seat} main bet`);
    const tie = validStake(s.bets.tie, `seat ${s.seat} tie bet`);
    if (main + tie === 0) throw new WarInputError(`seat ${s.seat} has no bet`);
  }
  return {
    options,
    seats: [...seats].sort((a, b) => a.seat - b.seat),
    cards: [],
    decisions: {},
    wars: {},
    ...(box.length > 0 ? { box: { bettors: [...box].sort((a, b) => a.station - b.station), decisions: {} } } : {}),
  };
}

/** Whether a bettor with these bets, whose card tied the croupier's, chooses surrender or war (Art. 7 n.4). */
function mayChoose(bets: WarBets, options: WarCoup['options']): boolean {
  if (!bets.main) return false;
  return !(bets.tie && options.mainBetOnTieWithTieBet === 'returned');
}

/** Seats whose first card ties the croupier's and who must choose surrender or war. */
export function seatsToDecide(c: WarCoup): number[] {
  const croupier = c.croupier;
  if (croupier === undefined) return [];
  const out: number[] = [];
  c.seats.forEach((s, i) => {
    const card = c.cards[i];
    if (card === undefined || compareCards(card, croupier) !== 0) return;
    if (mayChoose(s.bets, c.options)) out.push(s.seat);
  });
  return out;
}

/** The box's bettors who must choose surrender or war: its card tied the croupier's (Art. 7 n.4). */
export function boxStationsToDecide(c: WarCoup): number[] {
  const box = c.box;
  if (box?.card === undefined || c.croupier === undefined || compareCards(box.card, c.croupier) !== 0) return [];
  return box.bettors.filter((b) => mayChoose(b.bets, c.options)).map((b) => b.station);
}

function warSeats(c: WarCoup): number[] {
  return seatsToDecide(c).filter((s) => c.decisions[s] === 'war');
}

/** The box plays a war when one of its bettors chose war. */
function boxAtWar(c: WarCoup): boolean {
  const box = c.box;
  return box !== undefined && boxStationsToDecide(c).some((st) => box.decisions[st] === 'war');
}

/**
 * The most cards a coup of `hands` betting hands (seats, and the box) can take: a card to each
 * and the croupier's (Art. 5 n.2), then every hand at war, each with its burns, its card, the
 * croupier's burns and the croupier's card (Art. 7 n.5). More than the cards behind the cut card
 * once two hands go to war (docs/rules/war.md, "Shoe running out inside a coup").
 */
export function longestWarCoup(hands: number, warBurns: number): number {
  return hands + 1 + hands * 2 * (warBurns + 1);
}

export function warExpected(c: WarCoup): WarExpectation {
  const first = c.cards.length;
  const seatAt = c.seats[first];
  if (seatAt !== undefined) return { kind: 'card', to: seatAt.seat, phase: 'first' };
  if (c.box && c.box.card === undefined) return { kind: 'card', to: 'box', phase: 'first' };
  if (c.croupier === undefined) return { kind: 'card', to: 'croupier', phase: 'first' };
  const pending = seatsToDecide(c).filter((s) => c.decisions[s] === undefined);
  if (pending.length > 0) return { kind: 'decisions', seats: pending };
  const box = c.box;
  const boxPending = box ? boxStationsToDecide(c).filter((st) => box.decisions[st] === undefined) : [];
  if (boxPending.length > 0) return { kind: 'box-decisions', stations: boxPending };
  const burns = c.options.warBurns;
  for (const seat of warSeats(c)) {
    const w = c.wars[seat] ?? { seatBurns: [], croupierBurns: [] };
    if (w.seatBurns.length < burns) return { kind: 'burn', before: seat, seat, remaining: burns - w.seatBurns.length };
    if (w.seatCard === undefined) return { kind: 'card', to: seat, phase: 'war' };
    if (w.croupierBurns.length < burns) return { kind: 'burn', before: 'croupier', seat, remaining: burns - w.croupierBurns.length };
    if (w.croupierCard === undefined) return { kind: 'card', to: 'croupier', phase: 'war' };
  }
  if (boxAtWar(c)) {
    const w = c.box?.war ?? { seatBurns: [], croupierBurns: [] };
    if (w.seatBurns.length < burns) return { kind: 'burn', before: 'box', seat: 'box', remaining: burns - w.seatBurns.length };
    if (w.seatCard === undefined) return { kind: 'card', to: 'box', phase: 'war' };
    if (w.croupierBurns.length < burns) return { kind: 'burn', before: 'croupier', seat: 'box', remaining: burns - w.croupierBurns.length };
    if (w.croupierCard === undefined) return { kind: 'card', to: 'croupier', phase: 'war' };
  }
  return { kind: 'complete' };
}

/** A war's cards so far with `card` placed where `e` (a burn or a war card) expects it. */
function warWith(w: SeatWar, e: Extract<WarExpectation, { kind: 'card' | 'burn' }>, card: Card): SeatWar {
  if (e.kind === 'burn') return e.before === 'croupier' ? { ...w, croupierBurns: [...w.croupierBurns, card] } : { ...w, seatBurns: [...w.seatBurns, card] };
  return e.to === 'croupier' ? { ...w, croupierCard: card } : { ...w, seatCard: card };
}

/** Takes the next card from the shoe, placing it (or burning it) where the coup expects it. */
export function warTakeCard(c: WarCoup, card: Card): WarCoup {
  const e = warExpected(c);
  if (e.kind === 'complete') throw new WarInputError('the coup is complete: no more cards are expected');
  if (e.kind === 'decisions') throw new WarInputError(`waiting for the decision of seat(s) ${e.seats.join(', ')} before any card`);
  if (e.kind === 'box-decisions') throw new WarInputError(`waiting for the decision of station(s) ${e.stations.join(', ')} on the box before any card`);
  if (e.kind === 'card' && e.phase === 'first') {
    if (e.to === 'croupier') return { ...c, croupier: card };
    if (e.to === 'box' && c.box) return { ...c, box: { ...c.box, card } };
    return { ...c, cards: [...c.cards, card] };
  }
  const seat = e.kind === 'burn' ? e.seat : (warSeats(c).find((s) => !c.wars[s]?.croupierCard) ?? 'box');
  if (seat === 'box') {
    if (!c.box) throw new WarInputError('unreachable: a box war without a box');
    return { ...c, box: { ...c.box, war: warWith(c.box.war ?? { seatBurns: [], croupierBurns: [] }, e, card) } };
  }
  return { ...c, wars: { ...c.wars, [seat]: warWith(c.wars[seat] ?? { seatBurns: [], croupierBurns: [] }, e, card) } };
}

/** Records a seat's choice after a tie (Art. 7 n.4), or the timeout's default taken for it (`timedOut`). */
export function warDecide(c: WarCoup, seat: number, action: WarAction, timedOut = false): WarCoup {
  const e = warExpected(c);
  if (e.kind !== 'decisions' || !e.seats.includes(seat)) {
    const why = seatsToDecide(c).includes(seat) ? 'has already decided' : 'has no decision to make (no tie on a main bet it may take to war)';
    throw new WarInputError(`seat ${seat} ${why}`);
  }
  if (action !== 'war' && action !== 'surrender') throw new WarInputError(`seat ${seat}: action must be "war" or "surrender", got "${String(action)}"`);
  return { ...c, decisions: { ...c.decisions, [seat]: action }, ...(timedOut ? { timedOut: [...(c.timedOut ?? []), seat] } : {}) };
}

/** Records a box bettor's choice after a tie (Art. 7 n.4), for its own bet, or the timeout's default taken for it. */
export function warDecideOnBox(c: WarCoup, station: number, action: WarAction, timedOut = false): WarCoup {
  const e = warExpected(c);
  if (e.kind !== 'box-decisions' || !e.stations.includes(station) || !c.box) {
    const why = boxStationsToDecide(c).includes(station) ? 'has already decided' : 'has no decision to make on the box';
    throw new WarInputError(`station ${station} ${why}`);
  }
  if (action !== 'war' && action !== 'surrender') throw new WarInputError(`station ${station}: action must be "war" or "surrender", got "${String(action)}"`);
  const box = { ...c.box, decisions: { ...c.box.decisions, [station]: action } };
  return { ...c, box: timedOut ? { ...box, timedOut: [...(c.box.timedOut ?? []), station] } : box };
}
