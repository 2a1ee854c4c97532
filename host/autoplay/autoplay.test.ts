// The scripted players' readiness (autoplay.ts): decided once per round so that every scripted
// player agrees, and kept for the last few rounds only (issue 52: the table host runs for weeks).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OncePerRound } from './autoplay.js';

describe("the scripted players' readiness, once per round", () => {
  it('answers every asker of a round the same, however often it is asked, while its round is recent', () => {
    let calls = 0;
    const once = new OncePerRound(() => ++calls % 2 === 0);
    assert.equal(once.ask('r1'), false);
    assert.equal(once.ask('r2'), true);
    for (let i = 0; i < 3; i++) {
      assert.equal(once.ask('r1'), false, 'r1 as first decided');
      assert.equal(once.ask('r2'), true, 'r2 as first decided');
    }
    assert.equal(calls, 2, 'decided once a round');
  });

  it("keeps the answers of a few recent rounds, not every round's the host played", () => {
    const once = new OncePerRound(() => true);
    for (let r = 0; r < 1000; r++) {
      once.ask(`r${r}`);
      once.ask(`r${r}`);
    }
    assert.ok(once.kept <= 4, `${once.kept} rounds' answers kept after 1,000 rounds`);
  });
});
