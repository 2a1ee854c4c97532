import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dealerDrawsOn, type Soft17 } from '../hand.js';
import { DealerTree, OUTCOMES } from './dealer.js';
import { fullShoe } from './up-card.js';

/** Every ordered sequence of dealer cards, drawn one at a time from `shoe` (mutated and restored). */
function bruteForce(up: number, shoe: number[], soft17: Soft17): number[] {
  const out = new Array<number>(OUTCOMES).fill(0);
  const total = (): number => shoe.reduce((a, b) => a + b, 0);
  const go = (hard: number, ace: boolean, cards: number, p: number): void => {
    if (cards === 2 && ace && hard === 11) {
      out[6]! += p;
      return;
    }
    if (cards >= 2 && !dealerDrawsOn(hard, ace, cards, soft17)) {
      const t = ace && hard + 10 <= 21 ? hard + 10 : hard;
      out[t > 21 ? 5 : t - 17]! += p;
      return;
    }
    const n = total();
    for (let c = 1; c <= 10; c++) {
      const k = shoe[c]!;
      if (k === 0) continue;
      shoe[c] = k - 1;
      go(hard + c, ace || c === 1, cards + 1, (p * k) / n);
      shoe[c] = k;
    }
  };
  go(up, up === 1, 1, 1);
  return out;
}

describe('dealer outcomes by exact recursion over the remaining shoe', () => {
  for (const soft17 of ['stand', 'hit', 'hit-ace-six'] as const) {
    it(`match every ordered draw of a one-deck shoe less some cards (soft 17: ${soft17})`, () => {
      for (let up = 1; up <= 10; up++) {
        const shoe = Array.from(fullShoe(1));
        shoe[up]!--;
        // Cards the player holds: a ten, two 6s, an ace.
        shoe[10]!--;
        shoe[6]! -= 2;
        shoe[1]!--;
        const want = bruteForce(up, shoe.slice(), soft17);
        const got = new Float64Array(OUTCOMES);
        new DealerTree(up, soft17).distribution(
          shoe,
          shoe.reduce((a, b) => a + b, 0),
          got,
        );
        for (let k = 0; k < OUTCOMES; k++) assert.ok(Math.abs(got[k]! - want[k]!) < 1e-12, `up ${up} outcome ${k}: ${got[k]} vs ${want[k]}`);
        assert.ok(Math.abs(got.reduce((a, b) => a + b, 0) - 1) < 1e-12);
      }
    });
  }

  it('hitting only A-6 (2009 Art. 6 6)) is hitting soft 17 with a 6 up, standing with a 2 up, in between with an ace up', () => {
    const bust = (up: number, s: Soft17): number => {
      const shoe = Array.from(fullShoe(6));
      shoe[up]!--;
      const d = new Float64Array(OUTCOMES);
      new DealerTree(up, s).distribution(
        shoe,
        shoe.reduce((a, b) => a + b, 0),
        d,
      );
      return d[5]!;
    };
    assert.equal(bust(6, 'hit-ace-six'), bust(6, 'hit'));
    assert.equal(bust(2, 'hit-ace-six'), bust(2, 'stand'));
    assert.ok(bust(1, 'stand') < bust(1, 'hit-ace-six') && bust(1, 'hit-ace-six') < bust(1, 'hit'));
  });
});
