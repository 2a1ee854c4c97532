// A simulated player's money at a betting window (window-money.ts). A CI run on 29 November stalled
// a war soak with tickets at 36 of 40 rounds: every player had run out of credit and held only
// tickets already paid, each window each of them inserted one of those instead of a note, the floor
// returned it (already-paid), nobody bet and no round closed for 60 s.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Rng } from '../../engine/random/seeded-rng.js';
import { windowMoney } from './window-money.js';

const chanceOf = (seed: number) => {
  const rng = Rng.fromSeed(seed);
  return (p: number) => rng.below(1_000_000) < p * 1_000_000;
};

describe("a simulated player's money at a betting window", () => {
  it('a player short of credit who holds only tickets already tried feeds a note in most windows, so the table plays on', () => {
    for (let seed = 1; seed <= 50; seed++) {
      const chance = chanceOf(seed);
      const moves = Array.from({ length: 20 }, () => windowMoney({ credit: 0, min: 500, reserve: 0, holdsFresh: false, holdsTickets: true }, chance));
      const notes = moves.filter((m) => m === 'note').length;
      assert.ok(notes >= 10, `seed ${seed}: ${notes} notes in 20 windows (${moves.join(' ')})`);
      assert.ok(!moves.includes(null), `seed ${seed}: a broke player did nothing in a window`);
    }
  });

  it('a ticket printed elsewhere and not yet seen goes in first, whatever the credit', () => {
    const chance = chanceOf(7);
    for (const credit of [0, 499, 500, 100_000]) {
      assert.equal(windowMoney({ credit, min: 500, reserve: 0, holdsFresh: true, holdsTickets: true }, chance), 'ticket');
    }
  });

  it('a player with credit mostly keeps playing: now and then a replayed ticket or a note, never every window', () => {
    const chance = chanceOf(3);
    const moves = Array.from({ length: 1000 }, () => windowMoney({ credit: 50_000, min: 500, reserve: 0, holdsFresh: false, holdsTickets: true }, chance));
    const tickets = moves.filter((m) => m === 'ticket').length;
    const notes = moves.filter((m) => m === 'note').length;
    assert.ok(tickets > 100 && tickets < 300, `${tickets} replays in 1,000 windows (one in five wanted)`);
    assert.ok(notes > 5 && notes < 60, `${notes} notes in 1,000 windows (3% of those without a ticket wanted)`);
  });

  it('the jackpot chip counts as short: a player with the minimum but not the chip beside it feeds a note', () => {
    const chance = chanceOf(5);
    const moves = Array.from({ length: 20 }, () => windowMoney({ credit: 500, min: 500, reserve: 100, holdsFresh: false, holdsTickets: false }, chance));
    assert.deepEqual(new Set(moves), new Set(['note']));
  });
});
