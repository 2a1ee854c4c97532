import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { AccountStore } from './accounts.js';
import { SCRYPT_PARAMS, verifyPin } from './pin-hash.js';

// Light scrypt parameters keep these tests quick; one test checks the production parameters.
const FAST = { N: 2 ** 10, r: 8, p: 1 };

describe('service accounts', () => {
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  const store = (now = () => 1_000_000, policy = { maxFailures: 3, lockMs: 60_000 }) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'accounts-'));
    dirs.push(dir);
    return new AccountStore(dir, policy, now, FAST);
  };

  it('the first account must be a supervisor; later ones need a supervisor and their right PIN', async () => {
    const s = store();
    await assert.rejects(s.add({ name: 'Tech', role: 'technician', pin: '482915' }, null), /first account must be a supervisor/);
    const sup = await s.add({ name: 'Ana', role: 'supervisor', pin: '482915' }, null);
    assert.equal(sup.staff, '1001');
    await assert.rejects(s.add({ name: 'Bo', role: 'technician', pin: '739164' }, null), /needs an existing supervisor/);
    await assert.rejects(s.add({ name: 'Bo', role: 'technician', pin: '739164' }, { staff: '1001', pin: '000001' }), /refused: bad-pin/);
    const bo = await s.add({ name: 'Bo', role: 'technician', pin: '739164' }, { staff: '1001', pin: '482915' });
    assert.equal(bo.createdBy, 'Ana (1001)');
    await assert.rejects(s.add({ name: 'Cy', role: 'auditor', pin: '620481' }, { staff: bo.staff, pin: '739164' }), /only a supervisor/);
  });

  it("refuses trivial PINs and never stores a PIN in clear; the file is the owner's only", async () => {
    const s = store();
    for (const pin of ['1111', '1234', '987654', '12a4', '12']) await assert.rejects(s.add({ name: 'Ana', role: 'supervisor', pin }, null));
    await s.add({ name: 'Ana', role: 'supervisor', pin: '482915' }, null);
    const text = readFileSync(s.file, 'utf8');
    assert.ok(!text.includes('482915'));
    for (const f of [s.file, `${s.file}-wal`]) assert.equal(statSync(f).mode & 0o777, 0o600, f);
  });

  it('hashes with scrypt at N=2^15, r=8, p=1 by default, and verifies only the right PIN', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'accounts-'));
    dirs.push(dir);
    const s = new AccountStore(dir);
    const a = await s.add({ name: 'Ana', role: 'supervisor', pin: '482915' }, null);
    assert.deepEqual({ algorithm: a.pin.algorithm, N: a.pin.N, r: a.pin.r, p: a.pin.p }, { algorithm: 'scrypt', ...SCRYPT_PARAMS });
    assert.equal(await verifyPin('482915', a.pin), true);
    assert.equal(await verifyPin('482916', a.pin), false);
  });

  it('locks an account after repeated wrong PINs, even against the right PIN, until the lock ends', async () => {
    let now = 1_000_000;
    const s = store(() => now);
    await s.add({ name: 'Ana', role: 'supervisor', pin: '482915' }, null);
    assert.equal((await s.check('1001', '000001')).ok, false);
    assert.deepEqual(await s.check('1001', '000002').then((r) => !r.ok && r.reason), 'bad-pin');
    const third = await s.check('1001', '000003');
    assert.ok(!third.ok && third.reason === 'locked' && third.lockedUntil === new Date(now + 60_000).toISOString());
    const right = await s.check('1001', '482915');
    assert.ok(!right.ok && right.reason === 'locked', 'the right PIN does not open a locked account');
    now += 60_001;
    assert.equal((await s.check('1001', '482915')).ok, true);
  });

  it('a success resets the count of wrong PINs; the count survives a reopen of the file', async () => {
    const s = store();
    await s.add({ name: 'Ana', role: 'supervisor', pin: '482915' }, null);
    await s.check('1001', '000001');
    await s.check('1001', '000002');
    assert.equal(s.find('1001')?.failures, 2);
    const reopened = new AccountStore(path.dirname(s.file), { maxFailures: 3, lockMs: 60_000 }, () => 1_000_000, FAST);
    assert.equal(reopened.find('1001')?.failures, 2);
    assert.equal((await reopened.check('1001', '482915')).ok, true);
    assert.equal(reopened.find('1001')?.failures, 0);
  });

  it('an unknown staff number is refused as unknown', async () => {
    const s = store();
    await s.add({ name: 'Ana', role: 'supervisor', pin: '482915' }, null);
    assert.deepEqual(await s.check('9999', '482915'), { ok: false, reason: 'unknown' });
  });

  it('a supervisor disables, enables, unlocks and resets the PIN of an account; each waits to be journalled once', async () => {
    let now = 1_000_000;
    const s = store(() => now);
    const ana = { staff: '1001', pin: '482915' };
    await s.add({ name: 'Ana', role: 'supervisor', pin: ana.pin }, null);
    await s.add({ name: 'Bo', role: 'technician', pin: '739164' }, ana);
    await assert.rejects(s.manage('1002', 'disable', { staff: '1002', pin: '739164' }), /only a supervisor/);
    await assert.rejects(s.manage('1001', 'disable', ana), /not disable their own account/);
    await assert.rejects(s.manage('9999', 'unlock', ana), /no account with staff number 9999/);
    await s.manage('1002', 'disable', ana);
    assert.deepEqual(await s.check('1002', '739164').then((r) => !r.ok && r.reason), 'disabled', 'the right PIN does not open a disabled account');
    await s.manage('1002', 'enable', ana);
    assert.equal((await s.check('1002', '739164')).ok, true);
    for (const pin of ['000001', '000002', '000003']) await s.check('1002', pin);
    assert.equal((await s.check('1002', '739164')).ok, false, 'locked');
    await s.manage('1002', 'unlock', ana);
    assert.equal((await s.check('1002', '739164')).ok, true, 'unlocked before the lock ran out');
    await assert.rejects(s.manage('1002', 'reset-pin', ana, '1111'), /not one digit repeated/);
    await s.manage('1002', 'reset-pin', ana, '305728');
    assert.equal((await s.check('1002', '739164')).ok, false, 'the old PIN no longer opens');
    assert.equal((await s.check('1002', '305728')).ok, true);
    now += 1;
    const journalled: string[] = [];
    const journal = (a: { staff: string }, done?: { action: string; by: string }) => {
      journalled.push(`${a.staff}:${done ? `${done.action} by ${done.by}` : 'added'}`);
      return journalled.length;
    };
    s.journalNew(journal);
    assert.deepEqual(journalled, [
      '1001:added',
      '1002:added',
      '1002:disable by Ana (1001)',
      '1002:enable by Ana (1001)',
      '1002:unlock by Ana (1001)',
      '1002:reset-pin by Ana (1001)',
    ]);
    s.journalNew(journal);
    assert.equal(journalled.length, 6, 'nothing is journalled twice');
  });

  it('a disabled supervisor authorises nothing', async () => {
    const s = store();
    const ana = { staff: '1001', pin: '482915' };
    await s.add({ name: 'Ana', role: 'supervisor', pin: ana.pin }, null);
    await s.add({ name: 'Di', role: 'supervisor', pin: '305728' }, ana);
    await s.manage('1002', 'disable', ana);
    await assert.rejects(s.manage('1001', 'disable', { staff: '1002', pin: '305728' }), /refused: disabled/);
    await assert.rejects(s.add({ name: 'Ed', role: 'technician', pin: '620481' }, { staff: '1002', pin: '305728' }), /refused: disabled/);
  });

  it('a lockout recorded while an account is being added is kept (the add writes the accounts as they are then)', async () => {
    const s = store();
    const ana = { staff: '1001', pin: '482915' };
    await s.add({ name: 'Ana', role: 'supervisor', pin: ana.pin }, null);
    await s.add({ name: 'Cy', role: 'auditor', pin: '620481' }, ana);
    // The add hashes its PINs on libuv's pool while Cy's wrong PINs are counted and lock Cy.
    await Promise.all([
      s.add({ name: 'Bo', role: 'technician', pin: '739164' }, ana),
      s.check('1002', '000001'),
      s.check('1002', '000002'),
      s.check('1002', '000003'),
    ]);
    assert.ok(s.find('1003'), 'Bo was added');
    assert.ok(s.find('1002')?.lockedUntil, "Cy's lock was not overwritten by the add");
    assert.deepEqual(
      readdirSync(path.dirname(s.file)).filter((f) => !f.startsWith('service-accounts.sqlite')),
      [],
      'no temporary or lock file is left',
    );
  });
});
