// The default database: `npm run upstream -- enroll|serve --data-dir DIR` on embedded PGlite,
// with no PostgreSQL server. Enrolment in one process, serving in another, on the same folder.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { Ledger, SyncClient, type Credentials } from '../../ledger/index.js';
import { billCredit, settledRound } from '../../ledger/fixtures.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'upstream-pglite-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
const cli = [path.resolve('bin/etg.js'), 'upstream'];
const ADMIN = 'test-admin-token-0123456789abcdef';

describe('upstream on PGlite', () => {
  it('enrols with the CLI, serves with the CLI, ingests a kiosk journal and verifies its chain', async () => {
    const dataDir = path.join(tmp, 'db');
    const enrol = spawnSync(process.execPath, [...cli, 'enroll', '--terminal-id', 'P1', '--data-dir', dataDir], { encoding: 'utf8' });
    assert.equal(enrol.status, 0, enrol.stderr);
    const cred = JSON.parse(enrol.stdout) as Credentials;
    assert.equal(cred.terminalId, 'P1');
    const twice = spawnSync(process.execPath, [...cli, 'enroll', '--terminal-id', 'P1', '--data-dir', dataDir], { encoding: 'utf8' });
    assert.equal(twice.status, 1, 'enrolling an enrolled terminal again is refused');
    assert.equal(spawnSync(process.execPath, [...cli, 'enroll', '--data-dir', dataDir], { encoding: 'utf8' }).status, 2);

    const server = spawn(process.execPath, [...cli, '--data-dir', dataDir, '--listen', '127.0.0.1:0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LOG_LEVEL: 'warn', UPSTREAM_ADMIN_TOKEN: ADMIN },
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        let err = '';
        server.stderr.on('data', (d: Buffer) => (err += d.toString()));
        server.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /"listening":"([^"]+)"/.exec(out);
          if (m?.[1]) resolve(m[1]);
        });
        server.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
      });
      const health = (await (await fetch(`${url}/healthz`)).json()) as { ok: boolean; database: string };
      assert.deepEqual(health, { ok: true, database: 'pglite' });

      const l = Ledger.open({ file: ':memory:', terminalId: 'P1' });
      for (let s = 1; s <= 7; s++) l.append(billCredit(s, 10_000, `b${s}`));
      for (let i = 0; i < 10; i++) {
        const { bets, settle } = settledRound(`r${i}`, [1, 2, 3, 4, 5, 6, 7], 100, i);
        l.appendMany([...bets, settle]);
      }
      // Round progress (no money) travels and verifies upstream like any other entry.
      l.append({ type: 'shoe.change', payload: { tableId: 'P-T', event: 'loaded', sequence: 1 } });
      l.append({ type: 'card.read', payload: { tableId: 'P-T', roundId: 'r10', sequence: 2, card: 'AS', to: 'player' } });
      l.append({ type: 'round.decision', payload: { tableId: 'P-T', roundId: 'r10', seat: 1, station: 1, action: 'stand', auto: true } });
      const c = new SyncClient(l, { url, credentials: cred, maxBatchEntries: 13 });
      while ((await c.syncOnce()) === 'sent');
      assert.equal(c.status().lagEntries, 0);
      const v = (await (await fetch(`${url}/v1/terminals/P1/verify`, { headers: { authorization: `Bearer ${ADMIN}` } })).json()) as {
        ok: boolean;
        entries: number;
      };
      assert.equal(v.ok, true);
      assert.equal(v.entries, l.headOf().seq);
      const rounds = (await (await fetch(`${url}/v1/terminals/P1/rounds?limit=3`, { headers: { authorization: `Bearer ${ADMIN}` } })).json()) as {
        round: { roundId: string };
      }[];
      assert.deepEqual(
        rounds.map((r) => r.round.roundId),
        ['r9', 'r8', 'r7'],
      );
      const meters = (await (await fetch(`${url}/v1/terminals/P1/meters?scope=table`, { headers: { authorization: `Bearer ${ADMIN}` } })).json()) as {
        name: string;
        value: number;
      }[];
      assert.deepEqual(Object.fromEntries(meters.map((m) => [m.name, m.value])), l.meters('table'));
    } finally {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
  });
});
