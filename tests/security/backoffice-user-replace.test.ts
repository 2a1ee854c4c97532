// A review of 4 December: `etg upstream user --replace` (a new password and role) enabled a
// disabled user again, silently: the audit said `user.replace` and nothing else, and the command
// said "replaced". An administrator resetting the password of someone who left (to lock the
// account harder, or by the wrong name) gave them the back office back. Now a disabled user stays
// disabled through a replace unless `enable` is asked for, and the audit says which.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { auditTrail } from '../../upstream/backoffice/audit.js';
import { disableUser, listUsers, putUser } from '../../upstream/index.js';
import { backofficeKit, FAST, signIn } from './backoffice-kit.js';

const NEW_PASSWORD = 'another long passphrase';

describe('a disabled back-office user given a new password', () => {
  it('stays disabled unless enabled on purpose, and the audit says which', async () => {
    const kit = await backofficeKit();
    try {
      assert.equal(await disableUser(kit.db, 'viewer', 'test'), true);
      const replaced = await putUser(kit.db, { name: 'viewer', role: 'viewer', password: NEW_PASSWORD, replace: true, by: 'test' }, FAST);
      assert.equal(replaced.disabled, true, 'the command says the user is still disabled');
      const refused = await kit.app.inject({ method: 'POST', url: '/backoffice/api/sign-in', payload: { name: 'viewer', password: NEW_PASSWORD } });
      assert.equal(refused.statusCode, 401, `a disabled user signs in with the new password: ${refused.body}`);
      assert.equal((await listUsers(kit.db)).find((u) => u.name === 'viewer')?.disabled, true);
      const [kept] = (await auditTrail(kit.db, { action: 'user.replace', limit: 1 })).rows;
      assert.deepEqual(kept?.detail, { name: 'viewer', role: 'viewer', disabled: true });

      const enabled = await putUser(kit.db, { name: 'viewer', role: 'viewer', password: NEW_PASSWORD, replace: true, enable: true, by: 'test' }, FAST);
      assert.equal(enabled.disabled, false);
      await signIn(kit.app, 'viewer', NEW_PASSWORD);
      const [again] = (await auditTrail(kit.db, { action: 'user.replace', limit: 1 })).rows;
      assert.deepEqual(again?.detail, { name: 'viewer', role: 'viewer', enabled: true });
    } finally {
      await kit.close();
    }
  });
});
