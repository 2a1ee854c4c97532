import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { layoutDefined, printerRig, type PrinterRig } from '../../hardware/printer/printer-rig.js';
import { verifyLedger } from '../../ledger/index.js';
import { credit, submitted, testTable, type TestTable } from '../testing/table-kit.js';
import { refusingOnce } from '../testing/refusing-ledger.js';
import { unhandledDuring } from '../testing/unhandled.js';

const rigs: PrinterRig[] = [];
after(async () => {
  for (const r of rigs) await r.p.close();
});

const cmd = (t: TestTable, station: number, command: Parameters<TestTable['hub']['commands']['submit']>[2]) =>
  submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), command));

async function until(ok: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function tableWithPrinter(limit = 5_000_000): Promise<{ t: TestTable; r: PrinterRig }> {
  const r = printerRig();
  rigs.push(r);
  await layoutDefined(r);
  const t = testTable({ config: { tickets: { limit, expiryDays: 90, machineId: 77 } }, printers: { at: (s) => (s === 1 ? r.p : undefined) } });
  return { t, r };
}

describe('the station’s cash-out: a ticket where the printer can print one, else a handpay', () => {
  it('prints a ticket for the whole credit, locks the station while printing, and says so on its screen', async () => {
    const { t, r } = await tableWithPrinter();
    try {
      credit(t.ledger, 1, 30_000);
      assert.equal(cmd(t, 1, { name: 'cash-out' }).ok, true);
      await until(() => t.hub.state('station/1').kind === 'station' && JSON.stringify(t.hub.state('station/1')).includes('"printed"'));
      const s = t.hub.state('station/1');
      assert.ok(s.kind === 'station');
      assert.equal(s.cashout?.ticket?.state, 'printed');
      assert.equal(s.cashout?.ticket?.amount, 30_000);
      assert.equal(s.cashout?.pending, null, 'no handpay');
      assert.equal(t.ledger.credit(1), 0);
      assert.equal(r.sim.paper[0]?.barcode, s.cashout?.ticket?.validation);
      assert.equal(t.floor.handpays.pending().length, 0);
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('pays by handpay when the player asks, above the ticket limit, and at a station without a printer', async () => {
    const { t, r } = await tableWithPrinter(20_000);
    try {
      // The screens are told which station prints tickets (its screen offers the handpay beside the ticket).
      const [one, two] = [t.hub.state('station/1'), t.hub.state('station/2')];
      assert.ok(one.kind === 'station' && two.kind === 'station');
      assert.equal(one.cashout?.printsTickets, true, 'station 1 has a printer');
      assert.equal(two.cashout?.printsTickets, undefined, 'station 2 has none');
      credit(t.ledger, 1, 10_000);
      assert.equal(cmd(t, 1, { name: 'cash-out', via: 'handpay' }).ok, true);
      assert.equal(t.floor.handpays.pending().length, 1);
      const [p] = t.floor.handpays.pending();
      assert.ok(p);
      t.floor.handpays.confirm(p.requestTxId, 'att-1');
      credit(t.ledger, 1, 30_000);
      assert.equal(cmd(t, 1, { name: 'cash-out' }).ok, true, 'above the ticket limit');
      assert.equal(t.floor.handpays.pending()[0]?.amount, 30_000);
      credit(t.ledger, 2, 5_000);
      assert.equal(cmd(t, 2, { name: 'cash-out' }).ok, true, 'no printer at station 2');
      assert.equal(t.floor.handpays.pending().length, 2);
      assert.equal(r.sim.paper.length, 0);
    } finally {
      t.close();
    }
  });

  it('paper out: the cash-out is a handpay, and the station is told why (paper-out), a handpay the player asked for has no why', async () => {
    const { t, r } = await tableWithPrinter();
    try {
      r.sim.faults.paperOut();
      await until(() => r.p.condition?.faults.includes('paper-out') === true);
      credit(t.ledger, 1, 30_000);
      assert.equal(cmd(t, 1, { name: 'cash-out' }).ok, true);
      const s = t.hub.state('station/1');
      assert.ok(s.kind === 'station');
      assert.equal(s.cashout?.pending?.amount, 30_000, 'an attendant pays it');
      assert.equal(s.cashout?.pending?.why, 'paper-out', 'the station can say why no ticket');
      assert.equal(r.sim.paper.length, 0, 'nothing printed');
      const [p] = t.floor.handpays.pending();
      assert.ok(p);
      t.floor.handpays.confirm(p.requestTxId, 'att-1');
      credit(t.ledger, 1, 10_000);
      assert.equal(cmd(t, 1, { name: 'cash-out', via: 'handpay' }).ok, true);
      const asked = t.hub.state('station/1');
      assert.ok(asked.kind === 'station');
      assert.equal(asked.cashout?.pending?.amount, 10_000);
      assert.equal(asked.cashout?.pending?.why, undefined, 'asked for: no fallback to explain');
    } finally {
      t.close();
    }
  });

  it('refuses a bet while the ticket is in print and a second cash-out meanwhile', async () => {
    const { t, r } = await tableWithPrinter();
    try {
      r.sim.tell('jam-claims-printed', 1);
      credit(t.ledger, 1, 30_000);
      assert.equal(cmd(t, 1, { name: 'cash-out' }).ok, true);
      await until(() => JSON.stringify(t.hub.state('station/1')).includes('"unresolved"'));
      credit(t.ledger, 1, 10_000);
      const bet = cmd(t, 1, { name: 'place-bet', spot: { bet: 'main' }, amount: 10_000 });
      assert.equal(bet.ok ? null : bet.error.refusal, 'station-locked');
      const again = cmd(t, 1, { name: 'cash-out' });
      assert.equal(again.ok ? null : again.error.refusal, 'cash-out-pending');
      assert.equal(t.ledger.credit(1), 10_000, 'the ticket’s credit neither printed nor given back');
    } finally {
      t.close();
    }
  });
});

describe('a cash-out whose ticket and then whose handpay the journal refuses (a full disk)', () => {
  it('is no unhandled rejection: the credit stays on the meter unheld, as a restart finds it, and the next cash-out prints', async () => {
    const { t, r } = await tableWithPrinter();
    try {
      credit(t.ledger, 1, 30_000);
      refusingOnce(t.ledger, 'ticket.issue');
      refusingOnce(t.ledger, 'credit.cancel');
      const unhandled = await unhandledDuring(async () => {
        assert.equal(cmd(t, 1, { name: 'cash-out' }).ok, true);
        await until(() => t.floor.tickets.holdAt(1) === null);
      });
      assert.deepEqual(unhandled, [], 'no unhandled rejection');
      assert.equal(t.ledger.credit(1), 30_000, 'nothing journalled: the credit where it was');
      assert.equal(t.floor.handpays.pending().length, 0);
      assert.equal(r.sim.paper.length, 0);
      const s = t.hub.state('station/1');
      assert.ok(s.kind === 'station');
      assert.equal(s.cashout?.pending ?? null, null, 'no handpay shown');
      assert.equal(s.cashout?.ticket ?? null, null, 'no ticket shown');
      // Nothing journalled is owed: a restart finds the credit on the meter, and so does this run.
      assert.equal(t.floor.tickets.holdAt(1), null);
      assert.equal(cmd(t, 1, { name: 'cash-out' }).ok, true, 'the player may press again');
      await until(() => t.ledger.meters('station:1').ticketsOut === 1);
      assert.equal(t.ledger.credit(1), 0);
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });
});
