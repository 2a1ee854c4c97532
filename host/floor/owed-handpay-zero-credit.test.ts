// An owed handpay at the 0-credit edge (docs/sas.md, "System validation at a station"): a cash-out
// that asked the casino system, denied, whose handpay the journal refused once, is owed
// (`TicketOut.owedAt`, the amount the request held). Once that handpay is journalled the station's
// credit is 0: a press again, a press after it is paid and a restart must pay nothing twice, lose
// nothing, and leave the meters and the journal balanced; the player is paid what the request held.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { layoutDefined, printerRig, type PrinterRig } from '../../hardware/printer/printer-rig.js';
import type { SasSystemValidationSide } from '../../hardware/sas/system-validation.js';
import { entryCount, newestEntriesOfType, verifyLedger, type Ledger } from '../../ledger/index.js';
import { validationTxId } from '../../terms/system-validation-terms.js';
import { endOpenValidations } from '../devices/sas-system-validation.js';
import { simulatedTableConfig } from '../config/table-config.js';
import { credit, submitted, testTable, type TestTable } from '../testing/table-kit.js';
import { refusingOnce } from '../testing/refusing-ledger.js';

const rigs: PrinterRig[] = [];
after(async () => {
  for (const r of rigs) await r.p.close();
});

type Command = Parameters<TestTable['hub']['commands']['submit']>[2];
const refusalOf = (t: TestTable, command: Command): string | null => {
  const r = submitted(t.hub.commands.submit('station/1', t.hub.version('station/1'), command));
  return r.ok ? null : (r.error.refusal ?? r.error.detail);
};

