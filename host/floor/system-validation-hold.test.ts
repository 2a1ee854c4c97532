// SAS system validation's hold (docs/sas.md, "System validation at a station"): from the moment a
// station's cash-out asks the casino system for a number until its ticket is journalled (or the
// cash-out falls back to a handpay), nothing else may move the station's credit — no bet, no
// second cash-out, no credit moved to another table (`move-credit`), none sent home
// (`leave-table`), no AFT out — because the ticket is for the amount the request held. The attack:
// each of those tried while the wait is open, and again in the window after the system's number
// is journalled and before the ticket is (the wait is over there, the issue not yet made).
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { layoutDefined, printerRig, type PrinterRig } from '../../hardware/printer/printer-rig.js';
import type { SasSystemValidationSide } from '../../hardware/sas/system-validation.js';
import { entryCount, newestEntriesOfType, verifyLedger } from '../../ledger/index.js';
import { validationTxId } from '../../terms/system-validation-terms.js';
import { endOpenValidations } from '../devices/sas-system-validation.js';
import { simulatedTableConfig } from '../config/table-config.js';
import { credit, submitted, testTable, type TestTable } from '../testing/table-kit.js';
import { refusingOnce } from '../testing/refusing-ledger.js';
import { unhandledDuring } from '../testing/unhandled.js';

const rigs: PrinterRig[] = [];
after(async () => {
  for (const r of rigs) await r.p.close();
});

type Command = Parameters<TestTable['hub']['commands']['submit']>[2];
const cmd = (t: TestTable, command: Command) => submitted(t.hub.commands.submit('station/1', t.hub.version('station/1'), command));
const refusalOf = (t: TestTable, command: Command): string | null => {
  const r = cmd(t, command);
  return r.ok ? null : (r.error.refusal ?? r.error.detail);
};

