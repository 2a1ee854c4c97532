// The station's own tickets for the player's recall (issue 47; docs/tito.md): read from the
// journal by station, newest first, the number by its last four digits only, and read again only
// after a ticket entry of that station.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { billCredit } from '../../ledger/fixtures.js';
import { Ledger } from '../../ledger/ledger.js';
import { redeemApproved, redeemRequest, redeemReturned, redeemStacked, ticketIssue, ticketPrinted, ticketVoided } from '../../ledger/ticket-fixtures.js';
import { MAX_STATION_TICKETS, StationTicket } from '../../protocol/index.js';
import { validationNumber } from '../../terms/validation-number.js';
import { StationTickets } from './station-tickets.js';
import pino from 'pino';
import { simulatedTableConfig } from '../config/table-config.js';
import { TicketIn } from '../devices/ticket-in.js';

const rid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe("a station's own tickets in the player's recall", () => {
  it('lists its tickets out and in, newest first, by last four digits, with amount and state; never another station’s', () => {
    const l = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
    l.append(billCredit(1, 100_000, 'b1'));
    l.append(billCredit(2, 100_000, 'b2'));
    const [a, b, theirs] = [validationNumber(7, 1), validationNumber(7, 2), validationNumber(9, 40)];
    // A listener that heard of each commit first (as the table's credit mirror does, refreshing the
    // screens) reads the list before it is stale; the change callback comes after, with the new one.
    const firstHeard: (string | undefined)[] = [];
    const told: (string | undefined)[] = [];
    l.onAppended(() => firstHeard.push(tickets.of(1)[0]?.state));
    const tickets: StationTickets = new StationTickets(l, () => told.push(tickets.of(1)[0]?.state));
    assert.deepEqual(tickets.of(1), []);
    l.append(ticketIssue(a, 1, 30_000, 1));
    l.append(ticketPrinted(a, 1));
    l.append(ticketIssue(b, 2, 20_000, 2));
    l.append(ticketVoided(b, 2));
    l.append(redeemRequest(rid(1), theirs, 1));
    l.append(redeemApproved(rid(1), theirs, 1, 12_500));
    l.append(redeemStacked(rid(1), theirs, 1, 12_500));
    l.append(redeemRequest(rid(2), theirs, 1));
    l.append(redeemReturned(rid(2), theirs, 1));
    const one = tickets.of(1);
    assert.deepEqual(
      one.map((k) => [k.direction, k.last4, k.amount, k.state, k.returned]),
      [
        ['in', theirs.slice(-4), null, 'returned', 'already-paid'],
        ['in', theirs.slice(-4), 12_500, 'redeemed', undefined],
        ['out', a.slice(-4), 30_000, 'printed', undefined],
      ],
    );
    for (const k of one) assert.ok(StationTicket.safeParse(k).success, JSON.stringify(k));
    assert.equal(firstHeard.at(-1), 'checking', 'the first listener read the list before the last entry');
    assert.equal(told.at(-1), 'returned', 'then told again, with the list the last entry made');
    assert.deepEqual(
      tickets.of(2).map((k) => [k.direction, k.last4, k.amount, k.state]),
      [['out', b.slice(-4), 20_000, 'voided']],
    );
    // The same array while nothing of the station's changes (compared and encoded once)…
    l.append(billCredit(1, 10_000, 'b3'));
    l.append(ticketIssue(validationNumber(7, 3), 3, 5_000, 2));
    assert.equal(tickets.of(1), one);
    // …and read again after a ticket entry of its own.
    l.append(ticketIssue(validationNumber(7, 4), 4, 5_000, 1));
    assert.notEqual(tickets.of(1), one);
    assert.equal(tickets.of(1)[0]?.state, 'printing');
    assert.equal(tickets.of(2)[0]?.state, 'printing');
  });

  it('shows at most its last few', () => {
    const l = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
    l.append(billCredit(1, 1_000_000, 'b1'));
    for (let n = 1; n <= MAX_STATION_TICKETS + 3; n++) {
      l.append(ticketIssue(validationNumber(7, n), n, 1_000, 1));
      l.append(ticketPrinted(validationNumber(7, n), 1));
    }
    const list = new StationTickets(l).of(1);
    assert.equal(list.length, MAX_STATION_TICKETS);
    assert.equal(list[0]?.last4, validationNumber(7, MAX_STATION_TICKETS + 3).slice(-4));
  });

  it('an approved ticket in the host left to a person reads held, not stacking, and again when that changes', () => {
    const l = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
    const v = validationNumber(9, 41);
    l.append(redeemRequest(rid(1), v, 1));
    l.append(redeemApproved(rid(1), v, 1, 2_500));
    const listeners: ((station: number) => void)[] = [];
    const held = new Set<string>();
    const tickets = new StationTickets(l);
    assert.equal(tickets.of(1)[0]?.state, 'approved', 'being stacked while the acceptor has it');
    tickets.heldBy({ isHeld: (id) => held.has(id), onChange: (f) => (listeners.push(f), () => undefined) });
    assert.equal(tickets.of(1)[0]?.state, 'approved');
    // The acceptor leaves it: the host holds it for a person and says so for the station.
    held.add(rid(1));
    for (const f of listeners) f(1);
    const list = tickets.of(1);
    assert.deepEqual(
      list.map((k) => [k.direction, k.amount, k.state]),
      [['in', 2_500, 'held']],
    );
    assert.ok(StationTicket.safeParse(list[0]).success);
    // Another station's change leaves this list as it was.
    for (const f of listeners) f(2);
    assert.equal(tickets.of(1), list);
    // Settled stacked by a person: paid, from the journal.
    held.delete(rid(1));
    l.append(redeemStacked(rid(1), v, 1, 2_500));
    assert.equal(tickets.of(1)[0]?.state, 'redeemed');
  });

  it('a held ticket in handed back to its acceptor at a start reads being stacked again, not held', () => {
    const l = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
    const v = validationNumber(9, 42);
    l.append(redeemRequest(rid(3), v, 1));
    l.append(redeemApproved(rid(3), v, 1, 2_500));
    const tickets = new TicketIn({ config: simulatedTableConfig('baccarat'), ledger: l, log: pino({ level: 'silent' }), authority: null });
    const list = new StationTickets(l);
    list.heldBy(tickets);
    assert.equal(list.of(1)[0]?.state, 'held', 'no acceptor has it yet');
    // The acceptor's power-up report: the driver has it again (STACK was sent).
    assert.equal(tickets.pendingFor(1)?.stackSent, true);
    assert.equal(list.of(1)[0]?.state, 'approved');
  });
});
