// A ticket in that the acceptor leaves without an end (docs/tito.md, "A ticket in held after an
// acceptor's dispute"). Once STACK went for an approved ticket, only the acceptor's VEND VALID or
// its return ends the attempt; an acceptor that then says what its protocol forbids (the barcode
// changed after STACK, idle with no VEND VALID) is in dispute, and neither comes. Until this
// change the attempt stayed open for ever: the authority held the player's ticket pending for it,
// refused `pending-elsewhere` at every station, and nobody could end it. Now an attempt never
// approved is ended by the host (returned, `acceptor-fault`: STACK never went, no money moved),
// and an approved one is held for a person, who settles it stacked (found in the cashbox) or
// returned, journalled naming them before the answer, the authority told after.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { BillAcceptorEvent } from '../../hardware/billacceptor/types.js';
import { openLedger, type Ledger } from '../../ledger/index.js';
import { redeemApproved, redeemRequest } from '../../ledger/ticket-fixtures.js';
import { ticketInTxId, ticketStackedTxId } from '../../ledger/ticket-postings.js';
import { validationNumber } from '../../terms/validation-number.js';
import { simulatedTableConfig, TableConfig } from '../config/table-config.js';
import { silent } from '../testing/table-kit.js';
import type { TicketAuthority } from '../tickets/authority.js';
import { ticketRegister as register } from './test-ticket-register.js';
import { BillAcceptors } from './bill-acceptors.js';
import { tableCreditRule } from './credit-rule/table-credit-rule.js';
import { TicketIn } from './ticket-in.js';

const TICKET = validationNumber(31, 5);
const OTHER = validationNumber(31, 6);
const LAST4 = TICKET.slice(-4);
const TECH = ['Bo Chan (1002)'];

