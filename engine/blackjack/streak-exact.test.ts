import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { streakFigures } from './streak-exact.js';

describe('winning streak figures (Macau 2009 Art. 13 5), Art. 14 n.5)', () => {
  it('a level-k bet wins with (won / decisive)^k and returns (pays + 1) times that', () => {
    // Half the decisive rounds won: level 2 wins 1/4 of the time and returns 4 × 1/4: even.
    const [two, three, four, five] = streakFigures(0.45, 0.45);
    assert.ok(two && three && four && five);
    assert.equal(two.won, 0.25);
    assert.ok(Math.abs(two.houseEdge) < 1e-12);
    assert.ok(Math.abs(three.houseEdge - 100 * (1 - 9 / 8)) < 1e-9);
    assert.ok(Math.abs(five.houseEdge - 100 * (1 - 39 / 32)) < 1e-9);
    assert.equal(four.standardError, 0, 'exact inputs: no standard error');
  });

  it('ties do not matter, only the share of decisive rounds won', () => {
    const a = streakFigures(0.4, 0.5);
    const b = streakFigures(0.4 * 0.5, 0.5 * 0.5);
    a.forEach((x, i) => assert.ok(Math.abs(x.houseEdge - (b[i]?.houseEdge ?? NaN)) < 1e-9));
  });

  it('refuses probabilities that are not', () => {
    assert.throws(() => streakFigures(0.7, 0.5), RangeError);
    assert.throws(() => streakFigures(0, 0.5), RangeError);
  });
});
