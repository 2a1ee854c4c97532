// Two tables must never number tickets under one validation id: the same id and sequence is the
// same 18 digits, and the register pays a number once, for the first table that registered it.
// The upstream assigns an id to a table that asks with none configured; a table configured with an
// id, offline at its first cash-out, numbers under that id before it ever asks. An assigned id that
// a configuration could name made both (a review of 4 December): table A, no configuration,
// assigned 1; table B configured with 1 and offline printed sequence 1 for 500.00, A sequence 1
// for 1.00; B's paper at table C was approved for A's 1.00, and A's own ticket refused as paid.
// Now the ids the upstream assigns and the ids a configuration may name are disjoint halves of the
// 24 bits (terms/validation-number.ts).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { ASSIGNED_MACHINE_ID_MIN, CONFIGURED_MACHINE_ID_MAX } from '../../terms/validation-number.js';
import { enrolTerminal, openPglite, migrateUpstream, type Db } from '../../upstream/index.js';
import { machineIdOf, redeem, registerIssue, registerPrinted } from '../../upstream/tickets.js';
import { requestId, ticket } from './kit.js';

describe('validation ids the upstream assigns and ids a configuration names', () => {
  let db: Db;
  before(async () => {
    db = await openPglite();
    await migrateUpstream(db);
    for (const t of ['A', 'B', 'C', 'D']) await enrolTerminal(db, t);
  });
  after(async () => db.close());

  it("a table's configured id, offline at its first cash-out, is never one the upstream assigned to another", async () => {
    const a = await machineIdOf(db, 'A');
    // B, configured with the first id a configuration may name and offline, prints; so does A.
    const configured = 1;
    const bTicket = ticket(configured, 1, 50_000);
    const aTicket = ticket(a, 1, 100);
    assert.deepEqual(await registerIssue(db, 'A', aTicket), { ok: true });
    assert.deepEqual(await registerPrinted(db, 'A', aTicket), { ok: true });
    assert.deepEqual(await registerIssue(db, 'B', bTicket), { ok: true }, "B's ticket is its own, not another issuer's");
    assert.deepEqual(await registerPrinted(db, 'B', bTicket), { ok: true });
    assert.notEqual(bTicket.validation, aTicket.validation);
    // Each paper pays its own amount, at a third table.
    const paidB = await redeem(db, 'C', { requestId: requestId(), validation: bTicket.validation, station: 3, currency: 'MOP', limit: 1_000_000 });
    assert.equal(paidB.kind === 'approved' ? paidB.amount : paidB.reason, 50_000);
    const paidA = await redeem(db, 'C', { requestId: requestId(), validation: aTicket.validation, station: 4, currency: 'MOP', limit: 1_000_000 });
    assert.equal(paidA.kind === 'approved' ? paidA.amount : paidA.reason, 100);
    // And no configuration may name an id the upstream assigns: the table's own configuration check refuses it.
    const base = simulatedTableConfig('baccarat');
    assert.throws(() => TableConfig.parse({ ...base, tickets: { ...base.tickets, machineId: a } }), /machineId/);
  });

  it('the upstream assigns from the upper half only, whatever a table proposes or the lower half holds', async () => {
    assert.equal(ASSIGNED_MACHINE_ID_MIN, CONFIGURED_MACHINE_ID_MAX + 1);
    assert.ok((await machineIdOf(db, 'A')) >= ASSIGNED_MACHINE_ID_MIN);
    // A configured id free on the floor is the proposing table's.
    assert.equal(await machineIdOf(db, 'D', 7), 7);
    for (const t of ['E', 'F']) await enrolTerminal(db, t);
    // One held: the next is assigned from the upper half, never the lower half's next free (8).
    const e = await machineIdOf(db, 'E', 7);
    assert.ok(e >= ASSIGNED_MACHINE_ID_MIN, `E was assigned ${e}`);
    const f = await machineIdOf(db, 'F');
    assert.ok(f >= ASSIGNED_MACHINE_ID_MIN && f !== e, `F was assigned ${f}`);
  });
});
