// A ticket is paid to whoever holds its number, so the back office shows a ticket by its last four
// digits only (docs/backoffice.md). The alarms did not: a table refused for too many guesses
// (`ticket-refusals`) had the real ticket it then presented refused `offline`, still printed and
// payable, and the alarm carried its whole number, served by `GET /backoffice/api/alarms` and a
// table's page to every role, a viewer's included (a review of 4 December). Now every alarm the
// back office serves has a ticket's number cut to its last four digits, and no sequence beside it
// (the numbering scheme is public: an id and a sequence make the number).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { enrolTerminal } from '../../upstream/index.js';
import { machineIdOf, redeem, registerIssue, registerPrinted } from '../../upstream/tickets.js';
import { validationNumber } from '../../terms/validation-number.js';
import { ticket } from '../tickets/kit.js';
import { backofficeKit, signIn } from './backoffice-kit.js';

describe("the back office's alarms against a payable ticket's number", () => {
  it('a viewer reads no whole ticket number in the alarms nor on a table’s page', async () => {
    const kit = await backofficeKit();
    try {
      await enrolTerminal(kit.db, 'T1');
      await enrolTerminal(kit.db, 'T2');
      const m = await machineIdOf(kit.db, 'T1');
      const t = ticket(m, 1, 9_000);
      assert.deepEqual(await registerIssue(kit.db, 'T1', t), { ok: true });
      assert.deepEqual(await registerPrinted(kit.db, 'T1', { validation: t.validation, station: 1 }), { ok: true });
      const limit = { count: 30, windowMs: 600_000 };
      const ask = (validation: string) => ({ requestId: randomUUID(), validation, station: 3, currency: 'MOP', limit: 10_000_000 });
      for (let s = 2; s < 32; s++) await redeem(kit.db, 'T2', ask(validationNumber(m, s)), limit);
      const real = await redeem(kit.db, 'T2', ask(t.validation), limit);
      assert.equal(real.kind === 'refused' ? real.reason : real.kind, 'offline', 'refused for the guesses before it: still payable');
      // A foreign issuer's alarm names an id and a sequence: together they are a number.
      await enrolTerminal(kit.db, 'T3');
      await registerIssue(kit.db, 'T3', ticket(m, 2, 100));
      const viewer = await signIn(kit.app, 'viewer');
      const alarms = await kit.app.inject({ method: 'GET', url: '/backoffice/api/alarms', headers: { cookie: viewer.cookie } });
      assert.equal(alarms.statusCode, 200);
      const kinds = (alarms.json() as { kind: string; detail: Record<string, unknown> }[]).filter((a) => a.kind.startsWith('ticket-'));
      assert.ok(kinds.some((a) => a.kind === 'ticket-refusals') && kinds.some((a) => a.kind === 'ticket-foreign-issuer'), JSON.stringify(kinds));
      // Before: "validation":"00…" whole, and the foreign issuer's sequence beside its id.
      assert.ok(!alarms.body.includes(t.validation), 'no whole number in the alarms');
      assert.ok(!alarms.body.includes(validationNumber(m, 2)));
      for (const a of kinds) {
        assert.match(String(a.detail.validation), /^…\d{4}$/, JSON.stringify(a));
        assert.equal(a.detail.sequence, undefined, JSON.stringify(a));
      }
      assert.ok(kinds.some((a) => a.detail.validation === `…${t.validation.slice(-4)}`));
      const page = await kit.app.inject({ method: 'GET', url: '/backoffice/api/tables/T2', headers: { cookie: viewer.cookie } });
      assert.equal(page.statusCode, 200);
      assert.ok(!page.body.includes(t.validation), "no whole number on the table's page");
    } finally {
      await kit.close();
    }
  });
});
