// Service mode's Tickets page (issue 47 item 5, docs/tito.md): the printers' state and the last
// tickets out and in, read from the journal, as the page's schema takes them; a ticket's number
// never leaves the host whole; the page looks again when a ticket is journalled or a printer changes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import type { PrinterCondition } from '../../../hardware/printer/condition.js';
import { printerCondition } from '../../../hardware/printer/test-condition.js';
import { billCredit } from '../../../ledger/fixtures.js';
import { Ledger } from '../../../ledger/ledger.js';
import { ticketInTxId, ticketOutTxId, ticketStackedTxId } from '../../../ledger/ticket-postings.js';
import { validationNumber } from '../../../terms/validation-number.js';
import { ServicePage } from '../../../protocol/index.js';
import { simulatedTableConfig } from '../../config/table-config.js';
import type { PrinterStatus } from '../../devices/printers.js';
import { changeSignal } from './changes.js';
import { ticketFaultDetail } from '../../floor/ticket-fault.js';
import { TiltManager } from '../../tilts/tilt-manager.js';
import { serviceSaid, type Said } from '../../../locales/said.js';
import { TicketIn } from '../../devices/ticket-in.js';
import { settleRefusal } from '../../floor/ticket-fault.js';
import { ticketRow, tickets } from './tickets.js';

const condition = (c: Partial<PrinterCondition>): PrinterCondition => printerCondition({ lastTemplate: '0', firmware: 'GURSA-1', ...c });

function fakePrinters(statuses: PrinterStatus[]) {
  const listeners = new Set<(station: number) => void>();
  return {
    statuses: () => statuses,
    onChange: (l: (station: number) => void) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    change: (station: number) => listeners.forEach((l) => l(station)),
  };
}

const AT = Date.parse('2026-11-26T10:00:00.000Z');

