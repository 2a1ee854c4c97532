// Who may act on a seat's hand and when bets are made, at the live table: Macau 2009 Art. 20 n.2
// (a player at another seat does not interfere with a seat's decisions) and Portugal rule 13
// (every bet is made before the deal begins).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import { verifyLedger } from '../../ledger/index.js';
import { credit, testTable, type TestTable } from '../testing/table-kit.js';

function burnShoeStart(t: TestTable): void {
  for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
}

describe('a seat decides its own hand; bets are made before the deal', () => {
  it('Macau 2009 Art. 20 n.2: a station at another seat cannot decide for the seat whose turn it is', () => {
    const t = testTable({ game: 'blackjack' });
    try {
      credit(t.ledger, 1, 100_000);
      credit(t.ledger, 2, 100_000);
      burnShoeStart(t);
      assert.deepEqual(t.table.commands.placeBet(1, { bet: 'main' }, 10_000), { ok: true });
      assert.deepEqual(t.table.commands.placeBet(2, { bet: 'main' }, 10_000), { ok: true });
      t.clock.runOut(t.table.reads.view().endsAt);
      for (const c of ['5S', '6S', '6H', '6D', '7D']) t.table.shoe.onCard(parseCard(c)); // seat 1: 11, seat 2: 13
      assert.ok(t.table.reads.station(1).decision?.legal.includes('double'));
      assert.equal(t.table.reads.station(2).decision, null, 'station 2 is not asked');
      for (const action of ['stand', 'hit', 'double'] as const) {
        const r = t.table.commands.decide(2, action);
        assert.equal(!r.ok && r.refusal, 'no-decision', action);
      }
      assert.equal(t.ledger.credit(2), 90_000, "station 2's credit untouched");
      assert.ok(t.table.reads.station(1).decision?.legal.includes('double'), "seat 1's decision still its own");
      assert.deepEqual(t.table.commands.decide(1, 'double'), { ok: true });
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('a move the rules leave out now is refused, its detail saying why with the article (Art. 16 n.1)', () => {
    const t = testTable({ game: 'blackjack' });
    try {
      credit(t.ledger, 1, 100_000);
      burnShoeStart(t);
      assert.deepEqual(t.table.commands.placeBet(1, { bet: 'main' }, 10_000), { ok: true });
      t.clock.runOut(t.table.reads.view().endsAt);
      for (const c of ['TS', '9H', '8D']) t.table.shoe.onCard(parseCard(c)); // seat 1: 18 against a 9
      const r = t.table.commands.decide(1, 'split');
      assert.equal(!r.ok && r.refusal, 'illegal-action');
      assert.equal(
        r.ok ? '' : r.reason,
        '"split" is not legal now: a split only of a pair of the same value (macau-2009 art.16 n.1) (legal: hit, stand, double, surrender)',
      );
      assert.equal(t.ledger.credit(1), 90_000, 'nothing taken');
      assert.deepEqual(t.table.commands.decide(1, 'stand'), { ok: true });
    } finally {
      t.close();
    }
  });

  it('war: a tie offers war or surrender only, and another move is refused naming Art. 7 n.4', () => {
    const t = testTable({ game: 'war' });
    try {
      credit(t.ledger, 1, 100_000);
      burnShoeStart(t);
      assert.deepEqual(t.table.commands.placeBet(1, { bet: 'main' }, 10_000), { ok: true });
      t.clock.runOut(t.table.reads.view().endsAt);
      for (const c of ['7S', '7D']) t.table.shoe.onCard(parseCard(c)); // seat 1 ties the croupier
      assert.deepEqual(t.table.reads.station(1).decision?.legal, ['war', 'surrender']);
      const r = t.table.commands.decide(1, 'hit');
      assert.equal(!r.ok && r.refusal, 'illegal-action');
      assert.equal(r.ok ? '' : r.reason, '"hit" is not war or surrender (macau-war [art.7] n.4)');
      assert.deepEqual(t.table.commands.decide(1, 'surrender'), { ok: true });
    } finally {
      t.close();
    }
  });

  it('Portugal rule 13: a bet is made before the deal begins; none is taken once the cards are dealt', () => {
    const t = testTable({ game: 'blackjack', config: { profile: 'portugal-2001', limits: { min: 10_000, max: 300_000 } } });
    try {
      credit(t.ledger, 1, 100_000);
      credit(t.ledger, 2, 100_000);
      burnShoeStart(t);
      assert.deepEqual(t.table.commands.placeBet(1, { bet: 'main' }, 10_000), { ok: true });
      t.clock.runOut(t.table.reads.view().endsAt);
      assert.equal(t.table.reads.view().phase, 'dealing');
      t.table.shoe.onCard(parseCard('9S'));
      for (const station of [1, 2]) {
        const late = t.table.commands.placeBet(station, { bet: 'main' }, 10_000);
        assert.equal(late.ok, false, `station ${station}`);
      }
      assert.equal(t.ledger.credit(1), 90_000);
      assert.equal(t.ledger.credit(2), 100_000);
    } finally {
      t.close();
    }
  });

  it("Macau 2009 Art. 3 n.2: the house's restriction, one seat per station: its main bet on its own seat only", () => {
    const t = testTable({ game: 'blackjack' });
    try {
      credit(t.ledger, 2, 100_000);
      burnShoeStart(t);
      const other = t.table.commands.placeBet(2, { bet: 'main', seat: 1 }, 10_000);
      assert.equal(!other.ok && other.refusal, 'not-on-other-seat');
      assert.equal(t.ledger.credit(2), 100_000);
      assert.deepEqual(t.table.commands.placeBet(2, { bet: 'main' }, 10_000), { ok: true });
    } finally {
      t.close();
    }
  });

  it('Portugal rule 24: a tie returns the stake, which the player may take back, keep or change for the next round', () => {
    const t = testTable({ game: 'blackjack', config: { profile: 'portugal-2001', limits: { min: 10_000, max: 300_000 } } });
    try {
      credit(t.ledger, 1, 100_000);
      burnShoeStart(t);
      assert.deepEqual(t.table.commands.placeBet(1, { bet: 'main' }, 10_000), { ok: true });
      t.clock.runOut(t.table.reads.view().endsAt);
      for (const c of ['9S', 'TH', '9D', '8C']) t.table.shoe.onCard(parseCard(c)); // seat 18, the dealer's 18 face down
      assert.deepEqual(t.table.commands.decide(1, 'stand'), { ok: true });
      assert.equal(t.table.reads.view().phase, 'results');
      assert.equal(t.ledger.credit(1), 100_000, 'the tie neither lost nor won: the stake is back');
      t.clock.runOut(t.table.reads.view().endsAt);
      assert.equal(t.table.reads.view().phase, 'betting');
      assert.deepEqual(t.table.reads.station(1).betting.bets, [], 'nothing stays on the spot unasked');
      assert.deepEqual(t.table.commands.placeBet(1, { bet: 'main' }, 20_000), { ok: true }, 'changed for the next round');
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });
});
