// `npm run upstream -- --data-dir D` on a fresh folder starts: with no admin token given it makes
// one, owner-only, in the data folder, says where, and uses it from then on; an admin route still
// refuses a caller without it (issue 35 item 1). A token file others can read is refused.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';

const dir = mkdtempSync(path.join(tmpdir(), 'upstream-first-run-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const dataDir = path.join(dir, 'data');
const env = { ...process.env, UPSTREAM_ADMIN_TOKEN: '', LOG_LEVEL: 'silent' };

interface Started {
  child: ChildProcess;
  line: { listening: string; adminTokenFile?: string; adminTokenMade?: boolean };
}

/** Starts `etg upstream --data-dir`, resolves with its first stdout line (JSON). */
function start(): Promise<Started> {
  const child = spawn(process.execPath, ['bin/etg.js', 'upstream', '--data-dir', dataDir, '--listen', '127.0.0.1:0'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (l) => resolve({ child, line: JSON.parse(l) as Started['line'] }));
    child.once('exit', (code) => reject(new Error(`upstream exited ${code}: ${err}`)));
  });
}

async function stop(s: Started): Promise<void> {
  const exited = new Promise((r) => s.child.once('exit', r));
  s.child.kill('SIGTERM');
  await exited;
}

describe('the upstream on a fresh data folder', () => {
  const tokenFile = path.join(dataDir, 'admin-token');
  let first = '';

  it('starts without a token given, makes one owner-only in the data folder, and says where', async () => {
    assert.equal(existsSync(tokenFile), false);
    const s = await start();
    try {
      assert.equal(s.line.adminTokenFile, tokenFile);
      assert.equal(s.line.adminTokenMade, true);
      assert.equal(statSync(tokenFile).mode & 0o777, 0o600, 'owner-only');
      first = readFileSync(tokenFile, 'utf8').trim();
      assert.ok(first.length >= 32, 'a long random token');
      const route = `${s.line.listening}/v1/terminals`;
      assert.equal((await fetch(route, { headers: { authorization: `Bearer ${first}` } })).status, 200);
      assert.equal((await fetch(route)).status >= 400, true, 'no admin route without the token');
    } finally {
      await stop(s);
    }
  });

  it('uses the same token from then on', async () => {
    const s = await start();
    try {
      assert.equal(s.line.adminTokenMade, false);
      assert.equal(readFileSync(tokenFile, 'utf8').trim(), first);
      assert.equal((await fetch(`${s.line.listening}/v1/terminals`, { headers: { authorization: `Bearer ${first}` } })).status, 200);
    } finally {
      await stop(s);
    }
  });

  it('refuses a token file that others can read: exit 2, naming it', () => {
    chmodSync(tokenFile, 0o644);
    const r = spawnSync(process.execPath, ['bin/etg.js', 'upstream', '--data-dir', dataDir, '--listen', '127.0.0.1:0'], {
      env,
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /admin-token/);
    assert.match(r.stderr, /0600|owner/);
  });

  it('still requires a token with --pg (no data folder to keep one in)', () => {
    const r = spawnSync(process.execPath, ['bin/etg.js', 'upstream', '--pg', 'postgres://127.0.0.1:1/none', '--listen', '127.0.0.1:0'], {
      env,
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /admin token is required/);
  });
});
