// A ticket in held after an acceptor's dispute, against the upstream as the authority (docs/tito.md,
// "A ticket in held after an acceptor's dispute"): while the attempt is open the upstream holds
// the ticket pending for it, so the player's paper is refused `pending-elsewhere` at every other
// table; once a person settles it, the host's word reaches the upstream. Returned: the ticket is
// printed again and pays at the next table once. Stacked: redeemed, and refused `already-paid`
// elsewhere. Before the change the attempt never ended and the ticket stayed pending for good.
// The acceptor's own dispute is driven through a real ID-003 simulator in
// host/devices/ticket-in-held.test.ts; here the acceptor's word is the event the driver sends.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { TicketIn } from '../../host/devices/ticket-in.js';
import { silent } from '../../host/testing/table-kit.js';
import { Ledger } from '../../ledger/ledger.js';
import { floorOfTwo, printed, redemption, stateOf } from './kit.js';

const TECH = ['Bo Chan (1002)'];

describe('a ticket in held after an acceptor’s dispute, at the upstream', () => {
  const floor = floorOfTwo();

  /** The redeeming table's host with the ticket approved at its station 2, then left by the acceptor (a protocol broken after STACK). */
  async function heldAtStation2(amount: number) {
    const base = simulatedTableConfig('war');
    const config = TableConfig.parse({ ...base, stations: base.stations.slice(0, 2) });
    const ledger = Ledger.open({ file: ':memory:', terminalId: floor.redeemer.id });
    const tickets = new TicketIn({ config, ledger, log: silent, authority: floor.redeemer.authority });
    const t = await printed(floor.issuer, amount);
    const escrowed = { validationNumber: t.validation, escrowId: redemption(t).requestId };
    assert.equal(await tickets.escrow(2, escrowed), 'stack');
    tickets.acceptorLeft(2, escrowed, 'escrow-changed');
    assert.equal(await stateOf(floor.db, t.validation, 'pending'), 'pending');
    const elsewhere = await floor.issuer.authority.redeem(redemption(t, 1));
    assert.deepEqual(elsewhere.kind === 'refused' ? elsewhere.reason : elsewhere.kind, 'pending-elsewhere', 'held for the open attempt');
    const [held] = tickets.held();
    assert.ok(held);
    return { ledger, tickets, t, held };
  }

  it('settled returned by a person: the upstream prints it again, and it pays once at the next table', async () => {
    const { ledger, tickets, t, held } = await heldAtStation2(4_200);
    assert.equal(tickets.settleByHand({ station: 2, seq: held.seq, last4: held.last4 }, 'returned', TECH).ok, true);
    assert.equal(ledger.credit(2), 0);
    assert.equal(await stateOf(floor.db, t.validation, 'printed'), 'printed', 'redeemable again');
    const again = redemption(t, 1);
    const paid = await floor.issuer.authority.redeem(again);
    assert.equal(paid.kind === 'approved' ? paid.amount : paid.kind, 4_200);
    assert.deepEqual(await floor.issuer.authority.confirm(again.requestId, again), { ok: true });
    assert.equal(await stateOf(floor.db, t.validation, 'redeemed'), 'redeemed');
    ledger.close();
  });

  it('settled stacked by a person: the station credited, the upstream marks it redeemed, and it is refused already paid elsewhere', async () => {
    const { ledger, tickets, t, held } = await heldAtStation2(3_100);
    assert.equal(tickets.settleByHand({ station: 2, seq: held.seq, last4: held.last4 }, 'stacked', TECH).ok, true);
    assert.equal(ledger.credit(2), 3_100);
    assert.equal(await stateOf(floor.db, t.validation, 'redeemed'), 'redeemed');
    const late = await floor.issuer.authority.redeem(redemption(t, 1));
    assert.equal(late.kind === 'refused' ? late.reason : late.kind, 'already-paid');
    ledger.close();
  });
});
