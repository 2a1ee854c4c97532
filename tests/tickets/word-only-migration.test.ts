// Migration 11: a ticket registered on its table's word alone is marked so until the table's
// journal says the same (`word_only`), and alarmed once if the journal goes past it without.
// Tickets registered before 11 are taken as journalled: no alarm for them after the upgrade.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { enrolTerminal, migrateUpstream, openPglite, UPSTREAM_LATEST } from '../../upstream/index.js';
import { machineIdOf, registerIssue } from '../../upstream/tickets.js';
import { ticket } from './kit.js';

describe('migration 11: tickets registered on the word alone', () => {
  it('adds word_only and its alarm mark, false for the tickets already registered', async () => {
    const db = await openPglite();
    try {
      await migrateUpstream(db, 10);
      await enrolTerminal(db, 'T1');
      const m = await machineIdOf(db, 'T1');
      const t = ticket(m, 1, 100);
      if ('systemId' in t) throw new Error('a machine-numbered ticket');
      // As the code of version 10 registered it (no word_only then).
      await db.query(
        `INSERT INTO tickets (validation, terminal_id, station, machine_id, sequence, amount, currency, issued_at, expires_at, state)
         VALUES ($1, 'T1', 1, $2, 1, 100, 'MOP', $3::timestamptz, $4::timestamptz, 'printed')`,
        [t.validation, m, t.issuedAt, t.expiresAt],
      );
      assert.deepEqual(await migrateUpstream(db, 11), [11]);
      assert.ok(UPSTREAM_LATEST >= 11);
      const r = await db.query<{ word_only: boolean; unjournalled_alarmed: boolean }>('SELECT word_only, unjournalled_alarmed FROM tickets');
      assert.deepEqual(r.rows, [{ word_only: false, unjournalled_alarmed: false }]);
      await registerIssue(db, 'T1', ticket(m, 2, 100), 'word');
      const w = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM tickets WHERE word_only');
      assert.equal(w.rows[0]?.n, 1);
    } finally {
      await db.close();
    }
  });
});
