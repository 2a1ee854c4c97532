// The witness link starts in routeSignals (host/start/signals.ts), before the steps that can still
// refuse the start (the LAN port taken, among others). The start's unwind does not stop it: the
// release does (host/start-host.ts), after the unwind, by flushing it (the refused start's own
// entries, power reset included, signed now rather than at the next start) and then stopping it.
// Checked here through a real witness: a refused start leaves no socket to it and no timer. This
// held before the test was written; with the release's `witness.stop()` taken out it fails (two
// pipes and a timer left, and the test process never exits).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import pino from 'pino';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { startHost } from '../../host/start-host.js';
import { startWitness, writeNewKeyFile } from '../../witness/index.js';
import { leftAfter, resources, turns } from './leftovers.js';

function listening(): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => resolve(s));
  });
}

describe('a start refused after its witness link started', () => {
  it('leaves no socket to the witness, no timer and no request to it after the refusal', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'start-fail-witness-'));
    const witnessDir = path.join(dir, 'witness');
    mkdirSync(witnessDir, { mode: 0o700 });
    writeNewKeyFile(path.join(witnessDir, 'witness.key'));
    const socket = path.join(witnessDir, 'witness.sock');
    const witness = await startWitness({ dir: witnessDir, key: { kind: 'file', file: path.join(witnessDir, 'witness.key') }, listen: { socket } });
    const blocker = await listening();
    const taken = (blocker.address() as net.AddressInfo).port;
    const data = path.join(dir, 'table');
    const config = TableConfig.parse({ ...simulatedTableConfig('baccarat'), tableId: 'T-WIT', remoteStations: 2, lan: { host: '127.0.0.1', port: taken } });
    try {
      await turns();
      const before = resources();
      await assert.rejects(
        startHost({
          dataDir: data,
          rendererDir: path.join(data, 'none'),
          config,
          logger: pino({ level: 'silent' }),
          simulatedDealer: false,
          witness: { socket, waitMs: 5_000 },
        }),
        /EADDRINUSE/,
      );
      await new Promise((r) => setTimeout(r, 200));
      assert.deepEqual(await leftAfter(before), [], 'nothing of the witness link (nor of the host) left');
    } finally {
      blocker.close();
      await witness.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
