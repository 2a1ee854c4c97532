// A ticket the printer cannot judge (a jam after its number was printed, a link lost mid-ticket)
// waits for a person (docs/tito.md, "A ticket held after a jam"): voided, the credit back on the
// station's meter, or confirmed printed and handed over. Journalled before it is acknowledged,
// naming who settled it; once settled, the printer's own late verdict never ends it a second time.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import pino from 'pino';
import { layoutDefined, printerRig, type PrinterRig } from '../../hardware/printer/printer-rig.js';
import { billCredit } from '../../ledger/fixtures.js';
import { Ledger } from '../../ledger/ledger.js';
import { ticketOutTxId } from '../../ledger/ticket-postings.js';
import { ticketsInPrint } from '../../ledger/ticket-queries.js';
import { validationNumber } from '../../terms/validation-number.js';
import type { PrintOutcome, TicketPrinter } from '../../hardware/printer/types.js';
import { openTilts } from '../../ledger/index.js';
import { simulatedTableConfig } from '../config/table-config.js';
import { TiltManager } from '../tilts/tilt-manager.js';
import { TicketOut } from './ticket-out.js';

const rigs: PrinterRig[] = [];
after(async () => {
  for (const r of rigs) await r.p.close();
});

const V = validationNumber(4242, 1);
const LAST4 = V.slice(-4);
const BY = ['Ana Lei (1001)', 'Bo Chan (1002)'];

/** Station 3 with 123,450 in credit whose cash-out ticket jammed after its number was printed: held. */
async function held(
  late?: (validationNumber: string) => PrintOutcome,
): Promise<{ l: Ledger; t: TicketOut; r: PrinterRig; changed: number[]; tilts: TiltManager }> {
  const r = printerRig();
  rigs.push(r);
  await layoutDefined(r);
  const l = Ledger.open({ file: ':memory:', terminalId: 'T-01' });
  l.append(billCredit(3, 123_450, 'bill-3'));
  const c = simulatedTableConfig();
  const changed: number[] = [];
  const log = pino({ level: 'silent' });
  const tilts = new TiltManager({ ledger: l, log });
  // The printer asked again after the settlement answers `late` (a verdict the test chooses), else as the simulator says.
  const asked: TicketPrinter = late
    ? {
        protocol: 'tcl',
        on: (f) => r.p.on(f),
        onFrame: (f) => r.p.onFrame(f),
        start: () => r.p.start(),
        get condition() {
          return r.p.condition;
        },
        get ready() {
          return r.p.ready;
        },
        print: (q) => r.p.print(q),
        resolve: (a) => Promise.resolve(late(a.validationNumber)),
        close: () => r.p.close(),
      }
    : r.p;
  const t = new TicketOut({
    config: { ...c, tickets: { ...c.tickets, machineId: 4242 } },
    ledger: l,
    log,
    printerAt: (s) => (s === 3 ? asked : undefined),
    faults: tilts,
    now: () => new Date('2026-11-26T10:00:00.000Z'),
    onChanged: (s) => changed.push(s),
  });
  r.sim.tell('jam-claims-printed', 1);
  const out = await t.cashOut(3);
  assert.equal(out.kind, 'unresolved', 'the printer could not say: the ticket is held');
  assert.equal(l.credit(3), 0);
  return { l, t, r, changed, tilts };
}

