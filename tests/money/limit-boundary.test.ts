import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { credit, testTable } from '../../host/testing/table-kit.js';

// Issue 15, "Done when": each limit at the money boundary, at the live table's bet placement (the
// refusal the station shows): one unit over the maximum, one unit off Portugal's multiple of the
// minimum (rule 14), and the values exactly at each limit taken.

describe('bet limits at the unit boundary', () => {
  it('Macau 2009: the maximum on a spot is taken exactly and refused one unit over it', () => {
    const t = testTable({ game: 'blackjack', config: { limits: { min: 1000, max: 100_000 } } });
    try {
      credit(t.ledger, 1, 200_000);
      const over = t.table.commands.placeBet(1, { bet: 'main' }, 100_001);
      assert.equal(!over.ok && over.refusal, 'over-max');
      assert.deepEqual(t.table.commands.placeBet(1, { bet: 'main' }, 100_000), { ok: true });
      // Chips stack on the spot: one more unit passes the maximum.
      const more = t.table.commands.placeBet(1, { bet: 'main' }, 1);
      assert.equal(!more.ok && more.refusal, 'over-max');
      assert.deepEqual(t.table.reads.station(1).betting.bets, [{ bet: 'main', amount: 100_000 }]);
    } finally {
      t.close();
    }
  });

  it('the minimum of a spot: one unit under it is refused at placement (not taken, then left unplayed), nothing moved; the minimum is taken', () => {
    const t = testTable({ game: 'baccarat', config: { limits: { min: 1000, max: 100_000 } } });
    try {
      credit(t.ledger, 1, 200_000);
      for (const amount of [999, 1]) {
        const under = t.table.commands.placeBet(1, { bet: 'banker' }, amount);
        assert.equal(!under.ok && under.refusal, 'under-min', `${amount}`);
        assert.match(!under.ok ? under.reason : '', /under the minimum of 1000 on banker/);
      }
      assert.deepEqual(t.table.reads.station(1).betting.bets, [], 'nothing on the spot');
      assert.equal(t.ledger.credit(1), 200_000, 'nothing moved');
      assert.deepEqual(t.table.commands.placeBet(1, { bet: 'banker' }, 1000), { ok: true });
      // A spot at its minimum takes more chips, of any size within the maximum.
      assert.deepEqual(t.table.commands.placeBet(1, { bet: 'banker' }, 1), { ok: true });
      assert.deepEqual(t.table.reads.station(1).betting.bets, [{ bet: 'banker', amount: 1001 }]);
    } finally {
      t.close();
    }
  });

  it('Portugal rule 14: a 1001 and a 1 unit bet at a minimum of 1000 are refused naming the rule; 1000 and 30 × 1000 (rule 37) are taken', () => {
    const t = testTable({ game: 'blackjack', config: { profile: 'portugal-2001', limits: { min: 1000, max: 30_000 } } });
    try {
      credit(t.ledger, 1, 100_000);
      for (const amount of [1001, 1, 29_999]) {
        const r = t.table.commands.placeBet(1, { bet: 'main' }, amount);
        assert.equal(!r.ok && r.refusal, 'not-a-multiple', `${amount}`);
        assert.match(!r.ok ? r.reason : '', /portugal-2001 rule 14/);
      }
      assert.deepEqual(t.table.commands.placeBet(1, { bet: 'main' }, 1000), { ok: true });
      assert.deepEqual(t.table.commands.placeBet(1, { bet: 'main' }, 29_000), { ok: true });
      assert.deepEqual(t.table.reads.station(1).betting.bets, [{ bet: 'main', amount: 30_000 }]);
    } finally {
      t.close();
    }
  });
});
