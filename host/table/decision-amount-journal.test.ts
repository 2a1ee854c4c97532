// A station is an untrusted peer: a `decide` command may carry an `amount` the protocol lets through
// (any positive whole number) that the decision does not take: an insurance over the largest the
// article allows (the engine insures the largest), a stand that stakes nothing. The journal's
// `round.decision` is the record of what the player decided: it names the amount the decision put
// into play, never the number the screen sent.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import type { JournalEntry } from '../../ledger/index.js';
import { stationView } from '../../protocol/index.js';
import { credit, submitted, testTable, type TestTable } from '../testing/table-kit.js';

const PEEK = { profileOptions: { dealProcedure: 'macau-3', holeCard: 'peek' }, profileAuthorisation: 'DICJ-TEST-1' };

function open(): TestTable {
  const t = testTable({ game: 'blackjack', config: PEEK });
  credit(t.ledger, 1, 100_000);
  for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
  return t;
}

function decisions(t: TestTable): Record<string, unknown>[] {
  return [...t.ledger.entries()]
    .filter((e: JournalEntry) => e.type === 'round.decision')
    .map((e) => (JSON.parse(e.body) as { payload: Record<string, unknown> }).payload);
}

/** The screen's `decide`, as the product takes it (the hub's commands, against the view's version). */
function decide(t: TestTable, action: 'insurance' | 'decline-insurance' | 'stand', amount?: number) {
  const view = stationView(1);
  return submitted(t.hub.commands.submit(view, t.hub.version(view), { name: 'decide', action, ...(amount !== undefined ? { amount } : {}) }));
}

describe("a decision's amount in the journal is what the decision took, not what the screen sent", () => {
  it('an insurance over its maximum is refused naming the range and the article (Art. 12 n.1), nothing taken; one within it is journalled at its amount', () => {
    const t = open();
    try {
      assert.deepEqual(t.table.commands.placeBet(1, { bet: 'main' }, 20_000), { ok: true });
      t.clock.runOut(t.table.reads.view().endsAt);
      for (const c of '5S AH 6D 9C'.split(' ')) t.table.shoe.onCard(parseCard(c));
      assert.ok(t.table.reads.station(1).decision?.legal.includes('insurance'));
      const before = t.ledger.credit(1);
      for (const amount of [5_000_000_000, 20_001]) {
        const r = decide(t, 'insurance', amount);
        assert.equal(r.ok, false, `an insurance of ${amount} on a bet of 20,000 was taken`);
        assert.equal(!r.ok && r.error.refusal, 'illegal-action');
        assert.match(!r.ok ? r.error.detail : '', /from 10000 to 20000 .*art\.12 n\.1/);
      }
      assert.equal(t.ledger.credit(1), before, 'nothing taken');
      assert.deepEqual(decisions(t), [], 'nothing journalled');
      assert.ok(t.table.reads.station(1).decision?.legal.includes('insurance'), 'the offer is still due');
      assert.equal(decide(t, 'insurance', 15_000).ok, true);
      assert.equal(before - t.ledger.credit(1), 15_000);
      assert.equal(decisions(t).find((d) => d.action === 'insurance')?.amount, 15_000, 'the journal names the insurance taken');
    } finally {
      t.close();
    }
  });

  it('a stand or a declined insurance sent with an amount is refused (only an insurance names one); without it, taken, and journalled with none', () => {
    const t = open();
    try {
      assert.deepEqual(t.table.commands.placeBet(1, { bet: 'main' }, 20_000), { ok: true });
      t.clock.runOut(t.table.reads.view().endsAt);
      for (const c of '5S AH 6D 9C'.split(' ')) t.table.shoe.onCard(parseCard(c));
      const before = t.ledger.credit(1);
      const refused = decide(t, 'decline-insurance', 777);
      assert.equal(!refused.ok && refused.error.refusal, 'illegal-action', 'a declined insurance naming 777');
      assert.equal(decide(t, 'decline-insurance').ok, true);
      assert.ok(t.table.reads.station(1).decision?.legal.includes('stand'));
      const stand = decide(t, 'stand', 999);
      assert.equal(!stand.ok && stand.error.refusal, 'illegal-action', 'a stand naming 999');
      assert.ok(t.table.reads.station(1).decision?.legal.includes('stand'), 'the decision is still due');
      assert.equal(decide(t, 'stand').ok, true);
      assert.equal(t.ledger.credit(1), before, 'nothing was staked');
      assert.deepEqual(
        decisions(t).map((d) => [d.action, d.amount]),
        [
          ['decline-insurance', undefined],
          ['stand', undefined],
        ],
      );
    } finally {
      t.close();
    }
  });
});