describe('a ticket held after a jam, settled by a person', () => {
  it('lists the held ticket by station, last four digits and amount, never the whole number', async () => {
    const { t } = await held();
    assert.deepEqual(t.held(), [{ station: 3, last4: LAST4, amount: 123_450, since: '2026-11-26T10:00:00.000Z' }]);
  });

  it('void: the credit goes back to the station, journalled as ticket.void naming both people, the station unlocked', async () => {
    const { l, t, changed } = await held();
    const r = t.settleByHand(3, LAST4, 'void', BY);
    assert.deepEqual(r, { ok: true, station: 3, last4: LAST4, amount: 123_450, outcome: 'void' });
    const end = l.byTxId(ticketOutTxId(V, 'end'));
    assert.equal(end?.type, 'ticket.void');
    const body: unknown = end ? JSON.parse(end.body) : null;
    assert.deepEqual(body && typeof body === 'object' && 'payload' in body ? body.payload : null, {
      validation: V,
      station: 3,
      reason: 'settled by hand: not printed',
      settledBy: BY,
    });
    assert.equal(l.credit(3), 123_450, 'the credit is back on the meter');
    assert.equal(l.meters('station:3').ticketsOut, undefined, 'not counted as a ticket out');
    assert.deepEqual(ticketsInPrint(l), []);
    assert.equal(t.isPrinting(3), false);
    assert.ok(changed.includes(3), 'the station screen is told');
    assert.equal(t.lastAt(3)?.state, 'voided');
  });

  it('printed: the ticket is paper owed by the floor, journalled as ticket.printed naming the person; the credit stays off the meter', async () => {
    const { l, t } = await held();
    const r = t.settleByHand(3, LAST4, 'printed', ['Ana Lei (1001)']);
    assert.equal(r.ok, true);
    const end = l.byTxId(ticketOutTxId(V, 'end'));
    assert.equal(end?.type, 'ticket.printed');
    assert.match(end?.body ?? '', /"settledBy":\["Ana Lei \(1001\)"\]/);
    assert.equal(l.credit(3), 0);
    assert.equal(l.meters('station:3').ticketsOutAmount, 123_450);
    assert.equal(t.lastAt(3)?.state, 'printed');
  });

  it('refuses, journalling nothing: no ticket held there, another ticket than the one named, settled already', async () => {
    const { l, t } = await held();
    const head = l.headOf().seq;
    const none = t.settleByHand(2, LAST4, 'void', BY);
    assert.equal(none.ok, false);
    const other = t.settleByHand(3, LAST4 === '0000' ? '0001' : '0000', 'void', BY);
    assert.equal(other.ok, false);
    assert.match(other.ok ? '' : other.detail, new RegExp(`…${LAST4}`));
    // Said by key to the screen (tests/host/service-refusal-words.test.ts reads them in each language).
    assert.deepEqual(
      [none, other].map((r) => !r.ok && r.say.key),
      ['serviceRefusal.ticketNoneInPrint', 'serviceRefusal.ticketNotThatOne'],
    );
    assert.equal(l.headOf().seq, head, 'nothing journalled');
    assert.equal(t.settleByHand(3, LAST4, 'printed', BY).ok, true);
    const twice = t.settleByHand(3, LAST4, 'void', BY);
    assert.equal(twice.ok, false, 'a ticket is settled once');
    assert.equal(!twice.ok && twice.say.key, 'serviceRefusal.ticketNoneInPrint');
    assert.equal(l.credit(3), 0, 'never printed and given back');
  });

  it('after a person settled it, the printer asked again (reconnected, restarted) never ends it a second time', async () => {
    const { l, t, r } = await held();
    const [ticket] = ticketsInPrint(l);
    assert.ok(ticket);
    assert.equal(t.settleByHand(3, LAST4, 'void', BY).ok, true);
    r.sim.faults.clearJam();
    // The printer's verdict on the old attempt comes late (asked before the settlement, answered after).
    const late = await t.settle(ticket);
    assert.equal(late.kind, 'voided', 'the journal’s end stands');
    assert.equal(l.byTxId(ticketOutTxId(V, 'end'))?.type, 'ticket.void');
    assert.equal(l.credit(3), 123_450, 'given back once');
    assert.equal(t.lastAt(3)?.state, 'voided');
  });

  it('settled printed, then the printer says not printed: a journalled fault at the station that a technician works and clears', async () => {
    const evidence = { started: false, validationPrinted: false, lastTemplate: null, faults: [], repeated: false };
    const { l, t, tilts } = await held((validationNumber) => ({ outcome: 'not-printed', reason: 'ignored', evidence, validationNumber }));
    const [ticket] = ticketsInPrint(l);
    assert.ok(ticket);
    assert.equal(t.settleByHand(3, LAST4, 'printed', ['Ana Lei (1001)']).ok, true);
    // The printer's verdict on the old attempt comes late: it never printed the ticket the person said was handed over.
    const late = await t.settle(ticket);
    assert.equal(late.kind, 'printed', 'the journal’s end stands: one end per ticket');
    assert.equal(l.credit(3), 0, 'no credit moves by itself: a person works it');
    const open = openTilts(l);
    assert.equal(open.length, 1, 'the disagreement is journalled as an open fault (tilt.raise), not only logged');
    assert.equal(open[0]?.kind, 'ticket-late-verdict');
    assert.equal(open[0]?.station, 3);
    assert.match(open[0]?.detail ?? '', new RegExp(`…${LAST4}.*settled printed.*Ana Lei \\(1001\\).*not printed`));
    assert.doesNotMatch(open[0]?.detail ?? '', new RegExp(V), 'the whole number never goes to a screen');
    // Said by key, as service mode's fault list shows a detail (a review of 6 December: English only, no reader saw which ticket).
    assert.equal(open[0]?.say?.key, 'tiltDetail.ticketLateVerdictPrinted');
    assert.deepEqual(open[0]?.say?.values, { lastDigits: LAST4, amount: 123_450, currency: 'MOP', by: 'Ana Lei (1001)', reason: 'ignored' });
    const [listed] = tilts.list();
    assert.equal(listed?.kind, 'ticket-late-verdict');
    assert.equal(listed?.clearable, true, 'a person clears it once they have worked it');
    assert.equal(tilts.clear('ticket-late-verdict', 3, { user: 'Ana Lei (1001)', role: 'auditor' }).ok, false, 'an auditor only reads');
    assert.equal(tilts.clear('ticket-late-verdict', 3, { user: 'Bo Chan (1002)', role: 'technician' }).ok, true);
    assert.deepEqual(openTilts(l), []);
  });

  it('a second late verdict at a station whose fault is still open is journalled too, worked and cleared after the first', async () => {
    const evidence = { started: false, validationPrinted: false, lastTemplate: null, faults: [], repeated: false };
    const { l, t, r } = await held((validationNumber) => ({ outcome: 'not-printed', reason: 'ignored', evidence, validationNumber }));
    const log = pino({ level: 'silent' });
    const [first] = ticketsInPrint(l);
    assert.ok(first);
    assert.equal(t.settleByHand(3, LAST4, 'printed', ['Ana Lei (1001)']).ok, true);
    await t.settle(first);
    // The same station's next ticket jams the same way and is settled the same way, its fault still open.
    r.sim.faults.clearJam();
    r.sim.takeTicket();
    l.append(billCredit(3, 20_000, 'bill-3b'));
    for (let i = 0; i < 400 && t.whyNot(3, 20_000) !== null; i++) await new Promise((res) => setTimeout(res, 5));
    r.sim.tell('jam-claims-printed', 1);
    const again = await t.cashOut(3);
    assert.equal(again.kind, 'unresolved', JSON.stringify(again));
    const [second] = ticketsInPrint(l);
    assert.ok(second && second.terms.validation !== V);
    const last4b = second.terms.validation.slice(-4);
    assert.equal(t.settleByHand(3, last4b, 'printed', ['Bo Chan (1002)']).ok, true);
    await t.settle(second);
    const open = openTilts(l);
    assert.equal(open.length, 2, 'each late verdict is journalled (tilt.raise), not only logged');
    assert.match(open[0]?.detail ?? '', new RegExp(`…${LAST4} of MOP\\$1,234\\.50 settled printed by Ana Lei`));
    assert.match(open[1]?.detail ?? '', new RegExp(`…${last4b} of MOP\\$200 settled printed by Bo Chan`));
    // The faults as a host rebuilt from the journal holds them: the oldest listed first, the next once it is cleared.
    const tilts = new TiltManager({ ledger: l, log });
    tilts.restore();
    const tech = { user: 'Bo Chan (1002)', role: 'technician' } as const;
    assert.deepEqual(
      tilts.list().map((f) => f.detail?.slice(0, 12)),
      [`ticket …${LAST4}`],
    );
    assert.equal(tilts.clear('ticket-late-verdict', 3, tech).ok, true);
    assert.deepEqual(
      tilts.list().map((f) => f.detail?.slice(0, 12)),
      [`ticket …${last4b}`],
      'the second comes up once the first is worked',
    );
    assert.equal(openTilts(l).length, 1);
    assert.equal(tilts.clear('ticket-late-verdict', 3, tech).ok, true);
    assert.deepEqual(openTilts(l), []);
    assert.deepEqual(tilts.list(), []);
  });

  it('settled void, then the printer says printed: the paper exists and is never paid, also a fault to work', async () => {
    const evidence = { started: true, validationPrinted: true, lastTemplate: null, faults: [], repeated: false };
    const { l, t } = await held((validationNumber) => ({ outcome: 'printed', evidence, validationNumber }));
    const [ticket] = ticketsInPrint(l);
    assert.ok(ticket);
    assert.equal(t.settleByHand(3, LAST4, 'void', BY).ok, true);
    assert.equal((await t.settle(ticket)).kind, 'voided');
    assert.equal(l.credit(3), 123_450, 'given back once');
    const open = openTilts(l);
    assert.equal(open[0]?.kind, 'ticket-late-verdict');
    assert.match(open[0]?.detail ?? '', /settled void.*printed/);
    assert.equal(open[0]?.say?.key, 'tiltDetail.ticketLateVerdictVoid');
  });

  it('refuses while the printer is still working on the ticket: only its verdict or a held ticket can be settled', async () => {
    const r = printerRig();
    rigs.push(r);
    await layoutDefined(r);
    const l = Ledger.open({ file: ':memory:', terminalId: 'T-01' });
    l.append(billCredit(3, 50_000, 'bill-3'));
    const c = simulatedTableConfig();
    const t = new TicketOut({
      config: { ...c, tickets: { ...c.tickets, machineId: 4242 } },
      ledger: l,
      log: pino({ level: 'silent' }),
      printerAt: (s) => (s === 3 ? r.p : undefined),
      faults: new TiltManager({ ledger: l, log: pino({ level: 'silent' }) }),
      now: () => new Date('2026-11-26T10:00:00.000Z'),
      onChanged: () => {},
    });
    const printing = t.cashOut(3);
    for (let i = 0; i < 400 && !t.isPrinting(3); i++) await new Promise((res) => setTimeout(res, 5));
    assert.ok(t.isPrinting(3));
    const r1 = t.settleByHand(3, LAST4, 'void', BY);
    assert.equal(r1.ok, false);
    assert.deepEqual(t.held(), []);
    assert.equal((await printing).kind, 'printed');
    assert.equal(l.byTxId(ticketOutTxId(V, 'end'))?.type, 'ticket.printed');
  });
});
