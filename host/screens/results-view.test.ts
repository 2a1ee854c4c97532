import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import { StationState, TableState, type Spot } from '../../protocol/index.js';
import { credit, testTable, submitted } from '../testing/table-kit.js';

describe('results on the screens', () => {
  it('the table sees whose line each is and which are prizes; each station sees only its own prizes', () => {
    const t = testTable({ game: 'blackjack' });
    try {
      credit(t.ledger, 1, 100_000);
      credit(t.ledger, 2, 100_000);
      for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
      const place = (station: number, spot: Spot, amount: number) =>
        submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), { name: 'place-bet', spot, amount }));
      assert.equal(place(1, { bet: 'main' }, 10_000).ok, true);
      assert.equal(place(1, { bet: 'anyPair' }, 10_000).ok, true);
      assert.equal(place(2, { bet: 'behind', seat: 1 }, 10_000).ok, true);
      t.clock.runOut(t.table.reads.view().endsAt);
      t.table.shoe.onCard(parseCard('5S')); // seat 1
      t.table.shoe.onCard(parseCard('6H')); // dealer
      t.table.shoe.onCard(parseCard('5D')); // seat 1: a pair of fives
      assert.equal(submitted(t.hub.commands.submit('station/1', t.hub.version('station/1'), { name: 'decide', action: 'stand' })).ok, true);
      t.table.shoe.onCard(parseCard('TH')); // dealer 16
      t.table.shoe.onCard(parseCard('8S')); // dealer busts
      const table = TableState.parse(t.hub.state('table'));
      assert.equal(table.round?.phase, 'results');
      const lines = table.round?.results ?? [];
      assert.deepEqual(lines.map((l) => [l.bet, l.owner, l.net, l.prize ?? null]).sort(), [
        ['anyPair', 'seat', 110_000, 'side-bet'],
        ['main', 'behind', 10_000, null],
        ['main', 'seat', 10_000, null],
      ]);
      assert.ok(!JSON.stringify(table).includes('station:2'), 'the public view does not say which station bets behind');
      const one = StationState.parse(t.hub.state('station/1'));
      const two = StationState.parse(t.hub.state('station/2'));
      assert.deepEqual(one.betting.prizes, [{ seat: 1, bet: 'anyPair', hand: 0, net: 110_000, prize: 'side-bet' }]);
      assert.equal(one.betting.roundNet, 120_000);
      assert.equal(two.betting.prizes, undefined, 'station 2 is not told of seat 1’s additional bet');
      assert.equal(two.betting.roundNet, 10_000);
    } finally {
      t.close();
    }
  });
});
