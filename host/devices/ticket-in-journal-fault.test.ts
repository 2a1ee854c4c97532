// A ticket in whose approval (or end) the journal refuses (docs/tito.md, "A journal that refuses
// the approval"; review finding M1). The authority approved the ticket, so it holds it pending for
// this attempt; the journal refused `ticket.redeem.approved` (a full disk), so STACK never went and
// the station can never credit it. Until this change the escrow's throw became the driver's own
// return (`host`), read as "journalled when it answered": nothing was, the attempt stayed open
// with no end, the authority was never told to cancel, and the player's ticket was refused
// `pending-elsewhere` at every other table until the next ticket at that station or a restart.
// Now the authority is told to cancel at once (no approval journalled: nothing can credit it
// here), and the end is journalled (`acceptor-fault`, what a start journals over the same journal),
// at once if the journal takes it, else at the station's next ticket; an attempt whose approval
// was journalled and whose end is refused is held for a person, as a start holds it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import pino, { type Logger as PinoLogger } from 'pino';
import { openLedger, openTilts, verifyLedger, type Ledger } from '../../ledger/index.js';
import { redeemRequest } from '../../ledger/ticket-fixtures.js';
import { ticketInTxId, ticketStackedTxId } from '../../ledger/ticket-postings.js';
import { ticketsInOpen } from '../../ledger/ticket-queries.js';
import { validationNumber } from '../../terms/validation-number.js';
import { simulatedTableConfig, TableConfig } from '../config/table-config.js';
import { refusingOnce, refusingUntilReleased } from '../testing/refusing-ledger.js';
import { silent } from '../testing/table-kit.js';
import type { TicketAuthority } from '../tickets/authority.js';
import { ticketRegister as register } from './test-ticket-register.js';
import { BillAcceptors } from './bill-acceptors.js';
import { tableCreditRule } from './credit-rule/table-credit-rule.js';
import { TiltManager } from '../tilts/tilt-manager.js';
import { TicketIn } from './ticket-in.js';

const TICKET = validationNumber(31, 5);
const OTHER = validationNumber(31, 6);
const TECH = ['Bo Chan (1002)'];
const id = (n: number) => `b1c3a1d2-0000-4000-8000-${String(n).padStart(12, '0')}`;

