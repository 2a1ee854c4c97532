// Close every database and file at shutdown (issue 52 item 6). A kiosk's host is stopped and
// started again for every upgrade, every service restart and every power-saving night: whatever
// it leaves open or half-closed accumulates. The service-accounts database was never closed (its
// WAL and shared-memory files stayed beside it) and neither was the log file. Here the host starts
// and stops twenty times on one data folder, with a real log; after each stop no file of the
// folder is open in this process, no SQLite WAL, shared-memory or rollback journal is left, the
// folder's lock is free and its holder note gone, and the process holds no more descriptors (nor
// signal handlers) than after the first stop.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { startHost } from '../../host/start-host.js';
import { lockDataFolder } from '../../ledger/index.js';

/** This process's open descriptors and what each points to (Linux: /proc/self/fd). */
function openFiles(): string[] {
  const out: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      out.push(readlinkSync(`/proc/self/fd/${fd}`));
    } catch {
      // The descriptor readdir itself used, closed since.
    }
  }
  return out;
}

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' });
}

const STARTS = 20;

describe('a clean shutdown closes everything it opened', () => {
  it(`starts and stops the host ${STARTS} times: no descriptor, WAL, journal or lock left after any stop`, { timeout: 300_000 }, async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'clean-shutdown-'));
    // One station: what is opened per station (a bill acceptor's driver) is opened once all the same.
    const table = simulatedTableConfig('blackjack');
    const config = { ...table, stations: table.stations.slice(0, 1) };
    let baseline: number | null = null;
    let hangups: number | null = null;
    try {
      for (let i = 1; i <= STARTS; i++) {
        const running = await startHost({ dataDir: dir, rendererDir: path.join(dir, 'none'), config, simulatedDealer: false });
        // The service accounts and the ledger are open and written (power.reset, the accounts' check).
        assert.ok(
          openFiles().some((f) => f.startsWith(dir)),
          'the host holds its files while it runs',
        );
        await running.close();
        const held = openFiles().filter((f) => f.startsWith(dir));
        assert.deepEqual(held, [], `stop ${i}: files of the data folder still open`);
        const left = filesUnder(dir).filter((f) => /-(wal|shm|journal)$/.test(f) || f.endsWith('host.lock.json') || f.endsWith('host.running'));
        assert.deepEqual(left, [], `stop ${i}: left beside the databases`);
        // The folder's lock is free: another process (here, this one) takes it at once.
        lockDataFolder(dir, 'the clean-shutdown test').release();
        const count = openFiles().length;
        baseline ??= count;
        assert.ok(count <= baseline, `stop ${i}: ${count} descriptors open, ${baseline} after the first stop`);
        // Nor a handler on the process: the log's SIGHUP reopening is installed once, whatever the starts.
        hangups ??= process.listenerCount('SIGHUP');
        assert.equal(process.listenerCount('SIGHUP'), hangups, `stop ${i}: SIGHUP handlers`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
