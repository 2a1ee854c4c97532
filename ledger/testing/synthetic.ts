// Test- and benchmark-only: a long, realistic journal built fast (many entries per transaction),
// through the ledger's own append code so that it verifies like one written live.
import { cardAt, settledRound } from '../fixtures.js';
import type { NewEntry } from '../entries.js';
import type { Ledger } from '../ledger.js';

const STATIONS = [1, 2, 3, 4, 5, 6, 7];

/**
 * The entries of one busy-table cycle: a note per station now and then (escrow, then credit), a
 * 7-seat round with its cards read and decisions as they happen, then its settlement, and now
 * and then a fault raised and cleared, a door, a service session. About 24 entries.
 */
function* cycle(i: number, escrowSeq: () => number): Generator<NewEntry, void, void> {
  const roundId = `syn-${i}`;
  if (i % 40 === 0) {
    const s = STATIONS[(i / 40) % STATIONS.length] ?? 1;
    yield { type: 'bill.escrow', payload: { station: s, device: `ba-${s}`, denomination: 100_000, currency: 'HKD' } };
    yield {
      type: 'bill.credit',
      txId: `syn-bill-${i}`,
      payload: { station: s, device: `ba-${s}`, denomination: 100_000, currency: 'HKD', escrowSeq: escrowSeq() },
    };
  }
  const { bets, settle } = settledRound(roundId, STATIONS, 1000, i);
  yield* bets;
  for (let c = 0; c < 9; c++)
    yield {
      type: 'card.read',
      payload: { tableId: 'T1', roundId, sequence: i * 16 + c, card: cardAt(i + c), to: c % 8 === 7 ? 'dealer' : `seat:${(c % 7) + 1}` },
    };
  for (const s of STATIONS.slice(0, 5)) yield { type: 'round.decision', payload: { tableId: 'T1', roundId, seat: s, station: s, action: 'stand' } };
  yield settle;
  if (i % 97 === 0) {
    yield { type: 'door.open', payload: { door: 'main' } };
    yield { type: 'door.close', payload: { door: 'main' } };
  }
  if (i % 211 === 0) yield { type: 'service.enter', payload: { who: 'tech', staff: '1001', role: 'technician' } };
  if (i % 211 === 1) yield { type: 'service.exit', payload: { who: 'tech', staff: '1001', reason: 'sign-out' } };
}

/**
 * Appends about `entries` entries to `ledger` (it stops at the end of the cycle that reaches the
 * count), `batch` to a transaction. Every station is credited first so that no bet is refused.
 */
export function appendSynthetic(ledger: Ledger, entries: number, options: { batch?: number; from?: number } = {}): number {
  const batch = options.batch ?? 5000;
  const start = ledger.headOf().seq;
  let pending: NewEntry[] = [];
  let i = options.from ?? 0;
  let escrow = 0;
  const flush = () => {
    if (pending.length) ledger.appendMany(pending);
    pending = [];
  };
  if (start === 0) {
    for (const s of STATIONS)
      pending.push({ type: 'bill.credit', txId: `syn-seed-${s}`, payload: { station: s, device: `ba-${s}`, denomination: 1_000_000, currency: 'HKD' } });
  }
  while (ledger.headOf().seq + pending.length - start < entries) {
    for (const e of cycle(i++, () => escrow)) {
      // An escrow is credited in the same batch: its seq is where it lands.
      if (e.type === 'bill.escrow') escrow = ledger.headOf().seq + pending.length + 1;
      pending.push(e);
    }
    if (pending.length >= batch) flush();
  }
  flush();
  return i;
}
