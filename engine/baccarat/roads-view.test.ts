import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../cards/card.js';
import { baccaratTableGame } from './table-game.js';
import { roadsView } from './roads-view.js';

describe('the road maps of a shoe', () => {
  it('roads and counts of the coups of a shoe', () => {
    const roads = roadsView('shoe-1', [
      { winner: 'player', playerPair: true, bankerPair: false, playerTotal: 8, bankerTotal: 6 },
      { winner: 'banker', playerPair: false, bankerPair: false, playerTotal: 5, bankerTotal: 7 },
      { winner: 'tie', playerPair: false, bankerPair: false, playerTotal: 5, bankerTotal: 5 },
    ]);
    assert.deepEqual(roads.stats, { coups: 3, banker: 1, player: 1, tie: 1, bankerPair: 0, playerPair: 1 });
    assert.equal(roads.beadPlate.length, 3);
    assert.deepEqual(
      roads.bigRoad.map((c) => [c.x, c.y, c.side, c.ties]),
      [
        [0, 0, 'player', 0],
        [1, 0, 'banker', 1],
      ],
    );
  });

  it('come from the coups the shoe dealt, and start again with a new shoe', () => {
    const g = baccaratTableGame('macau-commission');
    // The shoe-start burn: an indicator card of 1 (an ace), then one card burnt.
    let shoe = g.shoe.initial();
    for (const c of ['AS', '2C']) {
      const r = g.shoe.takeShoeCard(shoe, parseCard(c));
      assert.ok(r.ok);
      shoe = r.shoe;
    }
    assert.equal(g.shoe.shoeCue(shoe), null, 'the burn is done');
    const started = g.round.startRound(shoe, [{ seat: 1, bets: { banker: 100 }, behind: [] }]);
    shoe = started.shoe;
    let round = started.round;
    // Player 4+4 = 8, banker K+6 = 6: a natural, player wins with a pair.
    for (const c of ['4H', 'KD', '4S', '6C']) {
      const r = g.round.takeCard(shoe, round, parseCard(c));
      assert.ok(r.ok);
      shoe = r.shoe;
      round = r.round;
    }
    assert.equal(g.round.pending(shoe, round).kind, 'done');
    assert.deepEqual(
      (g.screens.coups?.(shoe) ?? []).map((c) => [c.winner, c.playerPair, c.bankerPair]),
      [['player', true, false]],
    );
    assert.deepEqual(g.screens.coups?.(g.shoe.newShoe(shoe)), []);
  });

  it('a full shoe of roads fits a snapshot many times over', () => {
    const coups = Array.from({ length: 85 }, (_, i) => ({
      winner: (['banker', 'player', 'tie'] as const)[i % 3] ?? 'tie',
      playerPair: i % 7 === 0,
      bankerPair: i % 11 === 0,
    }));
    const size = JSON.stringify(roadsView('s', coups)).length;
    assert.ok(size < 40_000, `${size} bytes`);
  });
});