describe('the Tickets page of service mode', () => {
  it('shows each printer (paper low or out, jam, head and chassis open, since when) and the tickets out and in, each number by its last four digits', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
    const config = simulatedTableConfig('blackjack');
    const printers = fakePrinters([
      { station: 1, device: 'PR-1', spec: 'sim', state: 'ready', condition: condition({ paperLow: true }), firmware: 'GURSA-1', changedAt: AT },
      {
        station: 2,
        device: 'PR-2',
        spec: 'serial:/dev/ttyS1',
        state: 'fault',
        condition: condition({ faults: ['paper-jam', 'platen-up'], chassisOpen: true }),
        changedAt: AT + 1000,
      },
      { station: 3, device: 'PR-3', spec: 'tcp:10.0.0.9:9100', state: 'fault', condition: condition({ faults: ['paper-out'] }), changedAt: AT },
      { station: 4, device: 'PR-4', spec: 'usb:0x0f20:0x2001', state: 'connecting', condition: null, changedAt: null },
    ]);
    const changes = changeSignal();
    let looked = 0;
    changes.onChange(() => looked++);
    const page = tickets({ ledger, config, printers }, changes);

    const printed = validationNumber(7, 1);
    const theirs = validationNumber(9, 40);
    ledger.append(billCredit(1, 100_000, 'b1'));
    ledger.append({
      type: 'ticket.issue',
      payload: {
        validation: printed,
        machineId: 7,
        sequence: 1,
        station: 1,
        amount: 30_000,
        currency: 'MOP',
        issuedAt: '2026-11-26T10:00:00.000Z',
        expiresAt: '2027-02-24T10:00:00.000Z',
      },
      txId: ticketOutTxId(printed, 'issue'),
    });
    ledger.append({ type: 'ticket.printed', payload: { validation: printed, station: 1 }, txId: ticketOutTxId(printed, 'end') });
    const [r1, r2] = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'];
    ledger.append({ type: 'ticket.redeem.request', payload: { requestId: r1, validation: theirs, station: 2 }, txId: ticketInTxId(r1, 'request') });
    ledger.append({
      type: 'ticket.redeem.approved',
      payload: { requestId: r1, validation: theirs, station: 2, amount: 12_500, currency: 'MOP' },
      txId: ticketInTxId(r1, 'approved'),
    });
    ledger.append({
      type: 'ticket.redeem.stacked',
      payload: { requestId: r1, validation: theirs, station: 2, amount: 12_500, currency: 'MOP' },
      txId: ticketStackedTxId(theirs),
    });
    ledger.append({ type: 'ticket.redeem.request', payload: { requestId: r2, validation: theirs, station: 3 }, txId: ticketInTxId(r2, 'request') });
    ledger.append({
      type: 'ticket.redeem.returned',
      payload: { requestId: r2, validation: theirs, station: 3, reason: 'already-paid' },
      txId: ticketInTxId(r2, 'end'),
    });
    assert.equal(looked, 7, 'each ticket entry makes the page look again; the note does not');
    printers.change(2);
    assert.equal(looked, 8, 'a printer change too');

    const built = ServicePage.parse({ page: 'tickets', ...page.page(), held: page.held().map((h) => ({ ...h, twoPerson: false })), heldIn: [] });
    assert.equal(built.page, 'tickets');
    if (built.page !== 'tickets') return;
    assert.equal(built.limit, config.tickets.limit);
    assert.equal(built.machineId, 7, "the journal's last ticket names the table's validation id");
    assert.deepEqual(
      built.printers.map((p) => [p.device, p.state, p.paper, p.faults, p.chassisOpen, p.changedAt]),
      [
        ['PR-1', 'ready', 'low', [], false, '2026-11-26T10:00:00.000Z'],
        ['PR-2', 'fault', 'ok', ['paper-jam', 'platen-up'], true, '2026-11-26T10:00:01.000Z'],
        ['PR-3', 'fault', 'out', ['paper-out'], false, '2026-11-26T10:00:00.000Z'],
        ['PR-4', 'connecting', null, [], false, null],
      ],
    );
    assert.deepEqual(
      built.out.map((r) => [r.station, r.last4, r.amount, r.state]),
      [[1, printed.slice(-4), 30_000, 'printed']],
    );
    assert.deepEqual(
      built.in.map((r) => [r.station, r.last4, r.amount, r.state, r.returned]),
      [
        [3, theirs.slice(-4), null, 'returned', 'already-paid'],
        [2, theirs.slice(-4), 12_500, 'redeemed', undefined],
      ],
    );
    // A ticket is paid to whoever holds its number: no whole number is in what the screen receives.
    const sent = JSON.stringify(built);
    for (const n of [printed, theirs]) assert.equal(sent.includes(n.slice(0, 14)), false, `${n} goes only as its last four digits`);
    page.dispose();
    ledger.close();
  });

  it("a void's reason goes to the page as a code the screen words (a review of 6 December: the journal's English went raw)", () => {
    const v = validationNumber(7, 3);
    const row = (reason: string) =>
      ticketRow({
        direction: 'out',
        seq: 9,
        ts: '2026-11-26T10:00:00.000Z',
        since: '2026-11-26T10:00:00.000Z',
        station: 2,
        validation: v,
        amount: 100,
        state: 'voided',
        reason,
      }).voided;
    assert.deepEqual(['not printed: printer-fault', 'not printed: ignored', 'settled by hand: not printed', 'not printed: something new'].map(row), [
      'printer-fault',
      'ignored',
      'by-hand',
      'other',
    ]);
  });

  it('without printers or tickets: an empty page that the schema takes, and no validation id yet', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-8' });
    const page = tickets({ ledger, config: simulatedTableConfig('baccarat') }, changeSignal());
    const built = ServicePage.parse({ page: 'tickets', ...page.page(), held: page.held().map((h) => ({ ...h, twoPerson: false })), heldIn: [] });
    assert.deepEqual(built, { page: 'tickets', limit: 5_000_000, machineId: null, printers: [], held: [], heldIn: [], faults: [], out: [], in: [] });
    page.dispose();
    ledger.close();
  });

  it('lists each open ticket fault (a late printer verdict against a settlement) from the journal until it is cleared', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-9' });
    const changes = changeSignal();
    let looked = 0;
    changes.onChange(() => looked++);
    const page = tickets({ ledger, config: simulatedTableConfig('baccarat') }, changes);
    const tilts = new TiltManager({ ledger, log: pino({ level: 'silent' }) });
    const detail = ticketFaultDetail({ last4: '4321', amount: 50_000, settled: 'printed', by: 'Ana Lei (1001)', printer: 'not-printed', reason: 'ignored' });
    tilts.raise('ticket-late-verdict', { station: 2, detail });
    tilts.raise('bill-jam', { station: 2 });
    assert.equal(looked, 2, 'a fault raised makes the page look again');
    const built = ServicePage.parse({ page: 'tickets', ...page.page(), held: [], heldIn: [] });
    assert.equal(built.page, 'tickets');
    if (built.page !== 'tickets') return;
    assert.deepEqual(
      built.faults.map(({ since: _, ...f }) => f),
      [{ station: 2, last4: '4321', amount: 50_000, settled: 'printed', by: 'Ana Lei (1001)', printer: 'not-printed', reason: 'ignored' }],
      'only the ticket faults, read back from their journalled detail',
    );
    assert.equal(tilts.clear('ticket-late-verdict', 2, { user: 'Bo Chan (1002)', role: 'technician' }).ok, true);
    const after = ServicePage.parse({ page: 'tickets', ...page.page(), held: [], heldIn: [] });
    assert.deepEqual(after.page === 'tickets' ? after.faults : null, [], 'gone once worked and cleared');
    page.dispose();
    ledger.close();
  });

  it('lists a ticket fault journalled by key (its say, a review of 6 December) as well as one journalled in English only', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-9' });
    const page = tickets({ ledger, config: simulatedTableConfig('baccarat') }, changeSignal());
    const tilts = new TiltManager({ ledger, log: pino({ level: 'silent' }) });
    const values = { lastDigits: '8765', amount: 20_000, currency: 'MOP', by: 'Bo Chan (1002)' };
    tilts.raise('ticket-late-verdict', { station: 4, say: { key: 'tiltDetail.ticketLateVerdictVoid', values } as Said });
    const built = ServicePage.parse({ page: 'tickets', ...page.page(), held: [], heldIn: [] });
    assert.deepEqual(built.page === 'tickets' ? built.faults.map(({ since: _, ...f }) => f) : null, [
      { station: 4, last4: '8765', amount: 20_000, settled: 'void', by: 'Bo Chan (1002)', printer: 'printed' },
    ]);
    page.dispose();
    ledger.close();
  });

  // docs/tito.md, "A ticket in held after an acceptor's dispute": the Tickets page lists each one
  // the acceptor left after its approval and settles it by hand, its end journalled first.
  it('lists each ticket in held for a person and settles it: its end journalled naming them, then the service action, then the screen told', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-10' });
    const config = simulatedTableConfig('baccarat');
    const changes = changeSignal();
    const theirs = validationNumber(12, 9);
    const r1 = '0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6';
    ledger.append({ type: 'ticket.redeem.request', payload: { requestId: r1, validation: theirs, station: 3 }, txId: ticketInTxId(r1, 'request') });
    ledger.append({
      type: 'ticket.redeem.approved',
      payload: { requestId: r1, validation: theirs, station: 3, amount: 12_500, currency: 'MOP' },
      txId: ticketInTxId(r1, 'approved'),
    });
    const ticketsIn = new TicketIn({ config, ledger, log: pino({ level: 'silent' }), authority: null });
    const out = { held: () => [], settleByHand: () => settleRefusal(serviceSaid('ticketNoneInPrint', { station: 1 })) };
    const page = tickets({ ledger, config, floor: { tickets: out, ticketsIn } }, changes);
    const [held] = page.heldIn();
    assert.ok(held);
    assert.deepEqual({ ...held, since: '' }, { station: 3, seq: 1, last4: theirs.slice(-4), amount: 12_500, since: '' });
    const built = ServicePage.parse({ page: 'tickets', ...page.page(), held: [], heldIn: page.heldIn().map((h) => ({ ...h, twoPerson: false })) });
    assert.equal(JSON.stringify(built).includes(theirs.slice(0, 14)), false, 'only the last four digits go to the screen');
    assert.deepEqual(
      built.page === 'tickets' && built.in.map((t) => [t.last4, t.amount, t.state]),
      [[theirs.slice(-4), 12_500, 'held']],
      'the last tickets in say it is held, not being stacked',
    );
    const wrong = page.settleIn({ station: 3, seq: held.seq + 5, last4: held.last4 }, 'stacked', ['Bo Chan (1002)']);
    assert.equal(!wrong.ok && wrong.notice?.key, 'serviceRefusal.ticketInNoneHeld');
    const head = ledger.headOf().seq;
    const r = page.settleIn({ station: 3, seq: held.seq, last4: held.last4 }, 'stacked', ['Ana Lei (1001)', 'Bo Chan (1002)']);
    assert.deepEqual(r, {
      ok: true,
      key: 'service.done.ticketInStacked',
      values: { station: 3, last4: theirs.slice(-4), amount: 12_500, currency: 'MOP' },
    });
    const [end, act] = [ledger.entry(head + 1), ledger.entry(head + 2)];
    assert.equal(end?.type, 'ticket.redeem.stacked', 'the credit first');
    assert.match(end?.body ?? '', /"settledBy":\["Ana Lei \(1001\)","Bo Chan \(1002\)"\]/);
    assert.equal(act?.type, 'service.action');
    assert.match(act?.body ?? '', /"action":"ticket-in-settle".*"confirmedBy":"Bo Chan \(1002\)"/);
    assert.equal(ledger.credit(3), 12_500);
    assert.deepEqual(page.heldIn(), []);
    assert.equal(page.page().in[0]?.state, 'redeemed');
    page.dispose();
    ledger.close();
  });
});
