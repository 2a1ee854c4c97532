import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeFloorSoak, runFloorSoak } from './floor-soak.js';

// The small version of the three-table soak (the campaign: `npm run fuzz -- --only transfers-floor`).
describe('three table hosts through SIGKILLs and cut links (issue 34)', { timeout: 300_000 }, () => {
  it('every transfer completed or reversed once, the reconciliation names nothing, the money that left one ledger is in another, and the upstream the hosts synced to agrees', async (t) => {
    const lines: string[] = [];
    const r = await runFloorSoak({ seed: 34, hostKills: 2, agentKills: 1, cuts: 2, stations: 3, faultEveryMs: 1_000, log: (l) => lines.push(l) });
    t.diagnostic(describeFloorSoak(r));
    assert.deepEqual(r.problems, [], describeFloorSoak(r));
    assert.ok(r.hostKills >= 2 && r.agentKills >= 1 && r.cuts >= 2, describeFloorSoak(r));
    assert.ok(r.transfers > 0 && r.completed > 0 && r.betsJournalled > 0, `transfers happened: ${describeFloorSoak(r)}\n${lines.slice(-20).join('\n')}`);
    // The soak's stations bet and were settled at each of the three games (at blackjack behind a seated player), and the money holds with them.
    for (const [table, g] of Object.entries(r.games))
      assert.ok(g.remoteBets > 0 && g.remoteLines > 0, `the soak's stations bet and were settled at ${table} (${g.game}): ${describeFloorSoak(r)}`);
    assert.ok((r.games['bj-1']?.behindLines ?? 0) > 0, describeFloorSoak(r));
    assert.equal(r.money.conserved, true, describeFloorSoak(r));
    // The upstream's own reconciliation of what the hosts synced to it: every table whole there, the same transfers paired, nothing open, no alarm.
    const u = r.upstream;
    assert.deepEqual(u.problems, [], describeFloorSoak(r));
    assert.deepEqual([u.transfers, u.completed, u.reversed], [r.transfers, r.completed, r.reversed], describeFloorSoak(r));
    assert.deepEqual([u.open, u.disagreements, u.alarms], [0, 0, 0], describeFloorSoak(r));
    for (const [table, h] of Object.entries(u.heads)) assert.ok(h.upstream === h.ledger && h.ledger > 0, `${table}: ${describeFloorSoak(r)}`);
  });
});
