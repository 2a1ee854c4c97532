import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseCard } from '../cards/card.js';
import { playCoup } from './tableau.js';
import { askRoad, beadPlate, bigEyeBoy, bigRoad, cockroachPig, layoutStreaks, smallRoad, type Colour, type RoadResult } from './roads.js';

/** "B", "P", "T"; a trailing "p"/"b" marks a player/banker pair, e.g. "Bp". */
function shoe(s: string): RoadResult[] {
  return s
    .split(/\s+/)
    .filter(Boolean)
    .map((t) => ({
      winner: t[0] === 'B' ? 'banker' : t[0] === 'P' ? 'player' : 'tie',
      playerPair: t.includes('p'),
      bankerPair: t.includes('b'),
    }));
}
const R: Colour = 'red';
const U: Colour = 'blue';

// Worked example, done by hand from the rules in roads.ts:
// streaks B2 P1 B3 P2 B1(+tie) P7 B1, lengths [2,1,3,2,1,7,1].
const EXAMPLE = shoe('B B P B B B P P B T P P P P P P P B');

describe('road maps', () => {
  it('bead plate: every coup, ties and pairs included, down columns of six', () => {
    const bp = beadPlate(shoe('B P T Bp Pb B P'));
    assert.deepEqual(
      bp.map((c) => [c.x, c.y, c.winner[0]]),
      [
        [0, 0, 'b'],
        [0, 1, 'p'],
        [0, 2, 't'],
        [0, 3, 'b'],
        [0, 4, 'p'],
        [0, 5, 'b'],
        [1, 0, 'p'],
      ],
    );
    assert.equal(bp[3]?.playerPair, true);
    assert.equal(bp[4]?.bankerPair, true);
    assert.equal(bp[0]?.total, undefined);
  });

  it('bead plate shows the winning total when the results carry totals (coup results do)', () => {
    const coups = ['2S 3H 4D 4C', '4S 2H 5D 5C', '8S 8H KD KC'].map((s) => playCoup(s.split(' ').map(parseCard)).result);
    assert.deepEqual(
      beadPlate(coups).map((c) => [c.winner, c.total]),
      [
        ['banker', 7],
        ['player', 9],
        ['tie', 8],
      ],
    );
  });

  it('big road: streak columns, ties counted on the previous cell, leading ties kept apart', () => {
    const br = bigRoad(shoe('T T B T T P Bb T B'));
    assert.equal(br.leadingTies, 2);
    assert.deepEqual(
      br.cells.map((c) => [c.x, c.y, c.value.side[0], c.value.ties]),
      [
        [0, 0, 'b', 2],
        [1, 0, 'p', 0],
        [2, 0, 'b', 1],
        [2, 1, 'b', 0],
      ],
    );
    assert.equal(br.cells[2]?.value.bankerPair, true);
  });

  it('big road of the worked example, with a dragon tail on the seven players', () => {
    const br = bigRoad(EXAMPLE);
    assert.deepEqual(
      br.streaks.map((s) => s.length),
      [2, 1, 3, 2, 1, 7, 1],
    );
    assert.deepEqual(
      br.cells.map((c) => `${c.x},${c.y}`),
      ['0,0', '0,1', '1,0', '2,0', '2,1', '2,2', '3,0', '3,1', '4,0', '5,0', '5,1', '5,2', '5,3', '5,4', '5,5', '6,5', '6,0'],
    );
    assert.equal(br.cells[8]?.value.ties, 1, 'the tie sits on the single banker of streak 5');
  });

  it('nested dragon tails: a streak turns early above an older tail', () => {
    const br = bigRoad(shoe(`${'B '.repeat(8)} ${'P '.repeat(7)} B B P`));
    assert.deepEqual(
      br.cells.map((c) => `${c.x},${c.y}`),
      // B×8: down to row 5, then right; P×7: down to row 4 (row 5 taken), then right along row 4
      ['0,0', '0,1', '0,2', '0,3', '0,4', '0,5', '1,5', '2,5', '1,0', '1,1', '1,2', '1,3', '1,4', '2,4', '3,4', '2,0', '2,1', '3,0'],
    );
  });

  it('a streak whose first cell is taken by a tail starts further right', () => {
    // Two-row grid: B×3 turns at row 1; P×3 cannot go down at all and runs along row 0 to x=3;
    // the next banker's natural start (2,0) and (3,0) are taken, so it starts at (4,0).
    const cells = layoutStreaks([['B', 'B', 'B'], ['P', 'P', 'P'], ['B']], 2);
    assert.deepEqual(
      cells.map((s) => s.map((c) => `${c.x},${c.y}`)),
      [['0,0', '0,1', '1,1'], ['1,0', '2,0', '3,0'], ['4,0']],
    );
  });

  it('big eye boy, small road and cockroach pig of the worked example', () => {
    assert.deepEqual(bigEyeBoy(EXAMPLE).marks, [U, U, R, U, R, U, U, U, R, R, R, R, R, U]);
    assert.deepEqual(smallRoad(EXAMPLE).marks, [R, U, U, U, U, U, R, U, R, R, R, R, U]);
    assert.deepEqual(cockroachPig(EXAMPLE).marks, [R, R, R, R, R, U, R, R, R, U]);
    // drawn like a big road: streaks of one colour
    assert.deepEqual(
      bigEyeBoy(EXAMPLE).cells.map((c) => `${c.x},${c.y}`),
      ['0,0', '0,1', '1,0', '2,0', '3,0', '4,0', '4,1', '4,2', '5,0', '5,1', '5,2', '5,3', '5,4', '6,0'],
    );
  });

  it('derived roads start at streak k row 1, or streak k+1 row 0', () => {
    assert.deepEqual(bigEyeBoy(shoe('B P P')).marks, [U], 'streak 1 row 1 vs streak 0 (length 1): blue');
    assert.deepEqual(bigEyeBoy(shoe('B P B')).marks, [R], 'streak 2 row 0: lengths 1 and 1');
    assert.deepEqual(smallRoad(shoe('B P B')).marks, []);
    assert.deepEqual(smallRoad(shoe('B B P B P')).marks, [U], 'streak 3 row 0: lengths 1 (streak 2) vs 2 (streak 0)');
    assert.deepEqual(cockroachPig(shoe('B P B P')).marks, []);
    assert.deepEqual(cockroachPig(shoe('B P B P B')).marks, [R]);
  });

  it('ask road of the worked example', () => {
    assert.deepEqual(askRoad(EXAMPLE), {
      banker: { bigEyeBoy: R, smallRoad: U, cockroachPig: R },
      player: { bigEyeBoy: U, smallRoad: R, cockroachPig: U },
    });
    assert.deepEqual(askRoad([]), {
      banker: { bigEyeBoy: null, smallRoad: null, cockroachPig: null },
      player: { bigEyeBoy: null, smallRoad: null, cockroachPig: null },
    });
  });

  it('property: the ask road is what the roads show after the next result; banker and player asks are opposite', () => {
    const result = fc.constantFrom<RoadResult>(...shoe('B P T'));
    fc.assert(
      fc.property(fc.array(result, { maxLength: 80 }), (rs) => {
        const ask = askRoad(rs);
        for (const side of ['banker', 'player'] as const) {
          const next = [...rs, { winner: side, playerPair: false, bankerPair: false }];
          const roads = { bigEyeBoy: bigEyeBoy(next), smallRoad: smallRoad(next), cockroachPig: cockroachPig(next) };
          const before = { bigEyeBoy: bigEyeBoy(rs), smallRoad: smallRoad(rs), cockroachPig: cockroachPig(rs) };
          for (const k of ['bigEyeBoy', 'smallRoad', 'cockroachPig'] as const) {
            const added = roads[k].marks.length - before[k].marks.length;
            assert.equal(added, ask[side][k] === null ? 0 : 1);
            if (ask[side][k] !== null) assert.equal(roads[k].marks.at(-1), ask[side][k]);
          }
        }
        for (const k of ['bigEyeBoy', 'smallRoad', 'cockroachPig'] as const) {
          if (ask.banker[k] !== null && ask.player[k] !== null) assert.notEqual(ask.banker[k], ask.player[k]);
        }
        // the big road never draws two entries in one cell, and every win is drawn once
        const br = bigRoad(rs);
        assert.equal(new Set(br.cells.map((c) => `${c.x},${c.y}`)).size, br.cells.length);
        assert.equal(br.cells.length, rs.filter((r) => r.winner !== 'tie').length);
      }),
      { numRuns: 500 },
    );
  });
});