function station1(t: { after: (fn: () => void) => void }, over: Record<string, unknown> = {}) {
  const base = simulatedTableConfig('war');
  const config = TableConfig.parse({ ...base, ...over, stations: base.stations.slice(0, 1) });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ticket-in-fault-'));
  const ledger = openLedger(dir, 'SIM-WAR-01');
  t.after(() => {
    ledger.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { config, ledger };
}

/** The escrow asked as the ID-003 driver asks it: a throw is its own return, `host`. */
async function insert(tickets: TicketIn, validationNumber: string, escrowId: string): Promise<'stack' | 'return' | 'threw'> {
  const ticket = { validationNumber, escrowId };
  try {
    const d = await tickets.escrow(1, ticket);
    if (d === 'return') tickets.deviceReturned(1, ticket, 'host');
    return d;
  } catch {
    tickets.deviceReturned(1, ticket, 'host');
    return 'threw';
  }
}

/** The same ticket at another table of the floor: the authority's answer. */
async function elsewhere(authority: TicketAuthority, config: TableConfig, validation: string) {
  const r = await authority.redeem({ requestId: id(999), validation, station: 9, currency: config.currency, limit: 1e9 } as never);
  return r.kind === 'approved' ? 'approved' : r.reason;
}

function endOf(ledger: Ledger, requestId: string): unknown {
  const e = ledger.byTxId(ticketInTxId(requestId, 'end'));
  return e ? { type: e.type, reason: (JSON.parse(e.body) as { payload: { reason?: string } }).payload.reason } : null;
}

describe('ticket in: its approval refused by the journal', () => {
  it('the authority told to cancel at once, the attempt ended, the ticket back, nothing credited; a restart finds nothing open', async (t) => {
    const { config, ledger } = station1(t);
    const authority = register();
    const tickets = new TicketIn({ config, ledger, log: silent, authority });
    refusingOnce(ledger, 'ticket.redeem.approved');
    assert.equal(await insert(tickets, TICKET, id(1)), 'threw', 'the journal’s refusal is the escrow’s fault: the driver returns the ticket');
    assert.ok(authority.words.includes(`cancel ${id(1)}`), `the authority told to cancel: ${authority.words.join(', ')}`);
    assert.equal(authority.state.get(TICKET), 'printed');
    assert.equal(await elsewhere(authority, config, TICKET), 'approved', 'the player’s ticket is good at another table at once');
    assert.deepEqual(endOf(ledger, id(1)), { type: 'ticket.redeem.returned', reason: 'acceptor-fault' }, 'the attempt ended');
    assert.equal(ledger.byTxId(ticketInTxId(id(1), 'approved')), undefined);
    assert.equal(ledger.byTxId(ticketStackedTxId(TICKET)), undefined, 'nothing credited');
    assert.deepEqual(((s) => s && { state: s.state, reason: s.state === 'returned' ? s.reason : null })(tickets.lastAt(1)), {
      state: 'returned',
      reason: 'acceptor-fault',
    });
    assert.equal(tickets.pendingFor(1), null, 'no phantom escrow handed to the driver');
    const again = new TicketIn({ config, ledger, log: silent, authority });
    again.recover();
    assert.equal(again.pendingFor(1), null, 'a start over the same journal hands no phantom escrow either');
    assert.deepEqual(again.held(), []);
  });

  it('the approval and its end both refused: cancelled at once, no phantom this run, the end journalled at the station’s next ticket', async (t) => {
    const { config, ledger } = station1(t);
    const authority = register();
    const tickets = new TicketIn({ config, ledger, log: silent, authority });
    refusingOnce(ledger, 'ticket.redeem.approved');
    refusingOnce(ledger, 'ticket.redeem.returned');
    assert.equal(await insert(tickets, TICKET, id(1)), 'threw');
    assert.equal(authority.state.get(TICKET), 'printed', 'cancelled though its end could not be journalled (no approval journalled: nothing credits it here)');
    assert.equal(endOf(ledger, id(1)), null, 'the journal took no end');
    assert.equal(tickets.pendingFor(1), null, 'not handed to the driver again this run: the unit gave it back');
    assert.deepEqual(tickets.held(), [], 'never approved in the journal: nobody is asked to settle it');
    // The journal takes writes again: the next ticket at that station ends the older attempt first.
    assert.equal(await insert(tickets, OTHER, id(2)), 'stack');
    assert.deepEqual(endOf(ledger, id(1)), { type: 'ticket.redeem.returned', reason: 'acceptor-fault' });
    assert.deepEqual(
      ticketsInOpen(ledger, 1).map((p) => p.requestId),
      [id(2)],
    );
    assert.equal(ledger.byTxId(ticketStackedTxId(TICKET)), undefined, 'nothing credited for the first');
  });

  it('a start over a journal that refused both: the unit’s first report ends it, as before (a kill before the answer leaves the same journal)', async (t) => {
    const { config, ledger } = station1(t);
    const authority = register();
    const tickets = new TicketIn({ config, ledger, log: silent, authority });
    const append = ledger.append;
    refusingOnce(ledger, 'ticket.redeem.approved');
    refusingOnce(ledger, 'ticket.redeem.returned');
    await insert(tickets, TICKET, id(1));
    ledger.append = append; // the disk freed before the start
    const again = new TicketIn({ config, ledger, log: silent, authority });
    again.recover();
    const p = again.pendingFor(1);
    assert.deepEqual(p, { validationNumber: TICKET, escrowId: id(1), stackSent: false }, 'never STACK: the driver may only return it');
    again.deviceReturned(1, p, 'power-up');
    assert.deepEqual(endOf(ledger, id(1)), { type: 'ticket.redeem.returned', reason: 'acceptor-fault' });
    assert.equal(ledger.byTxId(ticketStackedTxId(TICKET)), undefined);
  });
});

describe('ticket in: its end refused by the journal', () => {
  it('the credit-limit return after the approval: cancelled though refused, ended at the next ticket', async (t) => {
    const { config, ledger } = station1(t, { creditLimit: 1_000 });
    const authority = register(2_500);
    const tickets = new TicketIn({ config, ledger, log: silent, authority });
    refusingOnce(ledger, 'ticket.redeem.returned');
    assert.equal(await insert(tickets, TICKET, id(1)), 'threw');
    assert.equal(authority.state.get(TICKET), 'printed', 'the approval cancelled (`credit-limit`): the ticket good elsewhere');
    assert.equal(await elsewhere(authority, config, TICKET), 'approved');
    assert.equal(tickets.pendingFor(1), null);
    assert.equal(await insert(tickets, OTHER, id(2)), 'return', 'still at its limit');
    assert.deepEqual(endOf(ledger, id(1)), { type: 'ticket.redeem.returned', reason: 'acceptor-fault' });
  });

  it('an attempt the acceptor left (a kill between the request and the answer): cancelled though refused, not skipped for the rest of the run', async (t) => {
    const { config, ledger } = station1(t);
    const authority = register();
    // The authority approved the attempt; the kill came before its approval was journalled.
    await authority.redeem({ requestId: id(1), validation: TICKET, station: 1, currency: config.currency, limit: 1e9 } as never);
    ledger.append(redeemRequest(id(1), TICKET, 1));
    const tickets = new TicketIn({ config, ledger, log: silent, authority });
    refusingOnce(ledger, 'ticket.redeem.returned');
    assert.equal(await insert(tickets, OTHER, id(2)), 'return', 'the older attempt’s end refused: the station closed, the new ticket goes back unasked');
    assert.equal(authority.state.get(TICKET), 'printed', 'the older attempt cancelled at the authority at once');
    assert.equal(endOf(ledger, id(1)), null);
    assert.equal(await insert(tickets, OTHER, id(3)), 'stack', 'the next ticket: the journal takes writes again');
    assert.deepEqual(endOf(ledger, id(1)), { type: 'ticket.redeem.returned', reason: 'acceptor-fault' }, 'ended, not skipped');
    assert.deepEqual(
      ticketsInOpen(ledger, 1).map((p) => p.requestId),
      [id(3)],
    );
  });

  it('an approved attempt the acceptor returned, its end refused: not cancelled, held for a person at once (as a start holds it)', async (t) => {
    const { config, ledger } = station1(t);
    const authority = register();
    const tickets = new TicketIn({ config, ledger, log: silent, authority });
    const ticket = { validationNumber: TICKET, escrowId: id(1) };
    assert.equal(await tickets.escrow(1, ticket), 'stack');
    refusingOnce(ledger, 'ticket.redeem.returned');
    assert.throws(() => tickets.deviceReturned(1, ticket, 'device'), /SQLITE_FULL/);
    assert.equal(authority.state.get(TICKET), 'pending', 'its approval is journalled: only a person may end it (a cancel now could pay it twice)');
    assert.ok(!authority.words.includes(`cancel ${id(1)}`));
    const live = tickets.held().map((h) => h.seq);
    assert.equal(live.length, 1, 'held for a person now, not at the next start');
    const again = new TicketIn({ config, ledger, log: silent, authority });
    again.recover();
    assert.deepEqual(
      again.held().map((h) => h.seq),
      live,
      'a start holds the same',
    );
    const h = tickets.held()[0];
    assert.ok(h);
    assert.equal(tickets.settleByHand({ station: 1, seq: h.seq, last4: h.last4 }, 'returned', TECH).ok, true);
    assert.equal(authority.state.get(TICKET), 'printed');
    assert.equal(ledger.byTxId(ticketStackedTxId(TICKET)), undefined);
  });
});

/** A logger whose lines a test reads. */
function capturing(): { log: PinoLogger; lines: { level: number; msg: string; alarm?: string; station?: number }[] } {
  const lines: { level: number; msg: string; alarm?: string; station?: number }[] = [];
  const log = pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s) as (typeof lines)[number]) });
  return { log, lines };
}

