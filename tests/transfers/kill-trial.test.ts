import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runKillTrial } from './kill-trial.js';

// Two table hosts as processes over their SQLite ledgers, SIGKILLed idle and mid-command, their
// messages lost, repeated and reordered (kill-trial.ts; docs/transfers.md).

describe('transfers: SIGKILL trial of two table hosts on real ledgers', () => {
  it('every transfer closes once, nothing for the reconciliation to name, money conserved, both ledgers verify', async () => {
    const r = await runKillTrial({ seed: 34, steps: 160 });
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.alarms, []);
    assert.equal(r.credits, r.opening);
    assert.equal(r.settlements[0], -r.settlements[1]);
    assert.equal(r.completed + r.reversed, r.transfers.length);
    assert.ok(r.sigkills >= 10 && r.midCommand >= 3, `${r.sigkills} SIGKILLs, ${r.midCommand} mid-command`);
    assert.ok(r.started >= 15 && r.reversed >= 1, `${r.started} started, ${r.reversed} reversed`);
  });
});
