import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StationTransfer } from '../../../protocol/index.js';
import { defaultMove, mergeTransfers, moveAmounts, stepMove } from './move-amounts.js';

describe('the amount a station moves to a table (issue 54)', () => {
  it("steps by the table's chips (1-2-5 of its minimum) up to the credit at home, the whole credit last", () => {
    assert.deepEqual(moveAmounts(10_000, 123_450), [10_000, 20_000, 50_000, 100_000, 123_450]);
    assert.deepEqual(moveAmounts(10_000, 100_000), [10_000, 20_000, 50_000, 100_000]);
    assert.deepEqual(moveAmounts(10_000, 9_999), [], 'less than the minimum bet at home: nothing to move');
    assert.deepEqual(moveAmounts(500, 1_000_000).slice(0, 4), [500, 1_000, 2_500, 5_000]);
  });

  it('offers five minimum bets first (or the most home holds under it), and steps from any amount', () => {
    const a = moveAmounts(10_000, 123_450);
    assert.equal(defaultMove(a, 10_000), 50_000);
    assert.equal(defaultMove(moveAmounts(10_000, 30_000), 10_000), 30_000);
    assert.equal(stepMove(a, 50_000, 1), 100_000);
    assert.equal(stepMove(a, 100_000, 1), 123_450);
    assert.equal(stepMove(a, 123_450, 1), 123_450, 'never past the credit at home');
    assert.equal(stepMove(a, 10_000, -1), 10_000, 'never under the minimum');
    assert.equal(stepMove(a, 70_000, 1), 100_000, 'from between two steps, up to the next');
    assert.equal(stepMove(a, 70_000, -1), 50_000, 'and down to the one before');
    assert.equal(stepMove([], 50_000, 1), 0);
  });
});

describe("a station's transfers across the tables it follows", () => {
  const t = (serial: number, phase: StationTransfer['phase'], at?: string): StationTransfer => ({
    id: { origin: 'bac-1', serial },
    from: 'bac-1',
    to: 'bj-1',
    amount: 50_000,
    phase,
    ...(at ? { at } : {}),
  });

  it("lists each once, newest first, with the sender's word on it and a time from either end", () => {
    const home = {
      station: 101,
      home: 'bac-1',
      table: 'bac-1',
      transfers: [t(2, 'in-flight', '2026-11-26T10:00:05Z'), t(1, 'completed', '2026-11-26T09:00:00Z')],
    };
    const away = {
      station: 101,
      home: 'bac-1',
      table: 'bj-1',
      transfers: [t(1, 'completed', '2026-11-26T09:00:01Z'), t(3, 'completed', '2026-11-26T11:00:00Z')],
    };
    const merged = mergeTransfers([away, home, undefined]);
    assert.deepEqual(
      merged.map((m) => [m.id.serial, m.phase, m.at]),
      [
        [3, 'completed', '2026-11-26T11:00:00Z'],
        [2, 'in-flight', '2026-11-26T10:00:05Z'],
        [1, 'completed', '2026-11-26T09:00:00Z'],
      ],
    );
    // The receiver says "completed" of a transfer its sender has since seen returned: the sender is believed.
    const returned = { ...home, transfers: [t(4, 'reversed', '2026-11-26T12:00:00Z')] };
    const taken = { ...away, transfers: [t(4, 'completed')] };
    assert.equal(mergeTransfers([taken, returned])[0]?.phase, 'reversed');
  });
});
