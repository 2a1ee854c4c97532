import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { cardCode } from '../cards/card.js';
import { freshCards, shuffled } from '../cards/shoe.js';
import { Rng } from '../random/seeded-rng.js';
import { baccaratProfile } from './profiles.js';
import { runBaccaratScript, ScriptError } from './script.js';
import { playCoup } from './tableau.js';

const COMMISSION = baccaratProfile('macau-commission');

describe('scripted coups', () => {
  it('baccarat: «6 Sortudo» is settled only where the profile offers it', () => {
    const input = { seats: [{ seat: 1, bets: { lucky6: 100 } }], cards: ['TS', '2H', '5D', '4C', 'TH'] };
    assert.throws(() => runBaccaratScript(baccaratProfile('macau-commission'), input), /lucky6 is not offered under this profile/);
    const offered = { ...baccaratProfile('macau-commission'), lucky6: true };
    assert.deepEqual(
      runBaccaratScript(offered, input).settlements.map((l) => [l.bet, l.net, l.rule]),
      [['lucky6', 1200, 'macau-baccarat art.13 n.1 4)(3), art.17 n.5']],
    );
  });

  it('baccarat: plays and settles, with per-seat totals', () => {
    const out = runBaccaratScript(COMMISSION, { seats: [{ seat: 1, bets: { banker: 1000, tie: 100 } }], cards: ['2S', 'KH', '3D', '4C', '7S', '9H'] });
    assert.deepEqual(out.hands, [
      { hand: 'player', cards: ['2S', '3D', '7S'], total: 2 },
      { hand: 'banker', cards: ['KH', '4C', '9H'], total: 3 },
    ]);
    assert.deepEqual(out.totals, [{ seat: 1, staked: 1100, net: 850 }]);
  });

  it('baccarat: refuses what the game knows is wrong', () => {
    const seats = [{ seat: 1, bets: { banker: 100 } }];
    assert.throws(() => runBaccaratScript(COMMISSION, { seats, cards: ['9S', 'KH', 'KD', '4C', '7S'] }), /left over/);
    assert.throws(() => runBaccaratScript(COMMISSION, { seats, cards: ['9S', 'KH', '3D'] }), /too few cards: 3 given, the coup expects banker card 2 next/);
    assert.throws(() => runBaccaratScript(COMMISSION, { seats: [{ seat: 1, bets: { dragon: 5 } as never }], cards: [] }), /unknown bet "dragon"/);
    assert.throws(() => runBaccaratScript(COMMISSION, { seats: [{ seat: 0, bets: { banker: 5 } }], cards: [] }), ScriptError);
    assert.throws(() => runBaccaratScript(COMMISSION, { seats: [], cards: [] }), /no seat/);
  });

  it('property: any coup dealt from a shuffled shoe replays exactly as a script', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const shoe = shuffled(freshCards(8), Rng.fromSeed(seed));
        const { result, used } = playCoup(shoe);
        const out = runBaccaratScript(COMMISSION, { seats: [{ seat: 1, bets: { player: 100 } }], cards: shoe.slice(0, used).map(cardCode) });
        assert.equal(out.result.winner, result.winner);
        assert.equal(out.settlements.length, 1);
      }),
      { numRuns: 200 },
    );
  });
});
