// Two hosts on one data folder (issue 28 item 5). Before: the second started, rewrote the launch
// tokens, and the first's next journal write was refused, so a note inserted there was never
// credited. Now the first host holds the folder's lock from before it reads anything; a second
// exits 2 within seconds naming the folder and the running host's PID, and the first is unharmed.
// The lock is the kernel's, so a host killed with SIGKILL leaves none behind; the command-line
// tools that write (the accounts) refuse while a host runs. `npm start` (`etg start --build`)
// takes the lock before it builds the screens, so a second one neither waits for a build nor
// rewrites the renderer files the first host serves.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, describe, it } from 'node:test';
import { HostChild, LedgerWatch } from '../../cli/soak/child.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'second-host-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

const host = () => new HostChild({ dataDir, game: 'war', stations: 1, seed: 1 });

async function roundsGrowFrom(watch: LedgerWatch, from: number, withinMs: number): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    if (watch.closedRounds() > from) return true;
    await sleep(100);
  }
  return false;
}

/** A second start beside a running host: it exits 2 by itself within 20 s, naming the folder and the running host's PID. */
async function refusedBeside(second: HostChild, runningPid: number | undefined): Promise<void> {
  const t0 = Date.now();
  const ended = await Promise.race([second.exited, sleep(20_000).then(() => null)]);
  if (ended === null) await second.kill();
  assert.ok(ended, 'the second start exits by itself');
  assert.equal(ended.code, 2, second.errors());
  assert.ok(Date.now() - t0 < 20_000);
  assert.ok(second.errors().includes(dataDir), `names the folder: ${second.errors()}`);
  assert.ok(second.errors().includes(String(runningPid)), `names the running host's PID ${runningPid}: ${second.errors()}`);
}

describe('one host per data folder', { timeout: 240_000 }, () => {
  it("a second host on a running host's folder exits 2 within seconds, naming the folder and the PID; the first is unharmed", async () => {
    const first = host();
    const started = await first.started;
    assert.ok(started, `the first host starts: ${first.errors()}`);
    try {
      const tokensBefore = readFileSync(path.join(dataDir, 'launch-tokens.json'), 'utf8');
      const watch = new LedgerWatch(dataDir);
      await refusedBeside(host(), first.process.pid);
      // The first host: its tokens untouched, /healthz answering, still journalling rounds.
      assert.equal(readFileSync(path.join(dataDir, 'launch-tokens.json'), 'utf8'), tokensBefore);
      assert.equal((await fetch(`${started.origin}/healthz`)).status, 200);
      assert.ok(await roundsGrowFrom(watch, watch.closedRounds(), 60_000), 'the first host journals on');
      watch.close();
    } finally {
      await first.kill('SIGTERM');
    }
  });

  it("a second `etg start --build` (npm start) on a running host's folder exits 2 before it builds anything; the folder free, it builds and starts", async () => {
    // The build `--build` runs is `npm run build:renderer` (vite, into the dist/renderer the first
    // host serves). An `npm` first on PATH records each call instead: no vite here, and a call
    // recorded is a build that ran.
    const fakeBin = mkdtempSync(path.join(tmpdir(), 'second-host-npm-'));
    const calls = path.join(fakeBin, 'calls');
    writeFileSync(path.join(fakeBin, 'npm'), `#!/bin/sh\necho "$*" >> '${calls}'\n`, { mode: 0o755 });
    const env = { ...process.env, PATH: `${fakeBin}${path.delimiter}${process.env.PATH ?? ''}` };
    const npmStart = () => new HostChild({ dataDir, game: 'war', stations: 1, seed: 1, extra: ['--build'], env });
    const built = () => (existsSync(calls) ? readFileSync(calls, 'utf8') : '');
    try {
      const first = host();
      const started = await first.started;
      assert.ok(started, `the first host starts: ${first.errors()}`);
      try {
        const tokensBefore = readFileSync(path.join(dataDir, 'launch-tokens.json'), 'utf8');
        await refusedBeside(npmStart(), first.process.pid);
        assert.equal(built(), '', 'the refused start built nothing');
        assert.equal(readFileSync(path.join(dataDir, 'launch-tokens.json'), 'utf8'), tokensBefore);
        assert.equal((await fetch(`${started.origin}/healthz`)).status, 200);
      } finally {
        await first.kill('SIGTERM');
      }
      // The folder free: the same command builds, then its host starts under the lock taken before the build.
      const next = npmStart();
      try {
        assert.ok(await next.started, `starts after its build: ${next.errors()}`);
        assert.equal(built(), 'run --silent build:renderer\n');
      } finally {
        await next.kill('SIGTERM');
      }
    } finally {
      rmSync(fakeBin, { recursive: true, force: true });
    }
  });

  it('the accounts command line refuses while a host runs (exit 2, naming the PID), and works once it stopped', async () => {
    const running = host();
    assert.ok(await running.started, running.errors());
    const add = () =>
      spawnSync(process.execPath, ['bin/etg.js', 'service', 'add-user', '--data-dir', dataDir, '--name', 'Ana Lei', '--role', 'supervisor'], {
        input: '482913\n482913\n',
        encoding: 'utf8',
        timeout: 60_000,
      });
    try {
      const refused = add();
      assert.equal(refused.status, 2, refused.stderr);
      assert.ok(refused.stderr.includes(String(running.process.pid)), refused.stderr);
    } finally {
      await running.kill('SIGTERM');
    }
    const done = add();
    assert.equal(done.status, 0, done.stderr);
  });

  it('a host killed with SIGKILL leaves no lock: the next one starts', async () => {
    const killed = host();
    assert.ok(await killed.started, killed.errors());
    await killed.kill('SIGKILL');
    const next = host();
    try {
      assert.ok(await next.started, `starts after a SIGKILL: ${next.errors()}`);
    } finally {
      await next.kill('SIGTERM');
    }
  });
});
