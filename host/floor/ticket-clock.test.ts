// A table whose clock is far from the upstream's prints no ticket (docs/tito.md, "The table's
// clock"): the cash-out to a ticket is refused (`table-clock`, the player told in their language),
// nothing is journalled and the credit stays on the meter; a handpay the player asks for still
// goes. Before 7 December the ticket took the host's clock whatever it said, and a table 10 minutes
// (or a year) behind printed tickets dated, and expiring, by it.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { layoutDefined, printerRig, type PrinterRig } from '../../hardware/printer/printer-rig.js';
import { credit, submitted, testTable, type TestTable } from '../testing/table-kit.js';
import { FloorClock } from '../tickets/floor-clock.js';
import type { TicketAuthority } from '../tickets/authority.js';
import { lastTicketIssued } from '../../ledger/ticket-queries.js';

const rigs: PrinterRig[] = [];
after(async () => {
  for (const r of rigs) await r.p.close();
});

const cmd = (t: TestTable, station: number, command: Parameters<TestTable['hub']['commands']['submit']>[2]) =>
  submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), command));

describe("ticket-out on a clock the upstream's time contradicts", () => {
  it('is refused (table-clock), nothing journalled, the credit on the meter; a handpay asked for goes; set right, the ticket prints', async () => {
    const r = printerRig();
    rigs.push(r);
    await layoutDefined(r);
    const clock = new FloorClock();
    // The upstream's heartbeat said its time is 10 minutes ahead of this host's.
    clock.observe(Date.now() + 10 * 60_000, 20);
    const t = testTable({
      config: { tickets: { limit: 5_000_000, expiryDays: 90, machineId: 77 } },
      printers: { at: (s) => (s === 1 ? r.p : undefined) },
      floorClock: clock,
    });
    try {
      credit(t.ledger, 1, 30_000);
      const before = t.ledger.headOf();
      const out = cmd(t, 1, { name: 'cash-out' });
      assert.equal(out.ok, false);
      assert.equal(out.ok ? null : out.error.refusal, 'table-clock');
      assert.match(out.ok ? '' : out.error.detail, /10 min behind the upstream's/);
      await new Promise((done) => setTimeout(done, 50));
      assert.equal(t.ledger.headOf().seq, before.seq, 'nothing journalled');
      assert.equal(t.ledger.credit(1), 30_000, 'the credit stays on the meter');
      assert.equal(r.sim.paper.length, 0);
      assert.equal(t.floor.handpays.pending().length, 0, 'no handpay the player did not ask for');
      // The upstream's next word agrees with this clock: the ticket prints.
      clock.observe(Date.now(), 20);
      assert.equal(cmd(t, 1, { name: 'cash-out' }).ok, true);
      const end = Date.now() + 5000;
      const printed = () => JSON.stringify(t.hub.state('station/1')).includes('"printed"');
      while (!printed() && Date.now() < end) await new Promise((done) => setTimeout(done, 5));
      assert.equal(r.sim.paper.length, 1);
      assert.equal(t.ledger.credit(1), 0);
      // A handpay the player asks for is not the clock's business.
      credit(t.ledger, 1, 5_000);
      clock.observe(Date.now() + 10 * 60_000, 20);
      assert.equal(cmd(t, 1, { name: 'cash-out', via: 'handpay' }).ok, true);
      assert.equal(t.floor.handpays.pending()[0]?.amount, 5_000);
    } finally {
      t.close();
    }
  });
});

describe('the clock checked where the ticket is dated, not only at the gate', () => {
  it('a clock found skewed while the cash-out waits for its number prints no ticket: nothing issued, a handpay (table-clock)', async () => {
    const r = printerRig();
    rigs.push(r);
    await layoutDefined(r);
    // No time heard yet (offline since the start): the gate lets the cash-out through on the host's clock.
    const clock = new FloorClock();
    let answer!: () => void;
    const answered = new Promise<void>((done) => (answer = done));
    const ok = async () => ({ ok: true as const });
    // The upstream's first answer is its id for this table, and with it its time: 10 minutes ahead of this host's.
    const authority: TicketAuthority = {
      machineId: async () => {
        await answered;
        clock.observe(Date.now() + 10 * 60_000, 20);
        return { ok: true, machineId: 0x80_00_01 };
      },
      registerIssue: ok,
      registerPrinted: ok,
      registerVoid: ok,
      redeem: async (q) => ({ kind: 'refused', requestId: q.requestId, reason: 'offline' }),
      confirm: ok,
      cancel: ok,
    };
    const t = testTable({
      config: { tickets: { limit: 5_000_000, expiryDays: 90 } },
      printers: { at: (s) => (s === 1 ? r.p : undefined) },
      floorClock: clock,
      authority,
    });
    try {
      credit(t.ledger, 1, 30_000);
      assert.equal(cmd(t, 1, { name: 'cash-out' }).ok, true, 'the gate saw no skew yet');
      answer();
      const end = Date.now() + 5000;
      while (t.floor.handpays.pending().length === 0 && r.sim.paper.length === 0 && Date.now() < end) await new Promise((done) => setTimeout(done, 5));
      await new Promise((done) => setTimeout(done, 50));
      assert.equal(r.sim.paper.length, 0, 'no ticket dated by a clock the upstream just contradicted');
      assert.equal(lastTicketIssued(t.ledger), null, 'nothing issued');
      assert.equal(t.floor.handpays.pending()[0]?.amount, 30_000, 'the accepted cash-out goes to an attendant');
      assert.match(JSON.stringify(t.hub.state('station/1')), /"why":"table-clock"/);
    } finally {
      t.close();
    }
  });
});
