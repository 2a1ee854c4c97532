// The roads grown coup by coup (a station screen's, issue 55) against the roads laid out from
// scratch (the table display's `roadsView`): after every coup of any shoe, the same cells, ask and
// counts; and a view handed out stays as it was while the shoe goes on.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { GrowingRoads, StreakLayout } from './roads-grow.js';
import { layoutStreaks, type RoadResult } from './roads.js';
import { MAX_ROAD_COUPS, roadsView } from './roads-view.js';

const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : Math.floor(Math.random() * 0x7fffffff);

const total = fc.option(fc.integer({ min: 0, max: 9 }), { nil: undefined });
const coup: fc.Arbitrary<RoadResult> = fc
  .record({
    winner: fc.constantFrom('banker', 'player', 'tie' as const),
    playerPair: fc.boolean(),
    bankerPair: fc.boolean(),
    playerTotal: total,
    bankerTotal: total,
  })
  .map(({ playerTotal, bankerTotal, ...c }) => ({
    ...c,
    ...(playerTotal !== undefined ? { playerTotal } : {}),
    ...(bankerTotal !== undefined ? { bankerTotal } : {}),
  }));
/** Shoes with long streaks (dragon tails), runs of ties and ties first: runs of one winner, of any length. */
const shoe = fc
  .array(fc.tuple(coup, fc.integer({ min: 1, max: 9 })), { maxLength: 40 })
  .map((runs) => runs.flatMap(([c, n]) => Array.from({ length: n }, (_, i) => ({ ...c, playerPair: c.playerPair && i % 2 === 0 }))));

describe('the roads grown coup by coup (issue 55)', () => {
  it(`are the roads laid out from scratch after every coup, and a view once handed out stays as it was (seed ${SEED})`, () => {
    fc.assert(
      fc.property(shoe, (coups) => {
        const grown = new GrowingRoads('shoe-1');
        const views = coups.map((c, i) => {
          grown.add(c);
          const v = grown.view();
          assert.deepStrictEqual(v, roadsView('shoe-1', coups.slice(0, i + 1)), `after coup ${i + 1}`);
          return v;
        });
        // Every earlier view still the roads of its own coups.
        views.forEach((v, i) => assert.deepStrictEqual(v, roadsView('shoe-1', coups.slice(0, i + 1)), `the view of coup ${i + 1}, later`));
        assert.equal(grown.coups, Math.min(coups.length, MAX_ROAD_COUPS));
      }),
      { seed: SEED, numRuns: 150 },
    );
  });

  it(`lays out streaks cell by cell where they are laid out all at once, on grids of any height (seed ${SEED})`, () => {
    // Low grids make the rare cases of six rows common: a tail along the top row, a streak whose first cell a tail took.
    const streaks = fc.array(fc.integer({ min: 1, max: 9 }), { maxLength: 30 });
    fc.assert(
      fc.property(streaks, fc.integer({ min: 1, max: 6 }), (lengths, rows) => {
        const layout = new StreakLayout(rows);
        const grown = lengths.map((n) => Array.from({ length: n }, (_, i) => layout.place(i === 0)));
        const whole = layoutStreaks(
          lengths.map((n) => Array.from({ length: n }, () => 0)),
          rows,
        ).map((s) => s.map(({ x, y }) => ({ x, y })));
        assert.deepStrictEqual(grown, whole);
      }),
      { seed: SEED, numRuns: 500 },
    );
  });

  it('holds no more than the roads draw: coups past the last laid out are left out, as from scratch', () => {
    const coups: RoadResult[] = Array.from({ length: MAX_ROAD_COUPS + 12 }, (_, i) => ({
      winner: (['banker', 'banker', 'player', 'tie', 'player'] as const)[i % 5] ?? 'tie',
      playerPair: i % 7 === 0,
      bankerPair: i % 11 === 0,
      playerTotal: i % 10,
      bankerTotal: (i * 3) % 10,
    }));
    const grown = new GrowingRoads('s');
    for (const c of coups) grown.add(c);
    assert.equal(grown.coups, MAX_ROAD_COUPS);
    assert.deepStrictEqual(grown.view(), roadsView('s', coups));
    assert.equal(new GrowingRoads('empty').view().bigRoad.length, 0);
    assert.deepStrictEqual(new GrowingRoads('empty').view(), roadsView('empty', []));
  });
});
