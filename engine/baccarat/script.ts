/**
 * A scripted baccarat coup: seats with their bets and the coup's cards in shoe order, played
 * through the tableau and settled. Used by the round runner (disputes, inspectors, tests) and
 * by anything that replays a recorded coup. The input's shape is checked by the caller; this
 * checks what only the game knows: cards, the shoe's copies, too few or left-over cards.
 */
import { cardCode, parseCard, type Card } from '../cards/card.js';
import { ShoeInventory } from '../cards/shoe.js';
import type { SettlementLine } from '../settlement/settlement-line.js';
import type { BaccaratProfile } from './profiles.js';
import { BACCARAT_BETS, settleBaccaratSeat, type BaccaratBets } from './settle.js';
import { coupResult, dealCard, EMPTY_COUP, nextExpected, type CoupCards, type Side, type Winner } from './tableau.js';

export class ScriptError extends Error {}

export interface BaccaratScript {
  readonly seats: readonly { readonly seat: number; readonly bets: BaccaratBets }[];
  readonly cards: readonly string[];
}

export interface SeatTotal {
  readonly seat: number;
  readonly staked: number;
  readonly net: number;
}

export interface BaccaratScriptOutput {
  readonly game: 'baccarat';
  readonly rules: string;
  /** Same shape as the blackjack runner's hands, named by side instead of seat. */
  readonly hands: { hand: Side; cards: string[]; total: number }[];
  readonly result: { winner: Winner; natural: boolean; playerPair: boolean; bankerPair: boolean };
  readonly settlements: SettlementLine[];
  readonly totals: SeatTotal[];
}

/** Parses card codes, refusing more copies of a card than the shoe's decks hold. */
export function scriptCards(codes: readonly string[], decks: number): Card[] {
  const inventory = new ShoeInventory(decks);
  return codes.map((code, i) => {
    let c: Card;
    try {
      c = parseCard(code);
    } catch (e) {
      throw new ScriptError(`cards[${i}]: ${(e as Error).message}`);
    }
    if (!inventory.take(c)) throw new ScriptError(`cards[${i}]: a ${decks}-deck shoe has only ${decks} × ${cardCode(c)}`);
    return c;
  });
}

export function seatTotals(seats: readonly { seat: number }[], lines: readonly SettlementLine[]): SeatTotal[] {
  return seats.map((s) => {
    let staked = 0;
    let net = 0;
    for (const l of lines) {
      if (l.seat !== s.seat) continue;
      staked += l.stake;
      net += l.net;
    }
    return { seat: s.seat, staked, net };
  });
}

export function runBaccaratScript(profile: BaccaratProfile, input: BaccaratScript): BaccaratScriptOutput {
  if (input.seats.length === 0) throw new ScriptError('no seat has a bet');
  const seen = new Set<number>();
  for (const s of input.seats) {
    if (!Number.isInteger(s.seat) || s.seat < 1) throw new ScriptError(`seat numbers are integers from 1, got ${s.seat}`);
    if (seen.has(s.seat)) throw new ScriptError(`seat ${s.seat} appears twice`);
    seen.add(s.seat);
    for (const [bet, v] of Object.entries(s.bets)) {
      if (!(BACCARAT_BETS as readonly string[]).includes(bet)) throw new ScriptError(`seat ${s.seat}: unknown bet "${bet}" (${BACCARAT_BETS.join(', ')})`);
      if (v !== undefined && (!Number.isSafeInteger(v) || v < 0)) throw new ScriptError(`seat ${s.seat} ${bet}: stakes are whole minor units ≥ 0, got ${v}`);
      // «6 Sortudo» is settled only where the table offers it (`--set lucky6=true` with its reference).
      if (bet === 'lucky6' && v !== undefined && v > 0 && !profile.lucky6)
        throw new ScriptError(`seat ${s.seat}: lucky6 is not offered under this profile (set lucky6=true with the authorisation reference)`);
    }
    if (!Object.values(s.bets).some((v) => v !== undefined && v > 0)) throw new ScriptError(`seat ${s.seat} has no bet`);
  }
  const cards = scriptCards(input.cards, profile.decks);
  let coup: CoupCards = EMPTY_COUP;
  let used = 0;
  for (let next = nextExpected(coup); next !== null; next = nextExpected(coup)) {
    const c = cards[used];
    if (c === undefined) throw new ScriptError(`too few cards: ${cards.length} given, the coup expects ${next.to} card ${next.position} next`);
    coup = dealCard(coup, c);
    used++;
  }
  if (used < cards.length) {
    throw new ScriptError(`${cards.length - used} card(s) left over after the coup completed with ${used}: ${input.cards.slice(used).join(' ')}`);
  }
  const r = coupResult(coup);
  const settlements = input.seats.flatMap((s) => settleBaccaratSeat(s.seat, s.bets, r, profile));
  return {
    game: 'baccarat',
    rules: profile.id,
    hands: [
      { hand: 'player', cards: r.player.map(cardCode), total: r.playerTotal },
      { hand: 'banker', cards: r.banker.map(cardCode), total: r.bankerTotal },
    ],
    result: { winner: r.winner, natural: r.natural, playerPair: r.playerPair, bankerPair: r.bankerPair },
    settlements,
    totals: seatTotals(input.seats, settlements),
  };
}
