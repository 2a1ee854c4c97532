// The deterministic stream of kiosk operations used by the kill tests: op i always produces the
// same entries with the same transaction ids, so a restarted kiosk that repeats an operation
// (a bill acceptor re-reporting a credit after a power cut) hits idempotency, not a double credit.
import type { Ledger, NewEntry } from '../../ledger/index.js';

export function opEntries(i: number): NewEntry[] {
  const station = (Math.floor(i / 4) % 7) + 1;
  const round = `r${i - (i % 4)}`;
  switch (i % 4) {
    case 0:
      return [{ type: 'bill.credit', txId: `op${i}`, payload: { station, device: `ba-${station}`, denomination: 20000, currency: 'HKD' } }];
    case 1:
      return [{ type: 'bet.place', txId: `op${i}`, payload: { station, roundId: round, tableId: 'T1', bets: [{ seat: station, bet: 'main', amount: 1000 }] } }];
    case 2: {
      const net = [1500, -1000, 0, 1000][Math.floor(i / 4) % 4] ?? 0;
      return [
        {
          type: 'round.settle',
          txId: `op${i}`,
          payload: {
            roundId: round,
            tableId: 'T1',
            game: 'blackjack',
            profile: 'macau-2009',
            cards: [
              { card: 'AS', to: `seat:${station}` },
              { card: 'KD', to: 'dealer' },
            ],
            decisions: [],
            lines: [{ station, seat: station, bet: 'main', stake: 1000, net, rule: 'macau-2009 art.12' }],
          },
        },
      ];
    }
    default: {
      // A whole round in one transaction: bet and settlement commit together or not at all.
      const r = `${round}b`;
      return [
        { type: 'bet.place', txId: `op${i}:bet`, payload: { station, roundId: r, tableId: 'T1', bets: [{ seat: station, bet: 'main', amount: 500 }] } },
        {
          type: 'round.settle',
          txId: `op${i}`,
          payload: {
            roundId: r,
            tableId: 'T1',
            game: 'war',
            profile: 'macau-2005',
            cards: [],
            decisions: [],
            lines: [{ station, seat: station, bet: 'main', stake: 500, net: -500, rule: 'macau-2005 war' }],
          },
        },
      ];
    }
  }
}

/** Applies op i; returns false if every entry of it was already journalled. */
export function applyOp(ledger: Ledger, i: number): boolean {
  return ledger.appendMany(opEntries(i)).some((r) => r.status === 'appended');
}
