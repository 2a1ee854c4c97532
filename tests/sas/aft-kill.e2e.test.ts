// The AFT kill campaign's slice in the suite (issue 48: "an AFT transfer killed at every journal
// step completes or is refused exactly once"; tests/sas/aft-kill/campaign.ts says what a trial
// is and what must hold). One trial here, the riskiest step: the station's process SIGKILLed right
// after the transfer's entry commits and before its 0x72 answer is sent. Every direction at every
// kill point (before and after the commit, after the answer, after exception 69 read and after it
// was acknowledged; retry and give-up after a kill before the commit): `npm run fuzz -- --only sas-aft-kill`.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeTrial, runTrial } from './aft-kill/campaign.js';

describe('AFT: a transfer killed at a journal step', () => {
  it('killed after its entry commits and before its answer: the restarted station reports it, it completes once, 69 once, meters equal', async () => {
    const r = await runTrial({ direction: 'in', point: 'after-commit', policy: 'retry' });
    assert.deepEqual(r.violations, [], describeTrial(r));
    assert.equal(r.outcome, 'complete', 'the station journalled it before it died: the system finds it complete');
  });
});
