// Issue 52 item 5: the upstream is a long-lived process under systemd (etg-upstream.service,
// Restart=on-failure), so a crash of it is a fault, never a loss. Its embedded default is PGlite in a
// folder: here `etg upstream --data-dir` serves a kiosk whose sync runs all the while, and is killed
// with SIGKILL at seeded moments (a batch being ingested, between batches) and started again on the
// same folder and port. Each restart opens the folder (PGlite's files whole after a kill), every batch
// the upstream acknowledged before a kill is still there after it, and at the end it holds the
// kiosk's journal entry for entry, its chain verified.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Ledger, SyncClient, type Credentials } from '../../ledger/index.js';
import { billCredit, settledRound } from '../../ledger/fixtures.js';
import { freePort } from '../soak/net.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'upstream-kill-'));
const cli = [path.resolve('bin/etg.js'), 'upstream'];
const ADMIN = 'test-admin-token-0123456789abcdef';
const KILLS = 2;
let server: ChildProcess | null = null;
after(async () => {
  if (server && server.exitCode === null && server.signalCode === null) {
    server.kill('SIGKILL');
    await new Promise((r) => server?.once('exit', r));
  }
  rmSync(tmp, { recursive: true, force: true });
});

/** `etg upstream --data-dir DIR --listen 127.0.0.1:PORT`, once it listens. */
async function serve(dataDir: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...cli, '--data-dir', dataDir, '--listen', `127.0.0.1:${port}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LOG_LEVEL: 'warn', UPSTREAM_ADMIN_TOKEN: ADMIN },
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (/"listening":"/.test(out)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
  child.stdout!.resume();
  return child;
}

async function upstreamEntries(url: string): Promise<{ ok: boolean; entries: number }> {
  const r = await fetch(`${url}/v1/terminals/K1/verify`, { headers: { authorization: `Bearer ${ADMIN}` } });
  return (await r.json()) as { ok: boolean; entries: number };
}

describe('the upstream killed at any moment loses nothing', { timeout: 600_000 }, () => {
  it(`${KILLS} SIGKILLs of the upstream on PGlite while a kiosk syncs: its folder reopens, what it acknowledged stays, it ends holding the whole journal`, async () => {
    const dataDir = path.join(tmp, 'db');
    const enrol = spawnSync(process.execPath, [...cli, 'enroll', '--terminal-id', 'K1', '--data-dir', dataDir], { encoding: 'utf8' });
    assert.equal(enrol.status, 0, enrol.stderr);
    const credentials = JSON.parse(enrol.stdout) as Credentials;
    // A port free now, kept for every start so that the kiosk's URL stays the same.
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'K1' });
    for (let s = 1; s <= 5; s++) ledger.append(billCredit(s, 10_000, `b${s}`));
    const client = new SyncClient(ledger, { url, credentials, maxBatchEntries: 7, requestTimeoutMs: 5_000 });
    let round = 0;
    const play = () => {
      const { bets, settle } = settledRound(`r${round}`, [1, 2, 3, 4, 5], 100, round);
      round++;
      ledger.appendMany([...bets, settle]);
    };
    let seed = 52;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    server = await serve(dataDir, port);
    for (let k = 0; k < KILLS; k++) {
      // The kiosk plays and syncs; the upstream is killed a seeded while in, mid-batch or between.
      const until = Date.now() + 500 + Math.floor(next() * 2_000);
      while (Date.now() < until) {
        play();
        await client.syncOnce().catch(() => 'failed');
      }
      const killing = client.syncOnce().catch(() => 'failed');
      await sleep(Math.floor(next() * 30));
      server.kill('SIGKILL');
      await new Promise((r) => server?.once('exit', r));
      await killing;
      // What the kiosk was told the upstream holds, before the kill.
      const acknowledged = ledger.headOf().seq - client.status().lagEntries;
      server = await serve(dataDir, port);
      const after = await upstreamEntries(url);
      assert.equal(after.ok, true, `kill ${k + 1}: the chain the upstream holds verifies`);
      assert.ok(after.entries >= acknowledged, `kill ${k + 1}: the upstream holds ${after.entries} entries; it had acknowledged ${acknowledged}`);
    }
    for (let i = 0; i < 5; i++) play();
    for (let tries = 0; tries < 100 && client.status().lagEntries > 0; tries++) await client.syncOnce().catch(() => 'failed');
    assert.equal(client.status().lagEntries, 0, JSON.stringify(client.status()));
    const end = await upstreamEntries(url);
    assert.equal(end.ok, true);
    assert.equal(end.entries, ledger.headOf().seq, 'the upstream holds the journal entry for entry');
    server.kill('SIGTERM');
    await new Promise((r) => server?.once('exit', r));
    server = null;
  });
});