async function until(ok: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function systemTable(): Promise<{ t: TestTable; side: SasSystemValidationSide }> {
  const r = printerRig();
  rigs.push(r);
  await layoutDefined(r);
  const t = testTable({
    config: {
      tickets: { limit: 5_000_000, expiryDays: 90, authority: 'sas' },
      stations: simulatedTableConfig('war').stations.map((s) =>
        s.station === 1 ? { ...s, printer: 'sim', sas: { link: 'tcp:127.0.0.1:9', address: 1, validation: 'system' } } : s,
      ),
    },
    printers: { at: (s) => (s === 1 ? r.p : undefined) },
  });
  const system = t.floor.tickets.system;
  assert.ok(system, 'station 1 is validated by the system');
  const side = system.side(1, () => {});
  await until(() => t.floor.tickets.whyNot(1, 1) === null);
  return { t, side };
}

/** Everything that would move station 1's credit out: each must be refused while the cash-out is held. */
function attempts(t: TestTable): Record<string, string | null> {
  return {
    bet: refusalOf(t, { name: 'place-bet', spot: { bet: 'main' }, amount: 1_000 }),
    cashOut: refusalOf(t, { name: 'cash-out' }),
    handpay: refusalOf(t, { name: 'cash-out', via: 'handpay' }),
    moveCredit: refusalOf(t, { name: 'move-credit', to: 'bj-2', amount: 1_000 }),
    leaveTable: refusalOf(t, { name: 'leave-table' }),
  };
}

describe('the hold of a cash-out waiting for the casino system’s number', () => {
  it('while the wait is open: no bet, cash-out, handpay, move-credit or leave-table; the ticket is then for the amount held', async () => {
    const { t, side } = await systemTable();
    try {
      credit(t.ledger, 1, 30_000);
      assert.equal(cmd(t, { name: 'cash-out' }).ok, true);
      await until(() => side.pending() !== null);
      assert.deepEqual(attempts(t), {
        bet: 'station-locked',
        cashOut: 'cash-out-pending',
        handpay: 'cash-out-pending',
        moveCredit: 'station-locked',
        leaveTable: 'station-locked',
      });
      assert.equal(t.floor.tickets.holdAt(1)?.includes('waits for the casino system'), true, 'AFT out asks the same hold (host/start/sas-links.ts)');
      const waiting = t.hub.state('station/1');
      assert.ok(waiting.kind === 'station');
      assert.equal(waiting.cashout?.systemWait?.amount, 30_000, 'the screen is told the cash-out waits for the casino system');
      assert.equal(t.ledger.credit(1), 30_000, 'nothing moved');
      assert.equal(side.receive(12, '0000000000004801'), 0x00);
      await until(() => t.ledger.meters('station:1').ticketsOut === 1);
      assert.equal(t.ledger.meters('station:1').ticketsOutAmount, 30_000);
      assert.equal(t.ledger.credit(1), 0);
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('after the number is journalled and before the ticket is: still held (no bet, handpay or move in the window)', async () => {
    const { t, side } = await systemTable();
    try {
      credit(t.ledger, 1, 30_000);
      assert.equal(cmd(t, { name: 'cash-out' }).ok, true);
      await until(() => side.pending() !== null);
      assert.equal(side.receive(12, '0000000000004802'), 0x00);
      // The end is journalled; the ticket is not yet (the printer is asked first).
      assert.equal(entryCount(t.ledger, ['ticket.validation.end']), 1);
      assert.equal(entryCount(t.ledger, ['ticket.issue']), 0);
      assert.deepEqual(attempts(t), {
        bet: 'station-locked',
        cashOut: 'cash-out-pending',
        handpay: 'cash-out-pending',
        moveCredit: 'station-locked',
        leaveTable: 'station-locked',
      });
      assert.notEqual(t.floor.tickets.holdAt(1), null, 'AFT out refused too');
      await until(() => t.ledger.meters('station:1').ticketsOut === 1);
      assert.equal(t.ledger.meters('station:1').ticketsOutAmount, 30_000, 'the ticket is for the whole amount held');
      assert.equal(t.floor.handpays.pending().length, 0, 'no handpay');
      assert.equal(t.floor.tickets.holdAt(1), null, 'printed: the hold ends');
    } finally {
      t.close();
    }
  });

  it('a denial: the handpay goes under the request’s own id, so a restart finds it and asks nothing again', async () => {
    const { t, side } = await systemTable();
    try {
      credit(t.ledger, 1, 30_000);
      assert.equal(cmd(t, { name: 'cash-out' }).ok, true);
      await until(() => side.pending() !== null);
      assert.equal(side.receive(0, '0000000000000000'), 0x00, 'system id 00: denied');
      await until(() => t.floor.handpays.pendingAt(1) !== null);
      const [request] = newestEntriesOfType(t.ledger, 'ticket.validation.request', 1);
      const requestId = (JSON.parse(request?.body ?? '{}') as { payload: { requestId: string } }).payload.requestId;
      assert.equal(t.floor.handpays.pendingAt(1)?.requestTxId, validationTxId(requestId, 'handpay'));
      assert.equal(t.floor.handpays.pendingAt(1)?.amount, 30_000);
      assert.deepEqual(endOpenValidations(t.ledger), [], 'the restart rule finds it paid');
      const denied = t.hub.state('station/1');
      assert.ok(denied.kind === 'station');
      assert.equal(denied.cashout?.pending?.why, 'no-system-number', 'the screen says why: the casino system gave no number');
      assert.equal(denied.cashout?.systemWait ?? null, null, 'no longer waiting');
    } finally {
      t.close();
    }
  });
  it('a note in during the wait, then a denial: the handpay under the request’s id is the amount it held, the note stays', async () => {
    const { t, side } = await systemTable();
    try {
      credit(t.ledger, 1, 30_000);
      assert.equal(cmd(t, { name: 'cash-out' }).ok, true);
      await until(() => side.pending() !== null);
      credit(t.ledger, 1, 5_000);
      assert.equal(side.receive(0, '0000000000000000'), 0x00, 'system id 00: denied');
      await until(() => t.floor.handpays.pendingAt(1) !== null);
      assert.equal(t.floor.handpays.pendingAt(1)?.amount, 30_000, 'the amount the casino system was told');
      assert.equal(t.ledger.credit(1), 5_000, 'the note is still the player’s');
      assert.deepEqual(endOpenValidations(t.ledger), []);
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });
});

describe('a denial whose handpay the journal refuses (a full disk between the end and the handpay)', () => {
  /** Station 1 cashes out 30,000, the system denies it, and the journal refuses the handpay's `credit.cancel` once. */
  async function refusedHandpay(t: TestTable, side: SasSystemValidationSide): Promise<string> {
    credit(t.ledger, 1, 30_000);
    assert.equal(cmd(t, { name: 'cash-out' }).ok, true);
    await until(() => side.pending() !== null);
    refusingOnce(t.ledger, 'credit.cancel');
    assert.equal(side.receive(0, '0000000000000000'), 0x00, 'system id 00: denied');
    await until(() => entryCount(t.ledger, ['ticket.validation.end']) === 1);
    const [request] = newestEntriesOfType(t.ledger, 'ticket.validation.request', 1);
    return (JSON.parse(request?.body ?? '{}') as { payload: { requestId: string } }).payload.requestId;
  }

  it('is no unhandled rejection; the screen stops waiting; the station is held for the handpay the restart rule owes, and a second press journals it', async () => {
    const { t, side } = await systemTable();
    try {
      let requestId = '';
      const unhandled = await unhandledDuring(async () => {
        requestId = await refusedHandpay(t, side);
      });
      assert.deepEqual(unhandled, [], 'no unhandled rejection');
      assert.equal(t.floor.handpays.pendingAt(1), null, 'the journal took no handpay');
      assert.equal(t.ledger.credit(1), 30_000);
      const after = t.hub.state('station/1');
      assert.ok(after.kind === 'station');
      assert.equal(after.cashout?.systemWait ?? null, null, 'the screen no longer says it waits for the casino system');
      // The restart rule makes this request's handpay (docs/sas.md): until it is journalled, nothing moves the credit.
      assert.equal(refusalOf(t, { name: 'place-bet', spot: { bet: 'main' }, amount: 1_000 }), 'station-locked');
      assert.equal(refusalOf(t, { name: 'move-credit', to: 'bj-2', amount: 1_000 }), 'station-locked');
      assert.equal(refusalOf(t, { name: 'leave-table' }), 'station-locked');
      assert.match(t.floor.tickets.holdAt(1) ?? '', /handpay its cash-out owes/, 'AFT out asks the same hold');
      assert.equal(refusalOf(t, { name: 'cash-out' }), null, 'the cash-out pressed again journals the handpay the request owes');
      assert.equal(refusalOf(t, { name: 'cash-out', via: 'handpay' }), 'cash-out-pending', 'once');
      assert.equal(t.floor.handpays.pendingAt(1)?.requestTxId, validationTxId(requestId, 'handpay'), 'under the request’s own id');
      assert.equal(t.floor.handpays.pendingAt(1)?.amount, 30_000);
      assert.equal(entryCount(t.ledger, ['credit.cancel']), 1, 'one handpay (the second press found it pending)');
      assert.deepEqual(endOpenValidations(t.ledger), [], 'the restart rule finds it paid');
      const paid = t.hub.state('station/1');
      assert.ok(paid.kind === 'station');
      assert.equal(paid.cashout?.pending?.why, 'no-system-number', 'the screen says why');
      assert.equal(t.floor.tickets.holdAt(1), null, 'the handpay holds the station from here (handpays.pendingAt), not the ticket side');
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('a restart before the second press makes the same handpay: what the live hold kept is what the restart pays', async () => {
    const { t, side } = await systemTable();
    let again: TestTable | null = null;
    try {
      let requestId = '';
      assert.deepEqual(await unhandledDuring(async () => void (requestId = await refusedHandpay(t, side))), []);
      assert.notEqual(t.floor.tickets.holdAt(1), null, 'held while running');
      t.stop();
      again = testTable({ dir: t.dir, config: { tickets: t.config.tickets, stations: t.config.stations } });
      assert.equal(again.floor.handpays.pendingAt(1)?.requestTxId, validationTxId(requestId, 'handpay'));
      assert.equal(again.floor.handpays.pendingAt(1)?.amount, 30_000, 'the amount the request held: the credit the hold kept');
      assert.equal(again.ledger.credit(1), 0);
    } finally {
      (again ?? t).close();
    }
  });

  // A note taken while the station is held for the owed handpay: the request's id names 30,000 (what
  // the casino system was told), so its handpay is 30,000 on both paths; the note stays on the
  // station, cashable once the handpay is paid, never in the request's handpay nor paid twice.
  it('a note in while held: the live retry pays the request’s amount, the note stays cashable', async () => {
    const { t, side } = await systemTable();
    try {
      const requestId = await refusedHandpay(t, side);
      await until(() => t.floor.tickets.owedAt(1) !== null);
      credit(t.ledger, 1, 5_000);
      assert.equal(refusalOf(t, { name: 'cash-out' }), null, 'the press journals the owed handpay');
      const owed = t.floor.handpays.pendingAt(1);
      assert.equal(owed?.requestTxId, validationTxId(requestId, 'handpay'));
      assert.equal(owed?.amount, 30_000, 'the amount the casino system was told under this request');
      assert.equal(t.ledger.credit(1), 5_000, 'the note is still the player’s');
      assert.deepEqual(endOpenValidations(t.ledger), [], 'the restart rule finds nothing more to pay');
      assert.equal(t.ledger.credit(1), 5_000, 'nor takes the note');
      assert.equal(t.floor.handpays.confirm(owed?.requestTxId ?? '', 'att-1', 'att-2').ok, true);
      assert.equal(refusalOf(t, { name: 'cash-out', via: 'handpay' }), null, 'the note cashes out on its own');
      assert.equal(t.floor.handpays.pendingAt(1)?.amount, 5_000);
      assert.equal(t.ledger.credit(1), 0);
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('a note in while held, then a restart: the same handpay of the request’s amount, the note stays cashable', async () => {
    const { t, side } = await systemTable();
    let again: TestTable | null = null;
    try {
      const requestId = await refusedHandpay(t, side);
      await until(() => t.floor.tickets.owedAt(1) !== null);
      credit(t.ledger, 1, 5_000);
      t.stop();
      again = testTable({ dir: t.dir, config: { tickets: t.config.tickets, stations: t.config.stations } });
      const owed = again.floor.handpays.pendingAt(1);
      assert.equal(owed?.requestTxId, validationTxId(requestId, 'handpay'));
      assert.equal(owed?.amount, 30_000, 'the amount the casino system was told under this request');
      assert.equal(again.ledger.credit(1), 5_000, 'the note is still the player’s');
      assert.equal(again.floor.handpays.confirm(owed?.requestTxId ?? '', 'att-1', 'att-2').ok, true);
      assert.equal(submitted(again.hub.commands.submit('station/1', again.hub.version('station/1'), { name: 'cash-out', via: 'handpay' })).ok, true);
      assert.equal(again.floor.handpays.pendingAt(1)?.amount, 5_000);
      assert.equal(again.ledger.credit(1), 0);
      assert.equal(verifyLedger(again.ledger).ok, true);
    } finally {
      (again ?? t).close();
    }
  });
});
