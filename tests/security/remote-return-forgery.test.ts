// A compromised station machine says a note went back to the customer, but names another note
// than the one the host answered "stack" to: the same escrow id, another amount or currency.
// Before: the host journalled whatever the claim said (a `bill.return` in HKD against a MOP
// escrow), or the ledger refused the entry and the agent's message was answered as if nothing
// had been said. Now a return is judged as a credit is: only for the stacked escrow's own note;
// anything else is a security event (`bill.refused`, claim `return`), the station's acceptor
// fault, and the escrow stays open for the true note's report or a person's look.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { stackedEscrow } from '../../host/devices/credit-rule/stacked-escrow.js';
import { remoteDevice } from '../../host/devices/remote-acceptors.js';
import type { RunningHost } from '../../host/start-host.js';
import type { LinkNote } from '../../host/station-agent/device-client.js';
import { entriesOfTypes, verifyLedger, type EntryBody } from '../../ledger/index.js';
import { hostWithAgents, type AgentsAtHost } from './agents-at-host.js';

const note = (escrowId: string, denomination: number, currency: 'HKD' | 'MOP' = 'MOP'): LinkNote => ({
  escrowId,
  amount: denomination * 100,
  denomination,
  currency,
});

describe('a compromised station machine reports the return of another note than the stacked one', { timeout: 120_000 }, () => {
  let at: AgentsAtHost;
  let running: RunningHost;

  before(async () => {
    const config = TableConfig.parse({ ...simulatedTableConfig('baccarat'), remoteStations: 4 });
    at = await hostWithAgents('return-forgery-', config, [101, 102, 103]);
    running = at.running;
  });
  after(() => at?.close());

  const device = (station: number) => at.device(station);
  const payloads = (type: 'bill.return' | 'bill.refused', station: number) =>
    [...entriesOfTypes(running.ledger, [type])].map((e) => (JSON.parse(e.body) as EntryBody).payload).filter((p) => p.station === station);
  const open = (station: number, escrowId: string) => stackedEscrow(running.ledger, remoteDevice(station), escrowId)?.resolution === null;
  const cheatFault = (station: number) => running.floor.tilts.list().some((t) => t.kind === 'bill-cheat' && t.station === station);

  for (const [station, lie, what] of [
    [101, note('ret-amount-1', 100), 'another amount'],
    [102, note('ret-currency-1', 500, 'HKD'), 'another currency'],
  ] as const) {
    it(`${what}: refused, a security event, a fault, the escrow still open`, async () => {
      const d = await device(station).escrow(note(lie.escrowId, 500));
      assert.deepEqual(d.type === 'decision' && d.decision, 'stack');
      const r = await device(station).returned(lie, 'timeout');
      console.log(`station ${station}: a return of ${lie.amount} ${lie.currency} for an escrow of 50000 MOP answered ${JSON.stringify(r)}`);
      assert.equal(r.type, 'refused', 'the lying return is refused');
      assert.deepEqual(payloads('bill.return', station), [], 'no return journalled');
      assert.deepEqual(
        payloads('bill.refused', station).map((p) => [p.claim, p.reason]),
        [['return', 'escrow-mismatch']],
      );
      assert.ok(cheatFault(station), "the station's acceptor fault is raised");
      assert.equal(open(station, lie.escrowId), true, 'the escrow is neither credited nor returned');
      assert.equal(running.ledger.credit(station), 0);
    });
  }

  it("the stacked note's own return is journalled, once, and answered", async () => {
    const n = note('ret-true-1', 500);
    const d = await device(103).escrow(n);
    assert.deepEqual(d.type === 'decision' && d.decision, 'stack');
    assert.equal((await device(103).returned(n, 'timeout')).type, 'journalled');
    assert.equal((await device(103).returned(n, 'timeout')).type, 'journalled', 'the resend is the same answer');
    assert.equal(payloads('bill.return', 103).length, 1);
    assert.deepEqual(payloads('bill.refused', 103), []);
    assert.equal(open(103, n.escrowId), false);
  });

  it('the ledger verifies', () => {
    const report = verifyLedger(running.ledger);
    assert.equal(report.ok, true, report.problems.join('; '));
  });
});