const cancels = (authority: { words: string[] }, requestId: string) => authority.words.filter((w) => w === `cancel ${requestId}`).length;
/** Any write of the table's: the journal's next commit once the disk is freed. */
const anyWrite = (ledger: Ledger) => ledger.append({ type: 'tilt.raise', payload: { kind: 'disk-low' } });
const tick = () => new Promise((r) => setImmediate(r));

describe('ticket in: a journal that keeps refusing the end (a full disk at start)', () => {
  it('a start comes up: the station’s ticket in closed (a ticket there goes back, nobody asked), an alarm logged, the end journalled at the journal’s next commit', async (t) => {
    const { config, ledger } = station1(t);
    const authority = register();
    // A kill left an attempt the authority approved (its approval never journalled) behind a newer one at the station.
    await authority.redeem({ requestId: id(1), validation: TICKET, station: 1, currency: config.currency, limit: 1e9 } as never);
    ledger.append(redeemRequest(id(1), TICKET, 1));
    ledger.append(redeemRequest(id(2), OTHER, 1));
    const release = refusingUntilReleased(ledger);
    const { log, lines } = capturing();
    const tickets = new TicketIn({ config, ledger, log, authority });
    assert.doesNotThrow(() => tickets.recover(), 'a full disk at start does not stop the host');
    assert.equal(authority.state.get(TICKET), 'printed', 'the older attempt cancelled at once: the ticket good at another table');
    const alarm = lines.find((l) => l.alarm === 'ticket-in-closed');
    assert.ok(alarm && alarm.level >= 50 && alarm.station === 1, `an error with an alarm for the technician: ${JSON.stringify(lines)}`);
    const THIRD = validationNumber(31, 7);
    assert.equal(await insert(tickets, THIRD, id(3)), 'return', 'the station takes no ticket while the end is owed');
    assert.ok(!authority.words.includes(`redeem ${id(3)}`), 'the authority not asked: nothing held pending for it');
    assert.deepEqual(((s) => s && { state: s.state, validation: s.validation })(tickets.lastAt(1)), { state: 'returned', validation: THIRD });
    assert.equal(ledger.byTxId(ticketInTxId(id(3), 'request')), undefined);
    assert.equal(endOf(ledger, id(1)), null);
    release();
    anyWrite(ledger);
    assert.deepEqual(endOf(ledger, id(1)), { type: 'ticket.redeem.returned', reason: 'acceptor-fault' }, 'ended at the next commit, no ticket needed');
    assert.equal(await insert(tickets, THIRD, id(4)), 'stack', 'the station takes tickets again');
    assert.equal(cancels(authority, id(1)), 1, 'cancelled once');
    assert.equal(ledger.byTxId(ticketStackedTxId(TICKET)), undefined, 'never credited');
    assert.deepEqual(tickets.held(), []);
  });

  it('the old cancel sent once a run, not again at each new ticket while the journal refuses (a start sends it once more)', async (t) => {
    const { config, ledger } = station1(t);
    const authority = register();
    await authority.redeem({ requestId: id(1), validation: TICKET, station: 1, currency: config.currency, limit: 1e9 } as never);
    ledger.append(redeemRequest(id(1), TICKET, 1));
    const release = refusingUntilReleased(ledger, 'ticket.redeem.returned');
    const tickets = new TicketIn({ config, ledger, log: silent, authority });
    for (const n of [2, 3, 4]) {
      assert.equal(await insert(tickets, OTHER, id(n)), 'return');
      await tick();
    }
    assert.equal(cancels(authority, id(1)), 1, `once, not once a ticket: ${authority.words.join(', ')}`);
    const again = new TicketIn({ config, ledger, log: silent, authority });
    assert.doesNotThrow(() => again.recover());
    await insert(again, OTHER, id(5));
    await insert(again, OTHER, id(6));
    await tick();
    assert.equal(cancels(authority, id(1)), 2, 'a start is a new run: once more');
    release();
    assert.equal(await insert(again, OTHER, id(7)), 'stack');
    await tick();
    assert.deepEqual(endOf(ledger, id(1)), { type: 'ticket.redeem.returned', reason: 'acceptor-fault' });
    assert.equal(cancels(authority, id(1)), 2, 'the end journalled: its cancel taken already, not sent again (the synced end tells the upstream too)');
    for (const n of [2, 3, 4, 5, 6]) assert.equal(ledger.byTxId(ticketInTxId(id(n), 'request')), undefined, 'the refused tickets never journalled');
  });

  it('a cancel the authority did not take is sent again when the end is journalled', async (t) => {
    const { config, ledger } = station1(t);
    const authority = register();
    const cancel = authority.cancel;
    let down = true;
    authority.cancel = async (rid, at) =>
      down ? (authority.words.push(`cancel ${rid}`), { ok: false, reason: 'offline', detail: 'down' } as const) : cancel(rid, at);
    await authority.redeem({ requestId: id(1), validation: TICKET, station: 1, currency: config.currency, limit: 1e9 } as never);
    ledger.append(redeemRequest(id(1), TICKET, 1));
    const release = refusingUntilReleased(ledger, 'ticket.redeem.returned');
    const tickets = new TicketIn({ config, ledger, log: silent, authority });
    await insert(tickets, OTHER, id(2));
    await insert(tickets, OTHER, id(3));
    await tick();
    assert.equal(cancels(authority, id(1)), 1, 'not again at each ticket, taken or not');
    down = false;
    release();
    anyWrite(ledger);
    await tick();
    assert.equal(cancels(authority, id(1)), 2, 'sent again with the end');
    assert.equal(authority.state.get(TICKET), 'printed');
  });

  it('the approval and its end refused, a start before the disk is freed: the unit’s first report tries the end, the attempt cancelled once, never stacked; ended once the journal takes writes', async (t) => {
    const { config, ledger } = station1(t);
    const authority = register();
    const tickets = new TicketIn({ config, ledger, log: silent, authority });
    refusingOnce(ledger, 'ticket.redeem.approved');
    const release = refusingUntilReleased(ledger, 'ticket.redeem.returned');
    assert.equal(await insert(tickets, TICKET, id(1)), 'threw');
    assert.equal(cancels(authority, id(1)), 1);
    const again = new TicketIn({ config, ledger, log: silent, authority });
    assert.doesNotThrow(() => again.recover());
    const p = again.pendingFor(1);
    assert.deepEqual(p, { validationNumber: TICKET, escrowId: id(1), stackSent: false }, 'never STACK: the driver may only return it');
    assert.throws(() => again.deviceReturned(1, p, 'power-up'), /SQLITE_FULL/, 'its end refused (the acceptors log it)');
    assert.equal(cancels(authority, id(1)), 2, 'once in this run');
    assert.equal(again.pendingFor(1), null, 'not handed to the driver again');
    await assert.rejects(again.stacked(1, p), /without an approval/, 'a unit that says it stacked it is not believed');
    assert.equal(await insert(again, OTHER, id(2)), 'return', 'the station closed');
    assert.equal(cancels(authority, id(1)), 2);
    release();
    anyWrite(ledger);
    assert.deepEqual(endOf(ledger, id(1)), { type: 'ticket.redeem.returned', reason: 'acceptor-fault' });
    assert.equal(ledger.byTxId(ticketStackedTxId(TICKET)), undefined);
    assert.equal(await insert(again, OTHER, id(3)), 'stack');
  });
});

