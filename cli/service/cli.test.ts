import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { AccountStore } from '../../host/service/accounts.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'service-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const cli = [path.resolve('bin/etg.js'), 'service'];

/** The accounts as stored in the folder's database. */
function stored(folder: string) {
  const store = new AccountStore(folder);
  try {
    return store.list();
  } finally {
    store.close();
  }
}

/** Runs the tool with the PINs as lines of standard input (a pipe, as a set-up script would). */
function service(stdin: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [...cli, ...args], { encoding: 'utf8', input: stdin });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('npm run service', () => {
  it('add-user: the first account is a supervisor, the next ones need that supervisor and their PIN', () => {
    const tech = service('739164\n739164\n', 'add-user', '--data-dir', dir, '--name', 'Bo Chan', '--role', 'technician');
    assert.equal(tech.code, 1);
    assert.match(tech.err, /first account must be a supervisor/);
    const differ = service('482915\n482916\n', 'add-user', '--data-dir', dir, '--name', 'Ana Lei', '--role', 'supervisor');
    assert.equal(differ.code, 1);
    assert.match(differ.err, /the two PINs differ/);
    const sup = service('482915\n482915\n', 'add-user', '--data-dir', dir, '--name', 'Ana Lei', '--role', 'supervisor');
    assert.equal(sup.code, 0, sup.err);
    assert.deepEqual(JSON.parse(sup.out).staff, '1001');
    const unauthorised = service('739164\n739164\n', 'add-user', '--data-dir', dir, '--name', 'Bo Chan', '--role', 'technician');
    assert.equal(unauthorised.code, 1);
    const wrongPin = service('739164\n739164\n000000\n', 'add-user', '--data-dir', dir, '--name', 'Bo Chan', '--role', 'technician', '--by', '1001');
    assert.match(wrongPin.err, /refused: bad-pin/);
    const ok = service('739164\n739164\n482915\n', 'add-user', '--data-dir', dir, '--name', 'Bo Chan', '--role', 'technician', '--by', '1001');
    assert.equal(ok.code, 0, ok.err);
    assert.equal(JSON.parse(ok.out).createdBy, 'Ana Lei (1001)');
  });

  it('refuses a PIN given as an argument and a role that does not exist', () => {
    assert.equal(service('', 'add-user', '--data-dir', dir, '--name', 'X', '--role', 'supervisor', '--pin', '482915').code, 2);
    assert.equal(service('', 'add-user', '--data-dir', dir, '--name', 'X', '--role', 'admin').code, 2);
  });

  it('list-users shows staff, roles and locks, never a PIN hash', () => {
    const r = service('', 'list-users', '--data-dir', dir, '--json');
    assert.equal(r.code, 0, r.err);
    const rows = JSON.parse(r.out) as Record<string, unknown>[];
    assert.deepEqual(
      rows.map((x) => [x.staff, x.role, x.name]),
      [
        ['1001', 'supervisor', 'Ana Lei'],
        ['1002', 'technician', 'Bo Chan'],
      ],
    );
    assert.ok(!r.out.includes('salt') && !r.out.includes('hash'));
    // The wrong PIN given as the authorising supervisor's counted against that supervisor.
    assert.equal(stored(dir)[0]?.failures, 0, 'reset by the later success');
  });
});

describe('npm run service -- program-hash', () => {
  it('prints the reference hash of this build as the host computes it, and traces a difference to its file', async () => {
    const { layoutAt, programManifest } = await import('../../host/service/program-hash.js');
    const r = service('', 'program-hash', '--json');
    assert.equal(r.code, 0, r.err);
    const out = JSON.parse(r.out) as { mode: string; hash: string; count: number };
    const host = await programManifest(layoutAt(path.resolve('.'), 'tsx'));
    assert.equal(out.mode, 'tsx');
    assert.equal(out.hash, host.hash, 'the command line and the host hash the same files');
    assert.equal(out.count, host.files.length);
    // A kiosk's manifest with one file different: the comparison names it and fails.
    const tampered = { ...host, hash: '0'.repeat(64), files: host.files.map(([p, h]) => (p === 'host/start-host.ts' ? [p, 'f'.repeat(64)] : [p, h])) };
    const file = path.join(dir, 'program-manifest.json');
    writeFileSync(file, JSON.stringify(tampered));
    const cmp = service('', 'program-hash', '--compare', file);
    assert.equal(cmp.code, 1, cmp.err);
    assert.match(cmp.out, /^DIFFERENT: [0-9a-f]{64}/);
    assert.match(cmp.out, /\nchanged\thost\/start-host\.ts\n/);
    assert.equal(service('', 'program-hash', '--mode', 'arm').code, 2);
  });
});

describe('npm run service -- account lifecycle', () => {
  // Runs after the add-user tests above: Ana Lei (1001, supervisor) and Bo Chan (1002, technician).
  const users = () =>
    JSON.parse(service('', 'list-users', '--data-dir', dir, '--json').out) as { staff: string; disabled: boolean; lockedUntil: string | null }[];

  it('disable-user and enable-user need a supervisor and their PIN', () => {
    assert.equal(service('', 'disable-user', '--data-dir', dir, '--staff', '1002').code, 2, '--by is required');
    const wrong = service('000000\n', 'disable-user', '--data-dir', dir, '--staff', '1002', '--by', '1001');
    assert.equal(wrong.code, 1);
    assert.match(wrong.err, /refused: bad-pin/);
    const byTech = service('739164\n', 'disable-user', '--data-dir', dir, '--staff', '1001', '--by', '1002');
    assert.match(byTech.err, /only a supervisor/);
    const off = service('482915\n', 'disable-user', '--data-dir', dir, '--staff', '1002', '--by', '1001');
    assert.equal(off.code, 0, off.err);
    assert.equal(JSON.parse(off.out).disabled, true);
    assert.equal(users().find((u) => u.staff === '1002')?.disabled, true);
    assert.equal(service('482915\n', 'enable-user', '--data-dir', dir, '--staff', '1002', '--by', '1001').code, 0);
    assert.equal(users().find((u) => u.staff === '1002')?.disabled, false);
  });

  it('unlock-user lifts a lock; reset-pin sets a new PIN read twice', () => {
    // Five wrong PINs given as Bo's (as the authorising person) lock him.
    for (let i = 0; i < 5; i++) service('111111\n', 'disable-user', '--data-dir', dir, '--staff', '1001', '--by', '1002');
    assert.ok(users().find((u) => u.staff === '1002')?.lockedUntil, 'Bo is locked');
    const unlock = service('482915\n', 'unlock-user', '--data-dir', dir, '--staff', '1002', '--by', '1001');
    assert.equal(unlock.code, 0, unlock.err);
    assert.equal(users().find((u) => u.staff === '1002')?.lockedUntil, null);
    assert.match(service('305728\n305729\n482915\n', 'reset-pin', '--data-dir', dir, '--staff', '1002', '--by', '1001').err, /the two PINs differ/);
    const reset = service('305728\n305728\n482915\n', 'reset-pin', '--data-dir', dir, '--staff', '1002', '--by', '1001');
    assert.equal(reset.code, 0, reset.err);
    assert.deepEqual(
      stored(dir)
        .find((a) => a.staff === '1002')
        ?.unjournalled?.map((u) => u.action),
      ['disable', 'enable', 'unlock', 'reset-pin'],
      'each waits for the host to journal it',
    );
  });
});
