import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jackpotReturn } from './exact.js';
import { EXAMPLE_JACKPOT_PROGRAM, type JackpotProgram } from './program.js';

describe('the jackpot exact return (sim blackjack-jackpot)', () => {
  it('a suited Black Jack in two cards: the combinatorial figure, one deck and six', () => {
    const program: JackpotProgram = {
      ...EXAMPLE_JACKPOT_PROGRAM,
      levels: [{ level: 'main', start: 1_000_000, reset: 1_000_000, share: 10_000 }],
      awards: [{ combination: 'suited-blackjack', level: 'main', pays: { fixed: 5_000 } }],
    };
    // One deck: 4 suits × (ace then one of its 4 tens, or a ten then its ace) = 32 ordered pairs of 52·51.
    const one = jackpotReturn(program, 1, 2, { main: 1_000_000 });
    assert.ok(Math.abs((one.combos[0]?.probability ?? 0) - 32 / (52 * 51)) < 1e-15);
    // Six decks: 2 × 24 aces × 24 tens of the ace's suit / (312 · 311).
    const six = jackpotReturn(program, 6, 2, { main: 1_000_000 });
    assert.ok(Math.abs((six.combos[0]?.probability ?? 0) - (2 * 24 * 24) / (312 * 311)) < 1e-15);
    assert.ok(Math.abs(six.awardReturn - ((2 * 24 * 24) / (312 * 311)) * 50) < 1e-12, 'award 5,000 on a chip of 100');
  });

  it('the pool award grows with the pool; the best combination only is counted', () => {
    const low = jackpotReturn(EXAMPLE_JACKPOT_PROGRAM, 1, 4, { main: 1_000_000, minor: 1_000_000 });
    const high = jackpotReturn(EXAMPLE_JACKPOT_PROGRAM, 1, 4, { main: 5_000_000, minor: 1_000_000 });
    const suitedAces = (r: typeof low) => r.combos.find((c) => c.combination === 'four-aces-suited');
    // One deck holds one ace of each suit: four suited aces are impossible, any four aces 24 / (52·51·50·49).
    assert.equal(suitedAces(low)?.probability, 0);
    const fourAces = low.combos.find((c) => c.combination === 'four-aces');
    assert.ok(Math.abs((fourAces?.probability ?? 0) - 24 / (52 * 51 * 50 * 49)) < 1e-15);
    assert.ok(high.awardReturn >= low.awardReturn);
    const sum = low.combos.reduce((t, c) => t + c.probability, 0);
    assert.ok(sum > 0 && sum < 1);
    assert.equal(low.increment, 0.2);
  });
});