async function until(ok: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('ticket in: the acceptors started over a full disk', () => {
  it('the start comes up, the simulated unit’s tickets go back until the disk is freed, then one pays once', async (t) => {
    const { config, ledger } = station1(t);
    const authority = register();
    await authority.redeem({ requestId: id(1), validation: TICKET, station: 1, currency: config.currency, limit: 1e9 } as never);
    ledger.append(redeemRequest(id(1), TICKET, 1));
    ledger.append(redeemRequest(id(2), OTHER, 1));
    const release = refusingUntilReleased(ledger, 'ticket.redeem.returned');
    const tickets = new TicketIn({ config, ledger, log: silent, authority });
    const credits = tableCreditRule({ config, ledger, log: silent, fault: () => undefined });
    const acceptors = new BillAcceptors({ config, ledger, log: silent, credits, tickets });
    t.after(() => acceptors.close());
    assert.doesNotThrow(() => acceptors.start(), 'BillAcceptors.start (the host start) over a journal that refuses the ends');
    const THIRD = validationNumber(31, 7);
    const sim = acceptors.simulator(1);
    assert.ok(sim?.insertTicket);
    sim.insertTicket(THIRD);
    await until(() => tickets.lastAt(1)?.validation === THIRD && tickets.lastAt(1)?.state === 'returned', 'the ticket back at a closed station');
    assert.ok(!authority.words.some((w) => w.startsWith('redeem ') && w !== `redeem ${id(1)}`), `nobody asked: ${authority.words.join(', ')}`);
    assert.equal(ledger.credit(1), 0);
    release();
    anyWrite(ledger);
    assert.deepEqual(endOf(ledger, id(1)), { type: 'ticket.redeem.returned', reason: 'acceptor-fault' });
    await until(() => !sim.busy, 'the unit idle');
    sim.insertTicket(THIRD);
    await until(() => tickets.lastAt(1)?.state === 'credited', 'the ticket credited once the disk is freed');
    assert.equal(ledger.credit(1), 2_500);
    assert.equal(authority.state.get(TICKET), 'printed', 'the old attempt’s ticket good elsewhere, never credited here');
    assert.equal(ledger.byTxId(ticketStackedTxId(TICKET)), undefined);
  });
});

// The closing was a log line only (an error with `alarm: 'ticket-in-closed'`): no screen, no
// service mode row, no /healthz showed it, and a technician found a station that silently gave
// every ticket back. It is now the station's fault `ticket-in-closed`: raised when the station
// closes (held unjournalled while the journal refuses its entry too), shown at that station and
// to staff, stopping no play (only ticket in there, which the station refuses by itself), and
// cleared by itself once the station takes tickets again.
const note = (ledger: Ledger) => ledger.append({ type: 'service.denied', payload: { staff: '1', reason: 'unknown' } });
const closedAt = (tilts: TiltManager) => tilts.list().flatMap((f) => (f.kind === 'ticket-in-closed' ? [f.station] : []));
function closedEntries(ledger: Ledger): { type: string; seq: number; raisedSeq?: number; station?: number; automatic?: boolean }[] {
  return [...ledger.entries(1)].flatMap((e) => {
    const p = (JSON.parse(e.body) as { payload: { kind?: string; raisedSeq?: number; station?: number; automatic?: boolean } }).payload;
    return e.type.startsWith('tilt.') && p.kind === 'ticket-in-closed'
      ? [{ type: e.type, seq: e.seq, station: p.station, ...(e.type === 'tilt.clear' ? { raisedSeq: p.raisedSeq, automatic: p.automatic } : {}) }]
      : [];
  });
}

describe('ticket in closed: the station’s fault', () => {
  it('raised when the station closes (held while the journal refuses it), shown at that station, stopping no play; cleared when it reopens', async (t) => {
    const { config, ledger } = station1(t);
    const authority = register();
    await authority.redeem({ requestId: id(1), validation: TICKET, station: 1, currency: config.currency, limit: 1e9 } as never);
    ledger.append(redeemRequest(id(1), TICKET, 1));
    ledger.append(redeemRequest(id(2), OTHER, 1));
    const release = refusingUntilReleased(ledger);
    const tilts = new TiltManager({ ledger, log: silent });
    const tickets = new TicketIn({ config, ledger, log: silent, authority, faults: tilts });
    assert.doesNotThrow(() => tickets.recover());
    assert.deepEqual(closedAt(tilts), [1], 'the closing is a fault of station 1');
    assert.deepEqual(closedEntries(ledger), [], 'its entry refused too: held unjournalled');
    assert.deepEqual(
      tilts.notices(1).filter((n) => n.kind === 'ticket-in-closed'),
      [{ kind: 'ticket-in-closed', severity: 'warning', disables: 'nothing', station: 1 }],
      'the station’s screen shows it',
    );
    assert.deepEqual(
      tilts.notices(2).filter((n) => n.kind === 'ticket-in-closed'),
      [],
      'not another station’s',
    );
    const e = tilts.effects();
    assert.deepEqual(
      { halted: e.halted, newBetsStopped: e.newBetsStopped, disabled: [...e.disabledStations], jackpotStopped: e.jackpotStopped },
      { halted: false, newBetsStopped: false, disabled: [], jackpotStopped: false },
      'the table plays on: only ticket in at that station is refused',
    );
    assert.equal(tilts.refusal(1, 'bet'), null, 'a bet at that station is taken');
    assert.equal(await insert(tickets, validationNumber(31, 7), id(3)), 'return');
    assert.deepEqual(closedAt(tilts), [1], 'one fault however many tickets go back');
    release();
    note(ledger);
    await tick();
    assert.deepEqual(endOf(ledger, id(1)), { type: 'ticket.redeem.returned', reason: 'acceptor-fault' });
    assert.deepEqual(closedAt(tilts), [], 'cleared with the reopening');
    const [raise, clear, ...more] = closedEntries(ledger);
    assert.deepEqual(raise && { type: raise.type, station: raise.station }, { type: 'tilt.raise', station: 1 }, 'the raise journalled at the next commit');
    assert.deepEqual(clear && { type: clear.type, raisedSeq: clear.raisedSeq, automatic: clear.automatic }, {
      type: 'tilt.clear',
      raisedSeq: raise?.seq,
      automatic: true,
    });
    assert.deepEqual(more, []);
    assert.deepEqual(
      openTilts(ledger).map((f) => f.kind),
      [],
      'a restart restores nothing',
    );
    assert.equal(verifyLedger(ledger).ok, true);
  });

  it('closed by a new ticket while another fault is held unjournalled too (a full disk raises its own): one raise, one clear, none left open', async (t) => {
    const { config, ledger } = station1(t);
    const authority = register();
    await authority.redeem({ requestId: id(1), validation: TICKET, station: 1, currency: config.currency, limit: 1e9 } as never);
    ledger.append(redeemRequest(id(1), TICKET, 1));
    const release = refusingUntilReleased(ledger);
    const tilts = new TiltManager({ ledger, log: silent });
    tilts.raise('disk-low', { detail: 'test' });
    const tickets = new TicketIn({ config, ledger, log: silent, authority, faults: tilts });
    assert.equal(await insert(tickets, OTHER, id(2)), 'return', 'the older attempt’s end refused: the station closed');
    assert.deepEqual(closedAt(tilts), [1]);
    release();
    note(ledger);
    await tick();
    assert.deepEqual(closedAt(tilts), []);
    assert.deepEqual(
      closedEntries(ledger).map((x) => x.type),
      ['tilt.raise', 'tilt.clear'],
      'raised once, cleared once',
    );
    assert.deepEqual(
      openTilts(ledger).map((f) => f.kind),
      ['disk-low'],
      'a restart restores the disk’s fault only',
    );
    assert.equal(await insert(tickets, OTHER, id(3)), 'stack');
  });

  it('a start: a restored fault clears once the station has nothing owed; it stays (not raised twice) while the journal still refuses the end', async (t) => {
    const { config, ledger } = station1(t);
    const authority = register();
    new TiltManager({ ledger, log: silent }).raise('ticket-in-closed', { station: 1 });
    // The disk freed before this start: nothing is owed.
    const tilts = new TiltManager({ ledger, log: silent });
    tilts.restore();
    assert.deepEqual(closedAt(tilts), [1]);
    new TicketIn({ config, ledger, log: silent, authority, faults: tilts }).recover();
    await tick();
    assert.deepEqual(closedAt(tilts), [], 'cleared at the start: the station is open');
    assert.deepEqual(openTilts(ledger), []);
    // Another closing, then a start over a journal that still refuses the end.
    await authority.redeem({ requestId: id(1), validation: TICKET, station: 1, currency: config.currency, limit: 1e9 } as never);
    ledger.append(redeemRequest(id(1), TICKET, 1));
    ledger.append(redeemRequest(id(2), OTHER, 1));
    const release = refusingUntilReleased(ledger, 'ticket.redeem.returned');
    new TicketIn({ config, ledger, log: silent, authority, faults: tilts }).recover();
    assert.deepEqual(closedAt(tilts), [1]);
    const again = new TiltManager({ ledger, log: silent });
    again.restore();
    const tickets = new TicketIn({ config, ledger, log: silent, authority, faults: again });
    tickets.recover();
    await tick();
    assert.deepEqual(closedAt(again), [1], 'still closed: the fault stays');
    assert.equal(closedEntries(ledger).filter((x) => x.type === 'tilt.raise').length, 2, 'the first closing’s and the second’s, no more');
    release();
    note(ledger);
    await tick();
    assert.deepEqual(closedAt(again), []);
    assert.deepEqual(openTilts(ledger), []);
  });
});
