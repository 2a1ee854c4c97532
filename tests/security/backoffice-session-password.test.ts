// A sign-in that checks the password, then opens the session (a review of 4 December): the check
// takes scrypt's time, and a password changed in between (`upstream user --replace`, which ends the
// user's sessions) ended those open then, not the one opened after it with the old password. That
// session lived its 12 hours. Now the session is opened only while the password is still the one
// checked (the user's row held while it is), and the sign-in is refused otherwise.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { putUser } from '../../upstream/index.js';
import { openSession } from '../../upstream/backoffice/sessions.js';
import { checkPassword } from '../../upstream/backoffice/users.js';
import { backofficeKit, FAST, PASSWORD } from './backoffice-kit.js';

describe('a session opened after the password it was checked against changed', () => {
  it('is not opened; one checked against the current password is', async () => {
    const kit = await backofficeKit();
    try {
      const checked = await checkPassword(kit.db, 'supervisor', PASSWORD);
      assert.ok(checked, 'the password checks');
      await putUser(kit.db, { name: 'supervisor', role: 'viewer', password: 'a brand new pass phrase', replace: true, by: 'test' }, FAST);
      // Before: a session, for 12 hours, with the password replaced.
      assert.equal(await openSession(kit.db, checked, '10.1.1.1', kit.clock.now), null);
      const live = await kit.db.query("SELECT count(*)::int AS n FROM backoffice_sessions WHERE user_name = 'supervisor'");
      assert.equal(live.rows[0]?.n, 0);
      const again = await checkPassword(kit.db, 'supervisor', 'a brand new pass phrase');
      assert.ok(again);
      const opened = await openSession(kit.db, again, '10.1.1.1', kit.clock.now);
      assert.equal(opened?.session.role, 'viewer');
    } finally {
      await kit.close();
    }
  });
});
