import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CommandBody } from '../../../protocol/index.js';
import { BetPlan, CommandQueue } from './bet-plan.js';

describe('repeat and undo from place-bet and clear-bets', () => {
  it('undo takes back the last chip only', () => {
    const plan = new BetPlan();
    plan.sync(true, []);
    plan.sync(true, [{ bet: 'main', amount: 100 }]);
    plan.sync(true, [{ bet: 'main', amount: 600 }]);
    plan.sync(true, [
      { bet: 'main', amount: 600 },
      { bet: 'tie', amount: 100 },
    ]);
    assert.deepEqual(plan.undo(), [{ name: 'clear-bets' }, { name: 'place-bet', spot: { bet: 'main' }, amount: 600 }]);
    // After the replayed chips, a second undo takes the 500 back, not the whole spot.
    plan.sync(true, [{ bet: 'main', amount: 600 }]);
    assert.deepEqual(plan.undo(), [{ name: 'clear-bets' }, { name: 'place-bet', spot: { bet: 'main' }, amount: 100 }]);
  });

  it('the host wins when it disagrees (a reconnect, a refused chip)', () => {
    const plan = new BetPlan();
    plan.sync(true, []);
    plan.sync(true, [{ bet: 'main', amount: 100 }]);
    plan.sync(true, [{ bet: 'banker', amount: 300 }]);
    assert.equal(plan.canUndo(), true);
    assert.deepEqual(plan.undo(), [{ name: 'clear-bets' }]);
    assert.equal(plan.canUndo(), false);
  });

  it('repeat offers last round’s bets once the spots are empty again', () => {
    const plan = new BetPlan();
    plan.sync(true, []);
    assert.equal(plan.canRepeat([]), false);
    plan.sync(true, [
      { bet: 'banker', amount: 1000 },
      { bet: 'playerPair', amount: 100 },
    ]);
    plan.sync(false, [
      { bet: 'banker', amount: 1000 },
      { bet: 'playerPair', amount: 100 },
    ]);
    assert.equal(plan.canUndo(), false);
    plan.sync(true, []);
    assert.equal(plan.canRepeat([]), true);
    assert.deepEqual(plan.repeat(), [
      { name: 'place-bet', spot: { bet: 'banker' }, amount: 1000 },
      { name: 'place-bet', spot: { bet: 'playerPair' }, amount: 100 },
    ]);
    assert.equal(plan.canRepeat([{ bet: 'banker', amount: 1000 }]), false);
  });
});

describe('command queue', () => {
  it('sends one command per snapshot and stops at a refusal', () => {
    const sent: CommandBody[] = [];
    const q = new CommandQueue((c) => sent.push(c));
    q.run([{ name: 'clear-bets' }, { name: 'place-bet', spot: { bet: 'main' }, amount: 100 }, { name: 'place-bet', spot: { bet: 'tie' }, amount: 100 }]);
    assert.equal(sent.length, 1);
    q.snapshot();
    assert.equal(sent.length, 2);
    q.refused();
    q.snapshot();
    assert.equal(sent.length, 2);
    assert.equal(q.busy(), false);
  });
});