async function until(ok: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

const stations = () =>
  simulatedTableConfig('war').stations.map((s) =>
    s.station === 1 ? { ...s, printer: 'sim', sas: { link: 'tcp:127.0.0.1:9', address: 1, validation: 'system' as const } } : s,
  );

/** Station 1 cashes out 30,000 through the casino system, which denies it; the journal refuses its handpay once: owed. */
async function owedTable(): Promise<{ t: TestTable; requestTxId: string }> {
  const r = printerRig();
  rigs.push(r);
  await layoutDefined(r);
  const t = testTable({
    config: { tickets: { limit: 5_000_000, expiryDays: 90, authority: 'sas' }, stations: stations() },
    printers: { at: (s) => (s === 1 ? r.p : undefined) },
  });
  const side: SasSystemValidationSide | undefined = t.floor.tickets.system?.side(1, () => {});
  assert.ok(side);
  await until(() => t.floor.tickets.whyNot(1, 1) === null);
  credit(t.ledger, 1, 30_000);
  assert.equal(refusalOf(t, { name: 'cash-out' }), null);
  await until(() => side.pending() !== null);
  refusingOnce(t.ledger, 'credit.cancel');
  assert.equal(side.receive(0, '0000000000000000'), 0x00, 'system id 00: denied');
  await until(() => t.floor.tickets.owedAt(1) !== null);
  const [request] = newestEntriesOfType(t.ledger, 'ticket.validation.request', 1);
  const requestId = (JSON.parse(request?.body ?? '{}') as { payload: { requestId: string } }).payload.requestId;
  assert.equal(t.floor.tickets.owedAt(1)?.held, 30_000);
  return { t, requestTxId: validationTxId(requestId, 'handpay') };
}

/** The money of station 1: cancelled to a handpay, handpaid, on the meter; and the journal folds. */
function books(ledger: Ledger) {
  const m = ledger.meters('station:1');
  return {
    cancelled: m.cancelledCredits ?? 0,
    handpaid: m.handpaidCancelledCredits ?? 0,
    credit: ledger.credit(1),
    handpays: entryCount(ledger, ['credit.cancel']),
    folds: verifyLedger(ledger).ok,
  };
}

describe('an owed handpay when the station’s credit is 0', () => {
  it('the press journals it once; pressed again at 0 credit, refused with nothing journalled; paid, the station is free and empty', async () => {
    const { t, requestTxId } = await owedTable();
    try {
      assert.equal(refusalOf(t, { name: 'cash-out' }), null, 'the press journals the owed handpay');
      assert.deepEqual(books(t.ledger), { cancelled: 30_000, handpaid: 0, credit: 0, handpays: 1, folds: true });
      assert.equal(t.floor.tickets.owedAt(1), null, 'no longer owed: the pending handpay holds the station');
      for (const via of [undefined, 'handpay' as const])
        assert.equal(refusalOf(t, { name: 'cash-out', ...(via ? { via } : {}) }), 'cash-out-pending', `again (${via ?? 'ticket'})`);
      assert.equal(t.floor.handpays.cashOut(1, requestTxId, 30_000).ok, false, 'asked again under its id at 0 credit: refused');
      assert.deepEqual(books(t.ledger), { cancelled: 30_000, handpaid: 0, credit: 0, handpays: 1, folds: true }, 'nothing more journalled');
      assert.equal(t.floor.handpays.pendingAt(1)?.amount, 30_000, 'the player is owed what the request held');
      assert.equal(t.floor.handpays.confirm(requestTxId, 'att-1', 'att-2').ok, true);
      assert.deepEqual(books(t.ledger), { cancelled: 30_000, handpaid: 30_000, credit: 0, handpays: 1, folds: true });
      assert.equal(refusalOf(t, { name: 'cash-out' }), 'cash-out-empty', 'paid: nothing left to cash out');
      const again = t.floor.handpays.cashOut(1, requestTxId, 30_000);
      assert.equal(again.ok ? null : again.refusal, 'cash-out-empty', 'the request’s handpay asked again after it was paid');
      assert.equal(t.floor.tickets.holdAt(1), null, 'the station is not held');
      assert.equal(t.floor.handpays.pendingAt(1), null, 'no handpay waiting there');
      assert.deepEqual(endOpenValidations(t.ledger), [], 'the restart rule finds nothing to pay');
      assert.deepEqual(books(t.ledger), { cancelled: 30_000, handpaid: 30_000, credit: 0, handpays: 1, folds: true });
    } finally {
      t.close();
    }
  });

  it('a restart after it was journalled and before it was paid: the same handpay pending, nothing added; paid after, a restart again pays nothing more', async () => {
    const { t, requestTxId } = await owedTable();
    let again: TestTable | null = null;
    let third: TestTable | null = null;
    try {
      assert.equal(refusalOf(t, { name: 'cash-out' }), null);
      t.stop();
      again = testTable({ dir: t.dir, config: { tickets: t.config.tickets, stations: t.config.stations } });
      assert.equal(again.floor.handpays.pendingAt(1)?.requestTxId, requestTxId);
      assert.deepEqual(books(again.ledger), { cancelled: 30_000, handpaid: 0, credit: 0, handpays: 1, folds: true });
      assert.equal(again.floor.handpays.cashOut(1, requestTxId, 30_000).ok, false, 'asked again after the restart: refused');
      assert.equal(again.floor.handpays.confirm(requestTxId, 'att-1', 'att-2').ok, true);
      assert.equal(again.floor.handpays.confirm(requestTxId, 'att-1', 'att-2').ok, false, 'never paid twice');
      again.stop();
      third = testTable({ dir: t.dir, config: { tickets: t.config.tickets, stations: t.config.stations } });
      assert.equal(third.floor.handpays.pendingAt(1), null);
      assert.deepEqual(endOpenValidations(third.ledger), []);
      assert.deepEqual(books(third.ledger), { cancelled: 30_000, handpaid: 30_000, credit: 0, handpays: 1, folds: true });
    } finally {
      (third ?? again ?? t).close();
    }
  });

  it('a restart while it is still owed (never journalled live): the restart rule journals it once, for the amount held, and it is paid once', async () => {
    const { t, requestTxId } = await owedTable();
    let again: TestTable | null = null;
    try {
      t.stop();
      again = testTable({ dir: t.dir, config: { tickets: t.config.tickets, stations: t.config.stations } });
      assert.equal(again.floor.handpays.pendingAt(1)?.amount, 30_000);
      assert.deepEqual(endOpenValidations(again.ledger), [], 'the rule run again pays nothing more');
      assert.equal(refusalOf(again, { name: 'cash-out' }), 'cash-out-pending');
      assert.deepEqual(books(again.ledger), { cancelled: 30_000, handpaid: 0, credit: 0, handpays: 1, folds: true });
      assert.equal(again.floor.handpays.confirm(requestTxId, 'att-1', 'att-2').ok, true);
      assert.equal(refusalOf(again, { name: 'cash-out' }), 'cash-out-empty');
      assert.deepEqual(books(again.ledger), { cancelled: 30_000, handpaid: 30_000, credit: 0, handpays: 1, folds: true });
    } finally {
      (again ?? t).close();
    }
  });
});
