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
 */
export function settledRound(roundId: string, stations: readonly number[], stake: number, offset = 0): { bets: NewEntry[]; settle: NewEntry } {
  const bets = stations.map((s) => bet(s, roundId, stake, `${roundId}:bet:${s}`));
  const outcomes: [number, string][] = [
    [Math.floor((stake * 3) / 2), 'macau-2009 art.10 n.1 blackjack pays 3:2'],
    [-stake, 'macau-2009 art.12 dealer higher'],
    [0, 'macau-2009 art.12 push'],
    [stake, 'macau-2009 art.12 player higher pays 1:1'],
    [-Math.floor(stake / 2), 'macau-2009 art.16 surrender half'],
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
