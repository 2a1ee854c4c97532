// `etg soak --campaign`'s logic on a small number of trials: every table takes its turn, the kills
// are counted as trials, the table names every column, and the faults it met are in it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { campaign, campaignTable } from './campaign.js';

describe('soak --campaign', () => {
  it('runs kill trials over the three games and both blackjack jurisdictions, with nothing lost or duplicated', async () => {
    const r = await campaign({ trials: 40, from: 1, steps: 200 });
    assert.ok(r.trials >= 40, `trials ${r.trials}`);
    assert.deepEqual(Object.keys(r.byTable).sort(), ['baccarat macau-commission', 'blackjack macau-2009', 'blackjack portugal-2001', 'war macau']);
    assert.equal((r.faults['kill-before-commit'] ?? 0) + (r.faults['kill-after-commit'] ?? 0), r.trials, 'every trial is a kill');
    assert.deepEqual(r.failingSeeds, []);
    assert.equal(r.lostCredits, 0);
    assert.equal(r.duplicatedCredits, 0);
    assert.equal(r.ledgerFailures, 0);
    assert.ok(r.recoverMs.p99 >= r.recoverMs.p50 && r.recoverMs.p50 > 0);
    const table = campaignTable(r);
    for (const row of ['trials (kills)', 'lost credits', 'duplicated credits', 'ledger failures', 'recover p50 (ms)', 'recover p99 (ms)', 'fault sqlite-full'])
      assert.match(table, new RegExp(`^${row.replace(/[()]/g, '\\$&')}\\s`, 'm'), row);
  });
});