function tmpLedger(t: { after: (fn: () => void) => void }): { ledger: Ledger; dir: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ticket-in-held-'));
  const ledger = openLedger(dir, 'SIM-WAR-01');
  t.after(() => {
    ledger.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { ledger, dir };
}

/** One station with a simulated ID-003 acceptor; every event of it kept. */
function rig(t: { after: (fn: () => void | Promise<void>) => void }, authority: TicketAuthority) {
  const base = simulatedTableConfig('war');
  const config = TableConfig.parse({ ...base, stations: base.stations.slice(0, 1) });
  const { ledger } = tmpLedger(t);
  const tickets = new TicketIn({ config, ledger, log: silent, authority });
  const acceptors = new BillAcceptors({
    config,
    ledger,
    log: silent,
    credits: tableCreditRule({ config, ledger, log: silent, fault: () => undefined }),
    tickets,
  });
  const events: BillAcceptorEvent[] = [];
  acceptors.onEvent((_s, e) => void events.push(e));
  acceptors.start();
  t.after(() => acceptors.close());
  return { config, ledger, acceptors, tickets, events };
}

async function until(ok: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The ticket inserted at station 1 of a unit that, once told to STACK, reports another barcode in escrow (`escrow-changed`). */
async function disputedAfterStack(t: { after: (fn: () => void | Promise<void>) => void }) {
  const authority = register();
  const r = rig(t, authority);
  const sim = r.acceptors.simulator(1);
  assert.ok(sim?.insertTicket);
  await until(() => r.acceptors.statuses().some((s) => s.state === 'ready'), 'the acceptor ready');
  sim.insertTicket(TICKET, { swapTo: OTHER, swapAt: 'stacking' });
  await until(() => r.events.some((e) => e.type === 'protocolViolation'), 'the acceptor’s dispute');
  const approved = r.ledger.byTxId(ticketStackedTxId(TICKET));
  assert.equal(approved, undefined, 'never credited on the word of a unit in dispute');
  return { ...r, authority };
}

const payloadOf = (body: string | undefined): unknown => {
  const b: unknown = body ? JSON.parse(body) : null;
  return b && typeof b === 'object' && 'payload' in b ? b.payload : null;
};

/** The request id of the attempt whose request entry is at `seq` (a held row names its attempt so). */
function requestAt(ledger: Ledger, seq: number): string {
  const p = payloadOf(ledger.entry(seq)?.body);
  assert.ok(p && typeof p === 'object' && 'requestId' in p && typeof p.requestId === 'string', `no request at ${seq}`);
  return p.requestId;
}

describe('a ticket in the acceptor leaves without an end', () => {
  it('an acceptor in dispute after STACK leaves the approved attempt held for a person: listed, not credited, the authority neither confirmed nor cancelled', async (t) => {
    const { ledger, tickets, authority, events } = await disputedAfterStack(t);
    const violation = events.find((e) => e.type === 'protocolViolation');
    assert.equal(violation?.type === 'protocolViolation' ? violation.rule : null, 'escrow-changed');
    await until(() => tickets.held().length === 1, 'the attempt listed as held');
    const [held] = tickets.held();
    assert.ok(held);
    const approvedAt = ledger.byTxId(ticketInTxId(requestAt(ledger, held.seq), 'approved'));
    assert.deepEqual(held, { station: 1, seq: held.seq, last4: LAST4, amount: 2_500, since: approvedAt?.ts });
    assert.equal(ledger.credit(1), 0);
    assert.deepEqual(
      authority.words.map((w) => w.split(' ')[0]),
      ['redeem'],
      'the ticket stays pending at the authority until a person says where it is',
    );
    assert.equal(authority.state.get(TICKET), 'pending');
  });

  it('settled stacked by a person (found in the cashbox): credited once by ticket.redeem.stacked naming them, the authority confirmed after', async (t) => {
    const { ledger, tickets, authority } = await disputedAfterStack(t);
    await until(() => tickets.held().length === 1, 'the attempt listed as held');
    const [held] = tickets.held();
    assert.ok(held);
    const r = tickets.settleByHand({ station: 1, seq: held.seq, last4: LAST4 }, 'stacked', TECH);
    assert.deepEqual(r, { ok: true, station: 1, last4: LAST4, amount: 2_500, outcome: 'stacked' });
    const end = ledger.byTxId(ticketStackedTxId(TICKET));
    assert.equal(end?.type, 'ticket.redeem.stacked');
    const requestId = requestAt(ledger, held.seq);
    assert.deepEqual(payloadOf(end?.body), {
      requestId,
      validation: TICKET,
      station: 1,
      amount: 2_500,
      currency: 'MOP',
      settledBy: TECH,
    });
    assert.equal(ledger.credit(1), 2_500);
    assert.equal(ledger.meters('station:1').ticketsIn, 1);
    assert.deepEqual(tickets.held(), []);
    assert.deepEqual(authority.words.slice(1), [`confirm ${requestId}`]);
    assert.equal(authority.state.get(TICKET), 'redeemed');
    const again = tickets.settleByHand({ station: 1, seq: held.seq, last4: LAST4 }, 'stacked', TECH);
    assert.equal(again.ok, false, 'settled once');
    assert.equal(!again.ok && again.say.key, 'serviceRefusal.ticketInNoneHeld');
    const back = tickets.settleByHand({ station: 1, seq: held.seq, last4: LAST4 }, 'returned', TECH);
    assert.equal(back.ok, false, 'never both stacked and returned');
    assert.equal(ledger.byTxId(ticketInTxId(requestId, 'end')), undefined);
    assert.equal(ledger.credit(1), 2_500, 'credited once');
  });

  it('settled returned by a person (not in the cashbox): not credited, journalled acceptor-fault naming them, the authority cancelled, the ticket redeemable again', async (t) => {
    const { ledger, tickets, authority, acceptors } = await disputedAfterStack(t);
    await until(() => tickets.held().length === 1, 'the attempt listed as held');
    const [held] = tickets.held();
    assert.ok(held);
    const requestId = requestAt(ledger, held.seq);
    // The player's paper is refused everywhere while the attempt holds it.
    assert.equal((await authority.redeem({ requestId: 'elsewhere', validation: TICKET, station: 9, currency: 'MOP', limit: 5_000_000 })).kind, 'refused');
    const refused = tickets.settleByHand({ station: 1, seq: held.seq, last4: LAST4 === '0000' ? '0001' : '0000' }, 'returned', TECH);
    assert.equal(!refused.ok && refused.say.key, 'serviceRefusal.ticketNotThatOne', 'the number’s last four digits are checked');
    const r = tickets.settleByHand({ station: 1, seq: held.seq, last4: LAST4 }, 'returned', ['Ana Lei (1001)', 'Bo Chan (1002)']);
    assert.deepEqual(r, { ok: true, station: 1, last4: LAST4, amount: 2_500, outcome: 'returned' });
    const end = ledger.byTxId(ticketInTxId(requestId, 'end'));
    assert.equal(end?.type, 'ticket.redeem.returned');
    assert.deepEqual(payloadOf(end?.body), {
      requestId,
      validation: TICKET,
      station: 1,
      reason: 'acceptor-fault',
      settledBy: ['Ana Lei (1001)', 'Bo Chan (1002)'],
    });
    assert.equal(ledger.credit(1), 0);
    assert.deepEqual(tickets.held(), []);
    assert.equal(authority.words.at(-1), `cancel ${requestId}`);
    assert.equal(authority.state.get(TICKET), 'printed', 'redeemable again');
    // The player inserts it again (the unit honest now): paid once.
    acceptors.simulator(1)?.insertTicket?.(TICKET);
    await until(() => tickets.lastAt(1)?.state === 'credited', 'the ticket credited on its second insertion');
    assert.equal(ledger.credit(1), 2_500);
    assert.equal(ledger.meters('station:1').ticketsIn, 1);
  });

  it('a restart with open attempts behind the newest at a station: the unapproved one ended by the host (no STACK went), the approved one held, the newest left to the acceptor', async (t) => {
    const base = simulatedTableConfig('war');
    const config = TableConfig.parse({ ...base, stations: base.stations.slice(0, 1) });
    const { ledger } = tmpLedger(t);
    const old = {
      approved: 'a0c3a1d2-0000-4000-8000-000000000001',
      asked: 'a0c3a1d2-0000-4000-8000-000000000002',
      newest: 'a0c3a1d2-0000-4000-8000-000000000003',
    };
    // As a kill (and the code before this change) left the journal: an approved attempt (the
    // casino's system asked, over SAS) the acceptor disputed, one asked and never answered, then
    // the one in the acceptor's escrow now.
    ledger.append(redeemRequest(old.approved, TICKET, 1, 'sas'));
    ledger.append(redeemApproved(old.approved, TICKET, 1, 4_000, 'sas'));
    ledger.append(redeemRequest(old.asked, OTHER, 1));
    const NEWEST = validationNumber(31, 7);
    ledger.append(redeemRequest(old.newest, NEWEST, 1));
    const authority = register();
    const tickets = new TicketIn({ config, ledger, log: silent, authority });
    tickets.recover();
    const asked = ledger.byTxId(ticketInTxId(old.asked, 'end'));
    assert.equal(asked?.type, 'ticket.redeem.returned', 'the attempt never approved is ended by the host at the start');
    assert.deepEqual(payloadOf(asked?.body), { requestId: old.asked, validation: OTHER, station: 1, reason: 'acceptor-fault' });
    assert.deepEqual(authority.words, [`cancel ${old.asked}`]);
    assert.equal(ledger.byTxId(ticketInTxId(old.approved, 'end')), undefined, 'the approved one is not the host’s to end');
    assert.equal(ledger.byTxId(ticketInTxId(old.newest, 'end')), undefined, 'the newest is the acceptor’s to resolve');
    assert.deepEqual(tickets.pendingFor(1), { validationNumber: NEWEST, escrowId: old.newest, stackSent: false });
    const held = tickets.held();
    assert.deepEqual(
      held.map((h) => [h.station, h.last4, h.amount]),
      [[1, TICKET.slice(-4), 4_000]],
    );
    const [h] = held;
    assert.ok(h);
    assert.equal(tickets.settleByHand({ station: 1, seq: h.seq, last4: h.last4 }, 'returned', TECH).ok, true);
    // The label of the system asked is kept from the request (the ledger refuses an end without it).
    assert.deepEqual(payloadOf(ledger.byTxId(ticketInTxId(old.approved, 'end'))?.body), {
      requestId: old.approved,
      validation: TICKET,
      station: 1,
      authority: 'sas',
      reason: 'acceptor-fault',
      settledBy: TECH,
    });
  });

  it('a newer ticket at the station ends an older attempt the acceptor left unapproved, and holds an older approved one', async (t) => {
    const base = simulatedTableConfig('war');
    const config = TableConfig.parse({ ...base, stations: base.stations.slice(0, 1) });
    const { ledger } = tmpLedger(t);
    const authority = register();
    const tickets = new TicketIn({ config, ledger, log: silent, authority });
    const first = { validationNumber: TICKET, escrowId: 'b1c3a1d2-0000-4000-8000-000000000001' };
    assert.equal(await tickets.escrow(1, first), 'stack');
    // The acceptor never said stacked nor returned; the next barcode at the station is another ticket.
    const second = { validationNumber: OTHER, escrowId: 'b1c3a1d2-0000-4000-8000-000000000002' };
    ledger.append(redeemRequest(second.escrowId, OTHER, 1));
    const third = { validationNumber: validationNumber(31, 8), escrowId: 'b1c3a1d2-0000-4000-8000-000000000003' };
    assert.equal(await tickets.escrow(1, third), 'stack');
    assert.equal(ledger.byTxId(ticketInTxId(second.escrowId, 'end'))?.type, 'ticket.redeem.returned', 'never approved: ended by the host');
    assert.equal(ledger.byTxId(ticketInTxId(first.escrowId, 'end')), undefined);
    assert.deepEqual(
      tickets.held().map((h) => h.last4),
      [LAST4],
      'approved and left: held; the newest is the acceptor’s (STACK sent)',
    );
  });
});

describe('the attempts an acceptor left, remembered this run: bounded for a process that runs for weeks', () => {
  it('each is forgotten once its end is journalled (by the host or a person); while open it is never handed to the acceptor again', async (t) => {
    const ROUNDS = 150;
    const base = simulatedTableConfig('war');
    const config = TableConfig.parse({ ...base, stations: base.stations.slice(0, 1) });
    const { ledger } = tmpLedger(t);
    const tickets = new TicketIn({ config, ledger, log: silent, authority: register() });
    const left = () => (Reflect.get(tickets, 'left') as Set<string>).size;
    const id = (n: number) => `c1c3a1d2-0000-4000-8000-${String(n).padStart(12, '0')}`;
    const most: number[] = [];
    for (let i = 1; i <= ROUNDS; i++) {
      // An attempt the acceptor left unapproved (a lost link, a kill): the next ticket's barcode ends it.
      ledger.append(redeemRequest(id(10_000 + i), validationNumber(31, 10_000 + i), 1));
      const ticket = { validationNumber: validationNumber(31, 100 + i), escrowId: id(i) };
      assert.equal(await tickets.escrow(1, ticket), 'stack');
      assert.equal(ledger.byTxId(ticketInTxId(id(10_000 + i), 'end'))?.type, 'ticket.redeem.returned');
      // Approved, then jammed: held for a person, and not the acceptor's at its power-up report.
      tickets.acceptorLeft(1, ticket, 'jam');
      assert.equal(tickets.pendingFor(1), null, 'a held ticket is never handed to the acceptor again');
      const [h] = tickets.held();
      assert.ok(h);
      most.push(left());
      assert.equal(tickets.settleByHand({ station: 1, seq: h.seq, last4: h.last4 }, i % 2 ? 'stacked' : 'returned', TECH).ok, true);
      assert.equal(tickets.held().length, 0);
    }
    assert.equal(ledger.credit(1), 2_500 * Math.ceil(ROUNDS / 2), 'every other one found in the cashbox');
    assert.equal(Math.max(...most), 1, 'at most the held one while it is open');
    assert.equal(left(), 0, `none once every attempt has its end (${2 * ROUNDS} left)`);
  });
});
