// A station's screen callback (`onChanged`) that throws is no reason for money to move otherwise.
// Before (a review of 6 December), a throw from it right after the ticket's issue was journalled
// came out of the driver's onSend, which the driver reads as the journal refusing the attempt: no
// print command went, the cash-out answered `no-ticket` (the caller's handpay fallback) while the
// ticket stayed journalled, in print, its station locked with no `ticket-held` fault; and a throw
// after a ticket's end, or after a person's settlement, hid the end that was journalled.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import pino from 'pino';
import { layoutDefined, printerRig, type PrinterRig } from '../../hardware/printer/printer-rig.js';
import { billCredit } from '../../ledger/fixtures.js';
import { Ledger } from '../../ledger/ledger.js';
import { ticketOutTxId } from '../../ledger/ticket-postings.js';
import { ticketsInPrint } from '../../ledger/ticket-queries.js';
import { validationNumber } from '../../terms/validation-number.js';
import { simulatedTableConfig } from '../config/table-config.js';
import type { TicketAuthority } from '../tickets/authority.js';
import { TiltManager } from '../tilts/tilt-manager.js';
import { TicketOut } from './ticket-out.js';

const rigs: PrinterRig[] = [];
after(async () => {
  for (const r of rigs) await r.p.close();
});

const V = validationNumber(4242, 1);

async function withThrowingScreen(): Promise<{ t: TicketOut; r: PrinterRig; l: Ledger; tilts: TiltManager; heard: string[] }> {
  const r = printerRig();
  rigs.push(r);
  await layoutDefined(r);
  const l = Ledger.open({ file: ':memory:', terminalId: 'T-01' });
  l.append(billCredit(3, 123_450, 'bill-3'));
  const c = simulatedTableConfig();
  const tilts = new TiltManager({ ledger: l, log: pino({ level: 'silent' }) });
  const heard: string[] = [];
  const authority: TicketAuthority = {
    machineId: async () => ({ ok: true, machineId: 4242 }),
    registerIssue: async () => (heard.push('issue'), { ok: true }),
    registerPrinted: async () => (heard.push('printed'), { ok: true }),
    registerVoid: async () => (heard.push('void'), { ok: true }),
    redeem: async (q) => ({ kind: 'refused', requestId: q.requestId, reason: 'offline' }),
    confirm: async () => ({ ok: true }),
    cancel: async () => ({ ok: true }),
  };
  const t = new TicketOut({
    authority,
    config: { ...c, tickets: { ...c.tickets, machineId: 4242 } },
    ledger: l,
    log: pino({ level: 'silent' }),
    printerAt: (s) => (s === 3 ? r.p : undefined),
    faults: tilts,
    now: () => new Date('2026-11-26T10:00:00.000Z'),
    onChanged: () => {
      throw new Error('the screen is gone');
    },
  });
  return { t, r, l, tilts, heard };
}

async function until(ok: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((done) => setTimeout(done, 5));
  }
}

describe("a station's screen callback that throws (a review of 6 December)", () => {
  it('after the issue is journalled: the ticket still prints, no handpay fallback, the authority told', async () => {
    const { t, r, l, heard } = await withThrowingScreen();
    const out = await t.cashOut(3);
    assert.equal(out.kind, 'printed', JSON.stringify(out));
    assert.deepEqual(
      r.sim.paper.map((p) => [p.barcode, p.whole]),
      [[V, true]],
    );
    assert.equal(l.byTxId(ticketOutTxId(V, 'end'))?.type, 'ticket.printed');
    assert.equal(l.credit(3), 0);
    assert.equal(ticketsInPrint(l).length, 0);
    await until(() => heard.length === 2);
    assert.deepEqual(heard, ['issue', 'printed']);
  });

  it('a ticket the printer cannot judge is held with its fault, and a person settles it: answered as settled', async () => {
    const { t, r, l, tilts } = await withThrowingScreen();
    r.sim.tell('jam-claims-printed', 1);
    assert.equal((await t.cashOut(3)).kind, 'unresolved');
    assert.deepEqual(
      tilts
        .list()
        .filter((f) => f.kind === 'ticket-held')
        .map((f) => f.station),
      [3],
      'the floor hears of it',
    );
    const settled = t.settleByHand(3, V.slice(-4), 'void', ['Bo Chan (1002)']);
    assert.equal(settled.ok, true, JSON.stringify(settled));
    assert.equal(l.byTxId(ticketOutTxId(V, 'end'))?.type, 'ticket.void');
    assert.equal(l.credit(3), 123_450);
  });
});
