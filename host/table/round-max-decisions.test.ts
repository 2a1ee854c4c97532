// Macau 2009 Art. 5 n.2 3)(8): «O casino pode estabelecer um montante máximo total, por mesa, como
// limite para cada jogada.» The cap is on the round's total, so what a double, a split or an
// insurance puts into play counts against it as much as the bets placed before the deal (issue 33 item 8).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import { verifyLedger } from '../../ledger/index.js';
import { credit, testTable, type TestTable } from '../testing/table-kit.js';

const CAPPED = { profileOptions: { dealProcedure: 'macau-3', holeCard: 'peek' }, profileAuthorisation: 'DICJ-TEST-1' };

function open(roundMax: number): TestTable {
  const t = testTable({ game: 'blackjack', config: { roundMax, ...CAPPED } });
  credit(t.ledger, 1, 100_000);
  for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
  return t;
}

function dealt(t: TestTable, cards: string): void {
  for (const c of cards.split(' ')) t.table.shoe.onCard(parseCard(c));
}

describe("the table's maximum per round counts what the round's decisions put into play (Macau 2009 Art. 5 n.2 3)(8))", () => {
  it('a double that would take the round past the maximum is refused, naming the subparagraph; the hand plays on', () => {
    const t = open(30_000);
    try {
      assert.deepEqual(t.table.commands.placeBet(1, { bet: 'main' }, 20_000), { ok: true });
      t.clock.runOut(t.table.reads.view().endsAt);
      dealt(t, '5S 6H 6D 9C'); // seat 1: 11 against a 6; the hole card checked
      assert.ok(t.table.reads.station(1).decision?.legal.includes('double'));
      const over = t.table.commands.decide(1, 'double');
      assert.equal(!over.ok && over.refusal, 'over-round-max');
      assert.match(!over.ok ? over.reason : '', /maximum of 30000 for the round \(macau-2009 art\.5 n\.2 3\)\(8\)\)/);
      assert.equal(t.ledger.credit(1), 80_000, 'nothing more was taken');
      assert.ok(t.table.reads.station(1).decision?.legal.includes('double'), 'the decision is still due');
      assert.deepEqual(t.table.commands.decide(1, 'hit'), { ok: true });
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('a split that would take the round past the maximum is refused; the pair is played as it stands', () => {
    const t = open(30_000);
    try {
      assert.deepEqual(t.table.commands.placeBet(1, { bet: 'main' }, 20_000), { ok: true });
      t.clock.runOut(t.table.reads.view().endsAt);
      dealt(t, '8S 6H 8D 9C'); // seat 1: a pair of eights against a 6
      assert.ok(t.table.reads.station(1).decision?.legal.includes('split'));
      const over = t.table.commands.decide(1, 'split');
      assert.equal(!over.ok && over.refusal, 'over-round-max');
      assert.equal(t.ledger.credit(1), 80_000, 'nothing more was taken');
      assert.deepEqual(t.table.commands.decide(1, 'stand'), { ok: true });
    } finally {
      t.close();
    }
  });

  it('a double within the maximum is taken', () => {
    const t = open(40_000);
    try {
      assert.deepEqual(t.table.commands.placeBet(1, { bet: 'main' }, 20_000), { ok: true });
      t.clock.runOut(t.table.reads.view().endsAt);
      dealt(t, '5S 6H 6D 9C');
      assert.deepEqual(t.table.commands.decide(1, 'double'), { ok: true });
      assert.equal(t.ledger.credit(1), 60_000);
    } finally {
      t.close();
    }
  });

  it('an insurance past the maximum is refused and stays offered; within the maximum it is taken', () => {
    for (const [roundMax, taken] of [
      [25_000, false],
      [30_000, true],
    ] as const) {
      const t = open(roundMax);
      try {
        assert.deepEqual(t.table.commands.placeBet(1, { bet: 'main' }, 20_000), { ok: true });
        t.clock.runOut(t.table.reads.view().endsAt);
        dealt(t, '5S AH 6D 9C'); // an ace up: insurance is offered once the hole card is dealt (procedure 3)
        assert.ok(t.table.reads.station(1).decision?.legal.includes('insurance'));
        // Macau's insurance is half the main bet (Art. 12 n.1): 10,000 on 20,000.
        const r = t.table.commands.decide(1, 'insurance', 10_000);
        if (taken) {
          assert.deepEqual(r, { ok: true });
          assert.equal(t.ledger.credit(1), 70_000);
        } else {
          assert.equal(!r.ok && r.refusal, 'over-round-max');
          assert.equal(t.ledger.credit(1), 80_000);
          assert.ok(t.table.reads.station(1).decision?.legal.includes('decline-insurance'), 'the offer is still due');
          assert.deepEqual(t.table.commands.decide(1, 'decline-insurance'), { ok: true });
        }
      } finally {
        t.close();
      }
    }
  });
});
