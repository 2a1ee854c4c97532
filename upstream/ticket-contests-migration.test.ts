// Migration 23: the numbers a table claimed that its validation id does not make (ticket_contests,
// upstream/ticket-contests.ts). A register at 22 has no such table: a claim there was refused
// `foreign-issuer` and left the number to the id's own table, paid to whichever paper came first.
// After 23 the tickets already registered redeem as before, and a claim contests its number.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { validationNumber } from '../terms/validation-number.js';
import { TICKET_PAYLOADS } from '../terms/ticket-terms.js';
import { enrolTerminal } from './index.js';
import { migrateUpstream, UPSTREAM_LATEST } from './migrations.js';
import { openPglite, type Db } from './sql.js';
import { machineIdOf, redeem, registerIssue, registerPrinted } from './tickets.js';

const ticketOf = (machineId: number, sequence: number, amount: number) =>
  TICKET_PAYLOADS['ticket.issue'].parse({
    validation: validationNumber(machineId, sequence),
    machineId,
    sequence,
    station: 1,
    amount,
    currency: 'MOP',
    issuedAt: new Date().toISOString(),
    expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
  });

async function outcome(db: Db, validation: string): Promise<string> {
  const d = await redeem(db, 'C', { requestId: randomUUID(), validation, station: 1, currency: 'MOP', limit: 1_000_000 });
  return d.kind === 'refused' ? d.reason : `approved ${d.amount}`;
}

describe('migration 23: contested validation numbers', () => {
  it('adds the table; the tickets registered before redeem as before, and a claim after contests its number', async () => {
    const db = await openPglite();
    try {
      await migrateUpstream(db, 22);
      for (const t of ['A', 'B', 'C']) await enrolTerminal(db, t);
      await machineIdOf(db, 'A');
      const b = await machineIdOf(db, 'B');
      const printed = [ticketOf(b, 1, 100), ticketOf(b, 2, 200)];
      for (const t of printed) {
        assert.deepEqual(await registerIssue(db, 'B', t), { ok: true });
        assert.deepEqual(await registerPrinted(db, 'B', t), { ok: true });
      }
      const has = async () => (await db.query<{ t: string | null }>("SELECT to_regclass('ticket_contests')::text AS t")).rows[0]?.t;
      assert.equal(await has(), null);

      assert.deepEqual(await migrateUpstream(db, 23), [23]);
      assert.ok(UPSTREAM_LATEST >= 23);
      assert.equal(await has(), 'ticket_contests');
      assert.equal(await outcome(db, printed[0]?.validation ?? ''), 'approved 100', 'a ticket of before, no claim: paid as before');
      const claim = await registerIssue(db, 'A', ticketOf(b, 2, 700));
      assert.equal(claim.ok ? 'ok' : claim.error, 'foreign-issuer');
      assert.equal(await outcome(db, printed[1]?.validation ?? ''), 'contested');
    } finally {
      await db.close();
    }
  });
});
