// One process per upstream data folder (`etg upstream … --data-dir D`, embedded PGlite). PGlite
// takes no lock of its own, and two processes writing one PGlite folder may damage it. Before: on
// 5 December `etg upstream enroll --data-dir D` opened the folder and wrote an enrolment while
// `etg upstream serve --data-dir D` was serving it. Now every `etg upstream` command that opens
// the folder takes its lock first (upstream/folder-lock.ts): a second one is refused at once, exit
// 2, naming the folder and the holder (PID, command, since when), with the folder untouched; the
// lock is the kernel's, so a holder killed with SIGKILL leaves the folder usable at once; and of
// two services started on one fresh folder at the same moment, one serves and the other is refused.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import { ADMIN, UPSTREAM_CLI, UPSTREAM_ENV, upstreamChildren } from '../sync/upstream-children.js';

const { tmp, children } = upstreamChildren('upstream-folder-lock');
const cli = UPSTREAM_CLI;
const env = UPSTREAM_ENV;

interface Serving {
  child: ChildProcess;
  url: string;
}

/** `etg upstream serve --data-dir DIR` in a child process: its URL once it listens, or how it ended. */
function serve(dataDir: string): Promise<Serving | { code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [...cli, '--data-dir', dataDir, '--listen', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'pipe'], env });
  children.push(child);
  return new Promise((resolve) => {
    let out = '';
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /"listening":"([^"]+)"/.exec(out);
      if (m?.[1]) resolve({ child, url: m[1] });
    });
    child.once('exit', (code) => resolve({ code, stderr: err }));
  });
}

async function serving(dataDir: string): Promise<Serving> {
  const s = await serve(dataDir);
  assert.ok('url' in s, `serve starts: ${JSON.stringify(s)}`);
  return s;
}

async function stop(s: Serving, signal: NodeJS.Signals): Promise<void> {
  const exited = new Promise((r) => s.child.once('exit', r));
  s.child.kill(signal);
  await exited;
}

const tool = (...args: string[]) => spawnSync(process.execPath, [...cli, ...args], { encoding: 'utf8', env, timeout: 60_000 });

/** Every file under `dir` with the SHA-256 of its bytes: what a refused process must not change. */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const file = path.join(e.parentPath, e.name);
    files.set(path.relative(dir, file), createHash('sha256').update(readFileSync(file)).digest('hex'));
  }
  return files;
}

/**
 * Every file under `dir` with its size and modification time in nanoseconds: whether the folder
 * is still being written, read twice a second. Hashing its 40 MB that often cost a second or two
 * of CPU a wait; a write changes the time stamp of what it writes.
 */
function stamps(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const file = path.join(e.parentPath, e.name);
    const s = statSync(file, { bigint: true });
    files.set(path.relative(dir, file), `${s.size}:${s.mtimeNs}`);
  }
  return files;
}

/**
 * The folder once the service has stopped writing it: the back office's first sweep (5 s after it
 * listens) reads tables for the first time, and PostgreSQL writes their pages' hint bits then.
 * Settled: unchanged for 6 s, longer than a sweep. Its content, hashed once it is.
 */
async function settled(dir: string): Promise<Map<string, string>> {
  let last = stamps(dir);
  let quiet = 0;
  for (let i = 0; i < 120 && quiet < 12; i++) {
    await sleep(500);
    const now = stamps(dir);
    quiet = isDeepStrictEqual(now, last) ? quiet + 1 : 0;
    last = now;
  }
  assert.equal(quiet, 12, 'the service stops writing its folder within a minute');
  return snapshot(dir);
}

async function terminals(url: string): Promise<string[]> {
  const r = await fetch(`${url}/v1/terminals`, { headers: { authorization: `Bearer ${ADMIN}` } });
  assert.equal(r.status, 200);
  const body = (await r.json()) as { terminalId: string; revokedAt: string | null }[];
  return body.map((t) => `${t.terminalId}${t.revokedAt ? ' revoked' : ''}`).sort();
}

describe('one process per upstream data folder (PGlite)', { timeout: 300_000 }, () => {
  const dataDir = path.join(tmp, 'db');

  it("every `etg upstream` command on a served folder is refused at once, exit 2, naming the folder and the service's PID; the folder untouched", async () => {
    assert.equal(tool('enroll', '--terminal-id', 'T1', '--data-dir', dataDir).status, 0);
    const first = await serving(dataDir);
    try {
      const before = await settled(dataDir);
      const refusals = [
        ['enroll', '--terminal-id', 'T2', '--data-dir', dataDir],
        ['revoke', '--terminal-id', 'T1', '--data-dir', dataDir],
        ['verify', '--data-dir', dataDir],
        ['user', '--list', '--data-dir', dataDir],
        ['ticket', '--liability', '--data-dir', dataDir],
        ['serve', '--data-dir', dataDir, '--listen', '127.0.0.1:0'],
      ];
      for (const args of refusals) {
        const t0 = Date.now();
        const r = tool(...args);
        assert.equal(r.status, 2, `${args[0]} beside a running service: exit 2 (stdout ${r.stdout}, stderr ${r.stderr})`);
        assert.ok(Date.now() - t0 < 30_000, `${args[0]} refused at once`);
        assert.ok(r.stderr.includes(dataDir), `${args[0]} names the folder: ${r.stderr}`);
        assert.ok(r.stderr.includes(`PID ${first.child.pid}`), `${args[0]} names the service's PID ${first.child.pid}: ${r.stderr}`);
        assert.match(r.stderr, /etg upstream serve/, `${args[0]} names what holds it`);
        assert.doesNotMatch(r.stderr, /\n\s+at /, 'a refusal, not a stack');
      }
      const afterwards = snapshot(dataDir);
      const changed = [...new Set([...before.keys(), ...afterwards.keys()])].filter((f) => before.get(f) !== afterwards.get(f));
      assert.deepEqual(changed, [], 'not one byte of the folder changed by the refused commands');
      assert.deepEqual(await terminals(first.url), ['T1'], 'T2 not enrolled, T1 not revoked');
    } finally {
      await stop(first, 'SIGTERM');
    }
  });

  it('a service killed with SIGKILL leaves no lock: enroll works at once, and a service serves what it wrote', async () => {
    const killed = await serving(dataDir);
    await stop(killed, 'SIGKILL');
    const enrol = tool('enroll', '--terminal-id', 'T3', '--data-dir', dataDir);
    assert.equal(enrol.status, 0, enrol.stderr);
    const again = await serving(dataDir);
    try {
      assert.deepEqual(await terminals(again.url), ['T1', 'T3']);
    } finally {
      await stop(again, 'SIGTERM');
    }
  });

  it('two services started on one fresh folder at the same moment: one serves, the other is refused, exit 2', async () => {
    const fresh = path.join(tmp, 'fresh');
    const [a, b] = await Promise.all([serve(fresh), serve(fresh)]);
    const up = [a, b].filter((s): s is Serving => 'url' in s);
    const refused = [a, b].filter((s) => !('url' in s));
    try {
      assert.equal(up.length, 1, `exactly one serves: ${JSON.stringify(refused)}`);
      assert.equal(refused.length, 1);
      const r = refused[0] as { code: number | null; stderr: string };
      assert.equal(r.code, 2, r.stderr);
      assert.ok(r.stderr.includes(fresh), r.stderr);
      assert.deepEqual(await terminals(up[0]!.url), []);
    } finally {
      for (const s of up) await stop(s, 'SIGTERM');
    }
  });
});
