// A compromised station machine (issue 28 item 1). The station agent's secret lives on a machine
// on the casino floor; whoever holds it speaks the device link exactly as the agent does. Before:
// the host journalled any `credit` an authenticated agent reported — two credits of 50,000,000
// for escrows that never existed, one of them in HKD on a MOP table, put 1,000,000.00 MOP on
// station 101's meter and `ledger verify --full` said OK. Now the host decides every credit: only
// for an escrow it answered "stack" to (the journalled escrow), for that escrow's note, in the
// table's currency, for a note the table takes, while the acceptor takes notes. Each attempt
// here credits nothing, is journalled as a security event (`bill.refused`) and raises the
// station's acceptor fault (`bill-cheat`), which disables the station.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import type { RunningHost } from '../../host/start-host.js';
import type { LinkNote } from '../../host/station-agent/device-client.js';
import { entriesOfTypes, verifyLedger, type EntryBody } from '../../ledger/index.js';
import { hostWithAgents, type AgentsAtHost } from './agents-at-host.js';

const note = (escrowId: string, denomination: number, currency: 'HKD' | 'MOP' = 'MOP', amount = denomination * 100): LinkNote => ({
  escrowId,
  amount,
  denomination,
  currency,
});

describe('a compromised station machine reports credits the host never saw go into a cashbox', { timeout: 120_000 }, () => {
  let at: AgentsAtHost;
  let running: RunningHost;

  before(async () => {
    // A MOP table that does not take the 1000 note.
    const config = TableConfig.parse({ ...simulatedTableConfig('baccarat'), remoteStations: 12, denominations: [10, 20, 50, 100, 500] });
    at = await hostWithAgents('credit-forgery-', config, [101, 102, 103, 104, 105, 106, 107, 108]);
    running = at.running;
  });
  after(() => at?.close());

  const device = (station: number) => at.device(station);
  const refusals = (station: number) =>
    [...entriesOfTypes(running.ledger, ['bill.refused'])]
      .map((e) => (JSON.parse(e.body) as EntryBody).payload)
      .filter((p) => p.station === station)
      .map((p) => p.reason);
  const credits = (station: number) =>
    [...entriesOfTypes(running.ledger, ['bill.credit'])].map((e) => (JSON.parse(e.body) as EntryBody).payload).filter((p) => p.station === station).length;
  const cheatFault = (station: number) => running.floor.tilts.list().some((t) => t.kind === 'bill-cheat' && t.station === station);

  /** What every refused attempt must leave: no credit, a security event naming why, the station's acceptor fault. */
  function refused(station: number, reason: string, creditBefore = 0) {
    assert.equal(running.ledger.credit(station), creditBefore, `station ${station}: nothing credited`);
    assert.ok(refusals(station).includes(reason), `station ${station}: a security event "${reason}" (journalled: ${JSON.stringify(refusals(station))})`);
    assert.ok(cheatFault(station), `station ${station}: its acceptor's fault is raised`);
  }

  it('credits for escrows that never existed, 50,000,000 each: nothing credited, journalled, a fault', async () => {
    // A real note's value, for an escrow the host never answered.
    const a = await device(101).credit(note('never-1', 500));
    // As found: 50,000,000 minor units, no note of the currency.
    const b = await device(101).credit(note('never-2', 500_000));
    assert.equal(a.type, 'refused');
    assert.equal(b.type, 'refused');
    refused(101, 'bad-note');
    refused(101, 'no-escrow');
    assert.equal(refusals(101).length, 2, 'each attempt is its own security event');
    assert.equal(credits(101), 0);
  });

  it('HKD on a MOP table: the escrow is returned, the credit refused', async () => {
    const d = await device(102).escrow(note('hkd-1', 500, 'HKD'));
    assert.deepEqual(d.type === 'decision' && d.decision, 'return');
    const c = await device(102).credit(note('hkd-1', 500, 'HKD'));
    assert.equal(c.type, 'refused');
    refused(102, 'wrong-currency');
  });

  it('a note the table refuses (1000): the escrow is returned, the credit refused', async () => {
    const d = await device(103).escrow(note('big-1', 1000));
    assert.deepEqual(d.type === 'decision' && d.decision, 'return');
    const c = await device(103).credit(note('big-1', 1000));
    assert.equal(c.type, 'refused');
    refused(103, 'note-not-accepted');
  });

  it('while the acceptor is inhibited: the escrow is returned, the credit refused', async () => {
    running.stadium.acceptors.setInhibited(104, 'service-disable', true);
    try {
      const d = await device(104).escrow(note('off-1', 100));
      assert.deepEqual(d.type === 'decision' && d.decision, 'return');
      const c = await device(104).credit(note('off-1', 100));
      assert.equal(c.type, 'refused');
      refused(104, 'acceptor-inhibited');
    } finally {
      running.stadium.acceptors.setInhibited(104, 'service-disable', false);
    }
  });

  it('twice for one escrow: the resend of the same message is the same answer; a second report is refused', async () => {
    const r = await device(105).insert('twice-1', 100, 'MOP');
    assert.deepEqual(r.credited, true);
    assert.equal(running.ledger.credit(105), 10_000);
    // The agent's relay resends a message whose answer a cut lost: same message, same answer, no event.
    const again = await device(105).credit(note('twice-1', 100), { id: r.creditId ?? '' });
    assert.equal(again.type, 'journalled');
    assert.deepEqual(refusals(105), []);
    // A second credit report for the same escrow is a lie.
    const second = await device(105).credit(note('twice-1', 100));
    assert.equal(second.type, 'refused');
    refused(105, 'already-credited', 10_000);
    assert.equal(credits(105), 1);
  });

  it('a different amount than the stacked escrow: refused, and the escrow stays the note it was', async () => {
    const d = await device(106).escrow(note('swap-1', 100));
    assert.deepEqual(d.type === 'decision' && d.decision, 'stack');
    const c = await device(106).credit(note('swap-1', 500));
    assert.equal(c.type, 'refused');
    refused(106, 'escrow-mismatch');
    assert.equal(credits(106), 0);
  });

  it("an escrow whose amount is not its note's value (100 claimed as 50,000,000): returned, journalled, a fault", async () => {
    const d = await device(107).escrow(note('inflated-1', 100, 'MOP', 50_000_000));
    assert.deepEqual(d.type === 'decision' && d.decision, 'return');
    const c = await device(107).credit(note('inflated-1', 100, 'MOP', 50_000_000));
    assert.equal(c.type, 'refused');
    refused(107, 'bad-note');
  });

  it('the fault disables the station: its agent is told to take no notes', async () => {
    const until = Date.now() + 5_000;
    while (device(101).enabled() !== false) {
      assert.ok(Date.now() < until, 'station 101 told to stop taking notes');
      await new Promise((r) => setTimeout(r, 20));
    }
    // A station that did nothing wrong takes notes still.
    assert.equal(device(108).enabled(), true);
    const r = await device(108).insert('honest-1', 500, 'MOP');
    assert.equal(r.credited, true);
    assert.equal(running.ledger.credit(108), 50_000);
    assert.deepEqual(refusals(108), []);
  });

  it('the ledger verifies: the refusals are records, not money', () => {
    const report = verifyLedger(running.ledger);
    assert.equal(report.ok, true, report.problems.join('; '));
  });

  it('a fault that halts the table inhibits a remote station no fault names, as every seated one: its escrow is returned', async () => {
    const d = device(108);
    const before = running.ledger.credit(108);
    assert.equal(d.enabled(), true);
    running.floor.tilts.raise('ledger-integrity', { detail: 'the file check failed' });
    const until = Date.now() + 2_000;
    while (d.enabled() !== false && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    const r = await d.insert('halted-1', 500, 'MOP');
    console.log(`a note at a remote station while the table is halted: told to take notes ${d.enabled()}, answered ${r.decision}`);
    assert.equal(d.enabled(), false, 'its agent told to take no notes');
    assert.equal(r.decision, 'return');
    assert.equal(running.ledger.credit(108), before, 'nothing credited (before: 500.00 more)');
    // The supervisor clears it: the station takes notes again.
    assert.deepEqual(running.floor.tilts.clear('ledger-integrity', undefined, { user: 'sup-1', role: 'supervisor' }), { ok: true });
    const back = Date.now() + 2_000;
    while (d.enabled() !== true && Date.now() < back) await new Promise((r) => setTimeout(r, 20));
    assert.equal(d.enabled(), true, 'its agent told to take notes again');
    assert.equal((await d.insert('after-halt-1', 500, 'MOP')).credited, true);
    assert.equal(running.ledger.credit(108), before + 50_000);
  });
});
