// The floor's new journal entries (faults, a cash-out by handpay, a configuration change with a
// witness, a card entered by hand) travel to the upstream like any other and verify there.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { Ledger, SyncClient, verifyLedger, type Credentials } from '../../ledger/index.js';
import { billCredit } from '../../ledger/fixtures.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'upstream-floor-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
const cli = [path.resolve('bin/etg.js'), 'upstream'];
const ADMIN = 'test-admin-token-0123456789abcdef';

describe('floor entries upstream', () => {
  it('syncs tilt.raise/clear, credit.cancel, handpay.confirm with a witness, config.change and misread, and the upstream verifies the chain', async () => {
    const dataDir = path.join(tmp, 'db');
    const enrol = spawnSync(process.execPath, [...cli, 'enroll', '--terminal-id', 'F1', '--data-dir', dataDir], { encoding: 'utf8' });
    assert.equal(enrol.status, 0, enrol.stderr);
    const cred = JSON.parse(enrol.stdout) as Credentials;
    const server = spawn(process.execPath, [...cli, '--data-dir', dataDir, '--listen', '127.0.0.1:0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LOG_LEVEL: 'warn', UPSTREAM_ADMIN_TOKEN: ADMIN },
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        server.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /"listening":"([^"]+)"/.exec(out);
          if (m?.[1]) resolve(m[1]);
        });
        server.on('exit', (code) => reject(new Error(`serve exited ${code}`)));
      });
      const l = Ledger.open({ file: ':memory:', terminalId: 'F1' });
      l.append(billCredit(1, 50_000, 'n1'));
      const raised = l.append({ type: 'tilt.raise', payload: { kind: 'bill-jam', station: 1, detail: 'jam in the acceptor' } });
      l.append({
        type: 'tilt.clear',
        payload: { kind: 'bill-jam', station: 1, raisedSeq: raised.entry.seq, automatic: false, by: 'att-1', role: 'attendant' },
      });
      l.append({ type: 'credit.cancel', payload: { station: 1, amount: 50_000, reason: 'cash-out by handpay' }, txId: 'F1:cashout:1:x' });
      l.append({
        type: 'handpay.confirm',
        payload: { station: 1, requestTxId: 'F1:cashout:1:x', amount: 50_000, attendant: 'att-1', witness: 'sup-2' },
        txId: 'F1:cashout:1:x:paid',
      });
      l.append({
        type: 'config.change',
        payload: { who: 'sup-1', witness: 'sup-2', authorisation: 'DICJ-1', key: 'limits', before: { min: 1, max: 2 }, after: { min: 2, max: 3 } },
      });
      l.append({
        type: 'misread',
        payload: {
          tableId: 'T',
          detail: 'unreadable card entered by hand',
          resolution: 'card-entered',
          card: '9S',
          confirmedBy: ['sup-1', 'sup-2'],
          shoeSequence: [41],
        },
      });
      assert.equal(verifyLedger(l).ok, true);
      const c = new SyncClient(l, { url, credentials: cred });
      while ((await c.syncOnce()) === 'sent');
      assert.equal(c.status().lagEntries, 0);
      const v = (await (await fetch(`${url}/v1/terminals/F1/verify`, { headers: { authorization: `Bearer ${ADMIN}` } })).json()) as {
        ok: boolean;
        entries: number;
      };
      assert.deepEqual([v.ok, v.entries], [true, l.headOf().seq]);
      const meters = (await (await fetch(`${url}/v1/terminals/F1/meters?scope=station:1`, { headers: { authorization: `Bearer ${ADMIN}` } })).json()) as {
        name: string;
        value: number;
      }[];
      assert.deepEqual(Object.fromEntries(meters.map((m) => [m.name, m.value])), l.meters('station:1'));
      l.close();
    } finally {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
  });
});
