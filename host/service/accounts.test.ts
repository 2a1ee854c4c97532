import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import type { AccountEntry } from './account-journal.js';
import { AccountStore } from './accounts.js';
import { pinDigest, SCRYPT_PARAMS, verifyPin } from './pin-hash.js';
import { memoryAccountJournal } from './testing/memory-account-journal.js';
import { copyPinHash, setRole, writeProposal } from './testing/tamper-accounts.js';

// Light scrypt parameters keep these tests quick; one test checks the production parameters.
const FAST = { N: 2 ** 10, r: 8, p: 1 };

describe('service accounts', () => {
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  const store = (now = () => 1_000_000, policy = { maxFailures: 3, lockMs: 60_000 }) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'accounts-'));
    dirs.push(dir);
    return new AccountStore(dir, { policy, now, scrypt: FAST });
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

  it('however many checks arrive at once, at most maxFailures wrong PINs are hashed, and the right PIN after them is refused', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'accounts-'));
    dirs.push(dir);
    const hashed: string[] = [];
    const s = new AccountStore(dir, { policy: { maxFailures: 3, lockMs: 60_000 }, now: () => 1_000_000, scrypt: FAST, onPinCheck: (o) => hashed.push(o) });
    await s.add({ name: 'Ana', role: 'supervisor', pin: '482915' }, null);
    const results = await Promise.all([...Array.from({ length: 40 }, (_, i) => s.check('1001', String(100_000 + i))), s.check('1001', '482915')]);
    assert.deepEqual(hashed, ['wrong', 'wrong', 'wrong'], 'three PINs hashed, no more');
    assert.deepEqual(
      results.map((r) => (r.ok ? 'ok' : r.reason)),
      ['bad-pin', 'bad-pin', ...Array.from({ length: 39 }, () => 'locked')],
    );
    assert.equal(s.find('1001')?.lockedUntil, new Date(1_000_000 + 60_000).toISOString());
  });

  it('a row that differs from the journal is refused whatever the PIN, and the audit names each difference', async () => {
    const j = memoryAccountJournal();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'accounts-'));
    dirs.push(dir);
    const s = new AccountStore(dir, { scrypt: FAST, journal: j.journal });
    const ana = { staff: '1001', pin: '482915' };
    await s.add({ name: 'Ana', role: 'supervisor', pin: ana.pin }, null);
    await s.add({ name: 'Bo', role: 'technician', pin: '739164' }, ana);
    copyPinHash(dir, '1001', '1002');
    setRole(dir, '1002', 'supervisor');
    const r = await s.check('1002', ana.pin);
    assert.ok(!r.ok && r.reason === 'integrity', JSON.stringify(r));
    assert.deepEqual(s.audit(), ['service account 1002: its PIN hash is not the one journalled; role supervisor in the store, technician in the journal']);
    assert.deepEqual(s.standing('1002'), { ok: false, reason: 'integrity', problems: r.problems });
    assert.equal((await s.check('1001', ana.pin)).ok, true, 'a row nobody touched opens');
  });

  it('a store emptied behind the journal gives nobody a first supervisor without authorisation, and the audit names the missing rows', async () => {
    const j = memoryAccountJournal();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'accounts-'));
    dirs.push(dir);
    const s = new AccountStore(dir, { scrypt: FAST, journal: j.journal });
    await s.add({ name: 'Ana', role: 'supervisor', pin: '482915' }, null);
    s.close();
    for (const f of readdirSync(dir)) rmSync(path.join(dir, f));
    const fresh = new AccountStore(dir, { scrypt: FAST, journal: j.journal });
    await assert.rejects(fresh.add({ name: 'Eve', role: 'supervisor', pin: '905173' }, null), /journal records accounts this accounts store does not hold/);
    assert.deepEqual(fresh.audit(), ['service account 1001: journalled, but missing from the accounts store']);
    fresh.close();
  });

  it('a success resets the count of wrong PINs; the count survives a reopen of the file', async () => {
    const s = store();
    await s.add({ name: 'Ana', role: 'supervisor', pin: '482915' }, null);
    await s.check('1001', '000001');
    await s.check('1001', '000002');
    assert.equal(s.find('1001')?.failures, 2);
    const reopened = new AccountStore(path.dirname(s.file), { policy: { maxFailures: 3, lockMs: 60_000 }, now: () => 1_000_000, scrypt: FAST });
    assert.equal(reopened.find('1001')?.failures, 2);
    assert.equal((await reopened.check('1001', '482915')).ok, true);
    assert.equal(reopened.find('1001')?.failures, 0);
  });

  it('an unknown staff number is refused as unknown', async () => {
    const s = store();
    await s.add({ name: 'Ana', role: 'supervisor', pin: '482915' }, null);
    assert.deepEqual(await s.check('9999', '482915'), { ok: false, reason: 'unknown' });
  });

  it('a supervisor disables, enables, unlocks and resets the PIN of an account; before a ledger, each waits for the adoption, journalled once', async () => {
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
    // The folder gets its ledger: the host adopts the accounts, the set-up's actions first.
    const j = memoryAccountJournal();
    const host = new AccountStore(path.dirname(s.file), { policy: { maxFailures: 3, lockMs: 60_000 }, now: () => now, scrypt: FAST, journal: j.journal });
    assert.equal(host.adopt(), 2);
    assert.deepEqual(
      j.accounts().map((a) => `${a.staff}:${a.action} by ${a.by}`),
      [
        '1002:disable by Ana (1001)',
        '1002:enable by Ana (1001)',
        '1002:unlock by Ana (1001)',
        '1002:reset-pin by Ana (1001)',
        '1001:adopt by first-run set-up',
        '1002:adopt by Ana (1001)',
      ],
    );
    assert.equal(host.adopt(), 0);
    assert.equal(j.accounts().length, 6, 'nothing is journalled twice');
    assert.deepEqual(host.audit(), []);
    assert.equal(host.find('1002')?.unjournalled, undefined);
    await assert.rejects(s.manage('1002', 'disable', ana), /journalled: change them with `npm run service`/, 'no change escapes the journal once adopted');
  });

  it('with a journal, every change is journalled before its row changes, with a digest of the PIN hash, never the hash', async () => {
    const j = memoryAccountJournal();
    const s = new AccountStore(mkdtempSync(path.join(os.tmpdir(), 'accounts-')), {
      policy: { maxFailures: 3, lockMs: 60_000 },
      scrypt: FAST,
      journal: j.journal,
    });
    dirs.push(path.dirname(s.file));
    const ana = { staff: '1001', pin: '482915' };
    await s.add({ name: 'Ana', role: 'supervisor', pin: ana.pin }, null);
    await s.add({ name: 'Bo', role: 'technician', pin: '739164' }, ana);
    await s.manage('1002', 'disable', ana);
    await s.manage('1002', 'enable', ana);
    await s.manage('1002', 'reset-pin', ana, '305728');
    await s.manage('1002', 'unlock', ana);
    await s.setRole('1002', 'auditor', ana);
    await assert.rejects(s.setRole('1001', 'technician', ana), /not change their own role/);
    await assert.rejects(s.setRole('1002', 'auditor', ana), /an auditor already/);
    const entries = j.accounts();
    const digestNow = (staff: string) => {
      const pin = s.find(staff)?.pin;
      return pin ? pinDigest(staff, pin) : null;
    };
    assert.deepEqual(
      entries.map((e) => [e.staff, e.action ?? 'add', e.role, e.pin === undefined ? '-' : e.pin === digestNow(e.staff) ? 'now' : 'old']),
      [
        ['1001', 'add', 'supervisor', 'now'],
        ['1002', 'add', 'technician', 'old'],
        ['1002', 'disable', 'technician', '-'],
        ['1002', 'enable', 'technician', '-'],
        ['1002', 'reset-pin', 'technician', 'now'],
        ['1002', 'unlock', 'technician', '-'],
        ['1002', 'role', 'auditor', '-'],
      ],
    );
    assert.ok(!JSON.stringify(entries).includes(s.find('1002')?.pin.hash ?? 'x'), 'the hash itself is not journalled');
    assert.deepEqual(s.audit(), []);
    assert.equal(s.find('1002')?.role, 'auditor');
    // A refusal of the authorising supervisor is journalled too.
    await assert.rejects(s.manage('1002', 'disable', { staff: '1001', pin: '000001' }), /refused: bad-pin/);
    assert.deepEqual(j.entries.at(-1)?.payload, { staff: '1001', reason: 'bad-pin' });
  });

  it('a change the ledger refuses leaves the row as it was; a change journalled by a process cut before it applied it reaches the row', async () => {
    const j = memoryAccountJournal();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'accounts-'));
    dirs.push(dir);
    const s = new AccountStore(dir, { scrypt: FAST, journal: j.journal });
    const ana = { staff: '1001', pin: '482915' };
    await s.add({ name: 'Ana', role: 'supervisor', pin: ana.pin }, null);
    await s.add({ name: 'Bo', role: 'technician', pin: '739164' }, ana);
    j.fail();
    await assert.rejects(s.manage('1002', 'disable', ana), /refused the write/);
    assert.equal(s.find('1002')?.disabled, undefined, 'not disabled: the journal does not say so');
    assert.deepEqual(s.audit(), []);
    // The cut: the entry journalled, the row not changed (as the first step and the journal left it).
    const bo = s.find('1002');
    assert.ok(bo);
    const entry: AccountEntry = { by: 'Ana (1001)', staff: '1002', name: 'Bo', role: 'technician', action: 'disable' };
    writeProposal(dir, '1002', { kind: 'set', disabled: true }, entry, j.journal.head());
    j.journal.record([entry]);
    assert.deepEqual(await s.check('1002', '739164').then((r) => !r.ok && r.reason), 'disabled', 'applied at the next read');
    assert.deepEqual(s.audit(), []);
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
