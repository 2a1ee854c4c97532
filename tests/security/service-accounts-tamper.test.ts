// Issue 27, "The accounts file": with file access, one account's PIN hash copied into another's row
// of service-accounts.sqlite let the second staff number sign in with the first's PIN; nothing was
// journalled and nothing noticed. The same for the other fields a row holds: its role, whether it
// is disabled, its lock, and a row the command line never wrote. Each attack edits the file while
// the host runs, then signs in over a real WebSocket; `etg ledger verify` must report it after.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';
import { copyPinHash, insertCopy, setDisabled, setLock, setRole } from '../../host/service/testing/tamper-accounts.js';
import { folderWithAccounts, journalled, metric, serviceScreen, signIn, removeFolder, startServiceHost, SUP, SUP2, TECH } from './service-kit.js';

const etg = (stdin: string, ...args: string[]) => {
  const r = spawnSync(process.execPath, [path.resolve('bin/etg.js'), ...args], { encoding: 'utf8', input: stdin });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

/** A sign-in over a fresh connection; the state it ends in. */
async function trySignIn(running: Awaited<ReturnType<typeof startServiceHost>>, staff: string, pin: string) {
  const screen = await serviceScreen(running);
  try {
    const r = await screen.act({ name: 'service-sign-in', staff, pin }, `sign-in of ${staff}`);
    return r;
  } finally {
    await screen.close();
  }
}

describe('the accounts store checked against the journal (issue 27)', () => {
  it('a PIN hash copied between rows is refused at sign-in, raises the integrity fault, and etg ledger verify reports it', async () => {
    const dir = await folderWithAccounts();
    const running = await startServiceHost(dir);
    let closed = false;
    try {
      // Before: the technician signs in with their own PIN.
      const before = await serviceScreen(running);
      await signIn(before, TECH);
      await before.close();

      copyPinHash(dir, SUP.staff, TECH.staff);
      const asTech = await trySignIn(running, TECH.staff, SUP.pin);
      assert.notEqual(asTech.state?.signedIn, true, "the supervisor's PIN does not open the technician's account");
      assert.equal(asTech.state?.notice?.key, 'service.signIn.integrity', JSON.stringify(asTech));
      const own = await trySignIn(running, TECH.staff, TECH.pin);
      assert.notEqual(own.state?.signedIn, true, 'the row as it stands is refused whatever the PIN');
      assert.ok(
        journalled<{ staff: string; reason: string }>(running, 'service.denied').some((d) => d.staff === TECH.staff && d.reason === 'integrity'),
        'the refusal is journalled',
      );
      assert.equal(journalled<{ kind: string }>(running, 'tilt.raise').filter((t) => t.kind === 'accounts-integrity').length, 1);
      assert.equal(await metric(running, 'etg_faults_active{kind="accounts-integrity"}'), 1);
      // The rows nobody touched still open.
      const sup = await serviceScreen(running);
      await signIn(sup, SUP);
      await sup.close();

      await running.close();
      closed = true;
      const verify = etg('', 'ledger', 'verify', '--data-dir', dir);
      assert.equal(verify.code, 1, verify.out + verify.err);
      assert.match(verify.out, /MISMATCH: service account 1002: its PIN hash is not the one journalled/);
    } finally {
      if (!closed) await running.close();
      removeFolder(dir);
    }
  });

  it('a role raised, a disabled account enabled, a lock lifted, a row added: each refused at sign-in and reported by verify', async () => {
    const dir = await folderWithAccounts();
    // The second supervisor disabled on the command line, before the host starts (the command line
    // refuses while a host holds the folder: tests/security/second-host.test.ts).
    const off = etg(`${SUP.pin}\n`, 'service', 'disable-user', '--data-dir', dir, '--staff', SUP2.staff, '--by', SUP.staff);
    assert.equal(off.code, 0, off.err);
    const running = await startServiceHost(dir);
    let closed = false;
    try {
      // The technician raised to supervisor in the file.
      setRole(dir, TECH.staff, 'supervisor');
      assert.notEqual((await trySignIn(running, TECH.staff, TECH.pin)).state?.signedIn, true, 'a role raised in the file');
      setRole(dir, TECH.staff, 'technician');

      // The disabled supervisor enabled in the file.
      setDisabled(dir, SUP2.staff, false);
      assert.notEqual((await trySignIn(running, SUP2.staff, SUP2.pin)).state?.signedIn, true, 'a disabled account enabled in the file');

      // The technician locked by five wrong PINs, the lock lifted in the file.
      for (let i = 0; i < 5; i++) await trySignIn(running, TECH.staff, String(300_000 + i));
      setLock(dir, TECH.staff, null);
      const unlocked = await trySignIn(running, TECH.staff, TECH.pin);
      assert.notEqual(unlocked.state?.signedIn, true, 'a lock lifted in the file');

      // A supervisor the command line never added: a copy of a row with its PIN hash.
      insertCopy(dir, SUP.staff, '1099', 'Nobody', 'supervisor');
      assert.notEqual((await trySignIn(running, '1099', SUP.pin)).state?.signedIn, true, 'a row added in the file');

      await running.close();
      closed = true;
      const verify = etg('', 'ledger', 'verify', '--data-dir', dir);
      assert.equal(verify.code, 1, verify.out + verify.err);
      assert.match(verify.out, /service account 1003: disabled in the journal, enabled in the store/);
      assert.match(verify.out, /service account 1099: not in the journal/);
    } finally {
      if (!closed) await running.close();
      removeFolder(dir);
    }
  });
});
