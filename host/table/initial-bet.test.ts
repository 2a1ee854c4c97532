// An additional bet stands beside its seat's initial bet (Macau 2009 Art. 13: "Para além da
// aposta inicial…"). Alone at the close of betting it stays credit and the station is told why;
// before this, the round refused the seat and the throw came out of the betting timer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import { verifyLedger } from '../../ledger/index.js';
import type { BetId, Spot } from '../../protocol/index.js';
import { credit, testTable, type TestTable, submitted } from '../testing/table-kit.js';

const place = (t: TestTable, station: number, spot: Spot, amount: number) =>
  submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), { name: 'place-bet', spot, amount }));

function burnShoeStart(t: TestTable) {
  for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
}

describe('additional bets without the initial bet (Macau 2009 Art. 13)', () => {
  it('leave a lone additional bet as credit with its reason, and deal the seats that have a main bet', () => {
    const t = testTable({ game: 'blackjack' });
    try {
      const side = t.table.game.rules.bets.find((b): b is Exclude<BetId, 'main' | 'behind'> => b !== 'main');
      assert.ok(side, `the default Macau 2009 table offers an additional bet (bets: ${t.table.game.rules.bets.join(', ')})`);
      credit(t.ledger, 1, 100_000);
      credit(t.ledger, 2, 100_000);
      burnShoeStart(t);
      assert.equal(place(t, 1, { bet: side }, 10_000).ok, true, 'placed: the main bet may still follow');
      assert.equal(place(t, 2, { bet: 'main' }, 10_000).ok, true);
      assert.equal(place(t, 2, { bet: side }, 10_000).ok, true);
      t.clock.runOut(t.table.reads.view().endsAt);
      assert.equal(t.table.reads.view().phase, 'dealing', 'the round started: the close did not throw');
      assert.equal(t.ledger.credit(1), 100_000, 'nothing of station 1 moved');
      assert.equal(t.ledger.credit(2), 80_000, 'station 2 staked its main and additional bets');
      const s = t.hub.state('station/1');
      assert.ok(s.kind === 'station');
      assert.deepEqual(
        (s.betting.unplayed ?? []).map((u) => [u.bet, u.amount, u.reason]),
        [[side, 10_000, 'needs-initial-bet']],
      );
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('open the next window when the only chips are lone additional bets', () => {
    const t = testTable({ game: 'blackjack' });
    try {
      const side = t.table.game.rules.bets.find((b) => b !== 'main');
      assert.ok(side);
      credit(t.ledger, 3, 50_000);
      burnShoeStart(t);
      assert.equal(place(t, 3, { bet: side } as Spot, 10_000).ok, true);
      const round = t.table.reads.view().roundId;
      t.clock.runOut(t.table.reads.view().endsAt);
      assert.equal(t.table.reads.view().phase, 'betting');
      assert.notEqual(t.table.reads.view().roundId, round, 'a new betting window');
      assert.equal(t.ledger.credit(3), 50_000);
    } finally {
      t.close();
    }
  });
});
