// A ticket returned at a station's credit limit stays valid on the floor (docs/sas.md, "The
// station credit limit"): the real upstream (PGlite) approves the ticket for table T-2, whose
// station would pass its `creditLimit` with it; T-2 returns it (`credit-limit`, nothing journalled
// as moved) and cancels the redemption, and the same ticket is then paid at T-1's station.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { TicketIn } from '../../host/devices/ticket-in.js';
import { silent } from '../../host/testing/table-kit.js';
import { entriesOfTypes, openLedger } from '../../ledger/index.js';
import { migrateUpstream, openPglite } from '../../upstream/index.js';
import { printed, redemption, startFloor } from './kit.js';

describe('a ticket returned at the credit limit stays valid on the floor', () => {
  it('refused at the full station, cancelled at the upstream, paid at another', async (t) => {
    const db = await openPglite();
    await migrateUpstream(db);
    const { up, tables } = await startFloor(db, 2);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'credit-limit-upstream-'));
    const ledger = openLedger(dir, 'T-2');
    t.after(async () => {
      ledger.close();
      rmSync(dir, { recursive: true, force: true });
      await up.close();
      await db.close();
    });
    const [issuer, full] = tables;
    assert.ok(issuer && full);
    const ticket = await printed(issuer, 2_500);
    const base = simulatedTableConfig('war');
    const config = TableConfig.parse({ ...base, currency: 'MOP', stations: base.stations.slice(0, 1), creditLimit: 2_499 });
    const tickets = new TicketIn({ config, ledger, log: silent, authority: full.authority });
    assert.equal(await tickets.escrow(1, { validationNumber: ticket.validation, escrowId: randomUUID() }), 'return');
    const last = tickets.lastAt(1);
    assert.equal(last?.state === 'returned' ? last.reason : last?.state, 'credit-limit');
    assert.equal(ledger.credit(1), 0);
    assert.equal([...entriesOfTypes(ledger, ['ticket.redeem.approved', 'ticket.redeem.stacked'])].length, 0);
    // The cancel goes after the return (not awaited by the acceptor): the ticket is free once it lands.
    let answer = await issuer.authority.redeem(redemption(ticket, 1));
    for (let i = 0; i < 50 && answer.kind !== 'approved'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      answer = await issuer.authority.redeem(redemption(ticket, 1));
    }
    assert.deepEqual(answer.kind === 'approved' ? [answer.kind, answer.amount] : [answer.kind, answer.reason], ['approved', 2_500]);
  });
});
