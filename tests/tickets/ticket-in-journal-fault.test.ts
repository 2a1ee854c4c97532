// A ticket in whose approval the journal refuses, against the upstream as the authority (docs/tito.md,
// "A journal that refuses the approval"): the upstream approved it, so it holds the ticket pending
// for that attempt; the table's journal refused `ticket.redeem.approved`, the ticket went back.
// Before the change the upstream was never told, and the player's paper was refused
// `pending-elsewhere` at every other table; now the table cancels at once, and it pays once at the
// next table. The unit tests of the host's side: host/devices/ticket-in-journal-fault.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { TicketIn } from '../../host/devices/ticket-in.js';
import { refusingOnce } from '../../host/testing/refusing-ledger.js';
import { silent } from '../../host/testing/table-kit.js';
import { Ledger } from '../../ledger/ledger.js';
import { floorOfTwo, printed, redemption, stateOf } from './kit.js';

describe('a ticket in whose approval the journal refuses, at the upstream', () => {
  const floor = floorOfTwo();

  it('the upstream told to cancel at once: printed again, and it pays once at another table', async () => {
    const base = simulatedTableConfig('war');
    const config = TableConfig.parse({ ...base, stations: base.stations.slice(0, 2) });
    const ledger = Ledger.open({ file: ':memory:', terminalId: floor.redeemer.id });
    const tickets = new TicketIn({ config, ledger, log: silent, authority: floor.redeemer.authority });
    const t = await printed(floor.issuer, 2_700);
    const escrowed = { validationNumber: t.validation, escrowId: redemption(t).requestId };
    refusingOnce(ledger, 'ticket.redeem.approved');
    await assert.rejects(tickets.escrow(2, escrowed), /SQLITE_FULL/);
    tickets.deviceReturned(2, escrowed, 'host');
    assert.equal(ledger.credit(2), 0);
    assert.equal(await stateOf(floor.db, t.validation, 'printed'), 'printed', 'redeemable again, not pending for an attempt that ended');
    const again = redemption(t, 1);
    const paid = await floor.issuer.authority.redeem(again);
    assert.equal(paid.kind === 'approved' ? paid.amount : paid.kind, 2_700, 'not pending-elsewhere');
    assert.deepEqual(await floor.issuer.authority.confirm(again.requestId, again), { ok: true });
    assert.equal(await stateOf(floor.db, t.validation, 'redeemed'), 'redeemed');
    ledger.close();
  });
});
