// A start kept a removed station's newest open attempt for its acceptor's first report
// (`stillInAcceptor`), an acceptor the configuration no longer has: the attempt stayed open, the
// floor holding the ticket pending, until the station came back (maybe never). A start without the
// station ends it as it ends one its acceptor left (docs/tito.md): never approved, returned and
// cancelled at the floor; approved, held for a person.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { entriesOfTypes, openLedger, type Ledger } from '../../ledger/index.js';
import { redeemApproved, redeemRequest } from '../../ledger/ticket-fixtures.js';
import { ticketsInOpen } from '../../ledger/ticket-queries.js';
import { validationNumber } from '../../terms/validation-number.js';
import { refusingOnce } from '../testing/refusing-ledger.js';
import { simulatedTableConfig, TableConfig } from '../config/table-config.js';
import { silent } from '../testing/table-kit.js';
import { TiltManager } from '../tilts/tilt-manager.js';
import { ticketRegister as register } from './test-ticket-register.js';
import { TicketIn } from './ticket-in.js';

const tick = () => new Promise((r) => setImmediate(r));
const id = (n: number) => `c2d4e6f8-0000-4000-8000-${String(n).padStart(12, '0')}`;
const base = simulatedTableConfig('war');
const without3 = TableConfig.parse({ ...base, stations: base.stations.filter((s) => s.station !== 3) });

function journal(t: TestContext): Ledger {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ticket-in-removed-attempt-'));
  const ledger = openLedger(dir, 'SIM-WAR-01');
  t.after(() => {
    ledger.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return ledger;
}

function start(ledger: Ledger, config: TableConfig, authority = register()) {
  const tilts = new TiltManager({ ledger, log: silent });
  tilts.restore();
  const tickets = new TicketIn({ config, ledger, log: silent, authority, faults: tilts });
  tickets.recover();
  return { tickets, tilts, authority };
}

const ends = (ledger: Ledger) =>
  [...entriesOfTypes(ledger, ['ticket.redeem.returned', 'ticket.redeem.stacked'])].map((e) => {
    const p = (JSON.parse(e.body) as { payload: { requestId: string; reason?: string } }).payload;
    return { type: e.type, requestId: p.requestId, reason: p.reason };
  });

describe('an open ticket in at a station removed from the configuration', () => {
  it('never approved: a start without the station returns it and cancels it at the floor, once, even when the station returns', async (t) => {
    const ledger = journal(t);
    ledger.append(redeemRequest(id(1), validationNumber(41, 1), 3));
    const first = start(ledger, without3);
    await tick();
    assert.deepEqual(ticketsInOpen(ledger), [], 'no attempt left open for an acceptor that is gone');
    assert.deepEqual(ends(ledger), [{ type: 'ticket.redeem.returned', requestId: id(1), reason: 'acceptor-fault' }]);
    assert.deepEqual(first.authority.words, [`cancel ${id(1)}`], 'the floor told: the ticket is good again');
    // The station returns: nothing resolved twice.
    const again = start(ledger, base);
    await tick();
    assert.equal(ends(ledger).length, 1, 'one end');
    assert.deepEqual(again.authority.words, [], 'no second cancel');
    assert.equal(again.tickets.pendingFor(3), null, 'not handed to the returned acceptor');
  });

  it('approved: held for a person (never credited, never cancelled) and settled once', async (t) => {
    const ledger = journal(t);
    ledger.append(redeemRequest(id(2), validationNumber(41, 2), 3));
    ledger.append(redeemApproved(id(2), validationNumber(41, 2), 3, 2_500));
    const first = start(ledger, without3);
    await tick();
    assert.deepEqual(
      first.tickets.held().map((h) => ({ station: h.station, amount: h.amount })),
      [{ station: 3, amount: 2_500 }],
      'on service mode’s Tickets page at once, not only when the station returns',
    );
    assert.deepEqual(ends(ledger), [], 'neither credited nor returned by the host');
    assert.deepEqual(first.authority.words, [], 'not cancelled: it may be in the cashbox');
    const [held] = first.tickets.held();
    assert.ok(held);
    assert.equal(first.tickets.settleByHand(held, 'stacked', ['Attendant A']).ok, true);
    const again = start(ledger, base);
    await tick();
    assert.equal(again.tickets.pendingFor(3), null);
    assert.deepEqual(again.tickets.held(), []);
    assert.deepEqual(ends(ledger), [{ type: 'ticket.redeem.stacked', requestId: id(2), reason: undefined }], 'credited once');
  });

  it('approved and still held when the station returns: handed to its acceptor as at any start, and its word ends it once (docs/tito.md)', async (t) => {
    const ledger = journal(t);
    ledger.append(redeemRequest(id(4), validationNumber(41, 4), 3));
    ledger.append(redeemApproved(id(4), validationNumber(41, 4), 3, 2_500));
    const first = start(ledger, without3);
    await tick();
    assert.equal(first.tickets.held().length, 1, 'held while the station is gone');
    const again = start(ledger, base);
    await tick();
    assert.deepEqual(
      again.tickets.pendingFor(3),
      { validationNumber: validationNumber(41, 4), escrowId: id(4), stackSent: true },
      'its acceptor’s first report answers for it, STACK taken as sent',
    );
    assert.deepEqual(again.tickets.held(), [], 'not also listed for a person while the acceptor has it');
    // The unit powers up without it (ID-003 POWER UP from stack-sent: given back).
    again.tickets.deviceReturned(3, { validationNumber: validationNumber(41, 4), escrowId: id(4) }, 'power-up');
    again.tickets.deviceReturned(3, { validationNumber: validationNumber(41, 4), escrowId: id(4) }, 'power-up');
    await tick();
    assert.deepEqual(ends(ledger), [{ type: 'ticket.redeem.returned', requestId: id(4), reason: 'acceptor-fault' }], 'one end');
    assert.deepEqual(again.authority.words, [`cancel ${id(4)}`], 'cancelled once: the ticket pays again');
    assert.equal(ledger.credit(3), 0, 'never credited');
    assert.deepEqual(first.authority.words, [], 'the start without the station cancelled nothing');
  });

  it('its end refused by the journal: owed, the station closed, then journalled once', async (t) => {
    const ledger = journal(t);
    ledger.append(redeemRequest(id(3), validationNumber(41, 3), 3));
    refusingOnce(ledger, 'ticket.redeem.returned');
    const first = start(ledger, without3);
    await tick();
    assert.deepEqual(
      ticketsInOpen(ledger).map((p) => p.requestId),
      [id(3)],
      'still in the journal, not dropped',
    );
    assert.deepEqual(
      first.tilts
        .list()
        .filter((f) => f.kind === 'ticket-in-closed')
        .map((f) => f.station),
      [3],
      'discoverable while owed',
    );
    ledger.append({ type: 'bill.credit', payload: { station: 1, device: 'BA-1', denomination: 10_000, currency: 'MOP' }, txId: 'a-commit' });
    await tick();
    assert.deepEqual(ends(ledger), [{ type: 'ticket.redeem.returned', requestId: id(3), reason: 'acceptor-fault' }]);
    assert.deepEqual(
      first.tilts.list().filter((f) => f.kind === 'ticket-in-closed'),
      [],
    );
    assert.deepEqual(first.authority.words, [`cancel ${id(3)}`], 'cancelled once');
    const again = start(ledger, base);
    await tick();
    assert.equal(ends(ledger).length, 1);
    assert.deepEqual(again.authority.words, []);
  });
});
