// Builders of realistic entries for tests and benchmarks (not used by the kiosk itself).
import { RANKS, SUITS } from '../cards/card.js';
import type { NewEntry } from './entries.js';

/** A deterministic card code for position i (tests do not need a real shoe here). */
export function cardAt(i: number): string {
  return `${RANKS[i % 13] ?? 'A'}${SUITS[Math.floor(i / 13) % 4] ?? 'S'}`;
}

export function billCredit(station: number, denomination: number, txId: string, currency = 'HKD'): NewEntry {
  return { type: 'bill.credit', txId, payload: { station, device: `ba-${station}`, denomination, currency } };
}

export function bet(station: number, roundId: string, amount: number, txId: string, seat = station, name = 'main'): NewEntry {
  return { type: 'bet.place', txId, payload: { station, roundId, tableId: 'T1', bets: [{ seat, bet: name, amount }] } };
}

/**
 * A settled blackjack round for `stations` (one seat each, seat = station), each staking
 * `stake`; station s's outcome cycles win (3:2 blackjack), lose, push, win 1:1, surrender.
 * Each line's net and citation are what the engine writes for that result under Macau 2009
 * (engine/blackjack/refs.ts, settle/main-bet.ts mainNet): typed here, as the ledger imports no
 * engine value, and held to the engine's by tests/engine/ledger-fixture-citations.test.ts.
 */
export function settledRound(roundId: string, stations: readonly number[], stake: number, offset = 0): { bets: NewEntry[]; settle: NewEntry } {
  const bets = stations.map((s) => bet(s, roundId, stake, `${roundId}:bet:${s}`));
  const outcomes: [number, string][] = [
    // Art. 10 n.2 «ganha uma vez e meia»; a fraction of a unit goes to the player, as the engine pays it.
    [Math.ceil((stake * 3) / 2), 'macau-2009 art.10 n.2'],
    [-stake, 'macau-2009 art.9'],
    [0, 'macau-2009 art.11 n.1 2)'],
    [stake, 'macau-2009 art.9'],
    [0 - Math.floor(stake / 2), 'macau-2009 art.18 n.1'],
  ];
  const cards: { card: string; to: string }[] = [];
  let c = offset;
  for (let round = 0; round < 2; round++) {
    for (const s of stations) cards.push({ card: cardAt(c++), to: `seat:${s}` });
    cards.push({ card: cardAt(c++), to: 'dealer' });
  }
  cards.push({ card: cardAt(c), to: 'dealer' });
  const settle: NewEntry = {
    type: 'round.settle',
    txId: `${roundId}:settle`,
    payload: {
      roundId,
      tableId: 'T1',
      game: 'blackjack',
      profile: 'macau-2009',
      shoeId: 'shoe-1',
      cards,
      decisions: stations.map((s) => ({ seat: s, station: s, action: 'stand' })),
      lines: stations.map((s, i) => {
        const [net, rule] = outcomes[(i + offset) % outcomes.length] ?? [0, 'push'];
        return { station: s, seat: s, bet: 'main', stake, net, rule };
      }),
    },
  };
  return { bets, settle };
}
