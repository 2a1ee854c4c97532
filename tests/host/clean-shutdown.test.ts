// Close every database and file at shutdown (issue 52 item 6). A kiosk's host is stopped and
// started again for every upgrade, every service restart and every power-saving night: whatever
// it leaves open or half-closed accumulates. The service-accounts database was never closed (its
// WAL and shared-memory files stayed beside it) and neither was the log file. Here the host starts
// and stops twenty times on one data folder, with a real log; after each stop no file of the
// folder is open in this process, no SQLite WAL, shared-memory or rollback journal is left, the
// folder's lock is free and its holder note gone, and the process holds no more descriptors (nor
// signal handlers) than after the first stop. The second test does the same with what a floor
// adds around the host: the ledger witness on its socket, a station's SAS link on a serial port
// (a socat pty pair) and the sync client of an upstream that does not answer. After each stop,
// too, no timer, socket or listener of the host is left active in the process (tests/host/leftovers.ts),
// and no sink of the host's is left on the devices' listener faults (hardware/clock.ts): a throw
// there after the stop goes to stderr, not to the log of a host gone.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import pino from 'pino';
import { startHost } from '../../host/start-host.js';
import { credentialsFile, lockDataFolder } from '../../ledger/index.js';
import { startWitness, writeNewKeyFile } from '../../witness/index.js';
import { ptyPair } from '../sas/host/io.js';
import { listenerFault } from '../../hardware/clock.js';
import { leftAfter, resources } from './leftovers.js';

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

/**
 * After stop `i`: nothing of the data folder (nor `alsoHeld`) open, no WAL, shared memory, rollback
 * journal, lock note or power marker left, the folder's lock free (this process takes it at once),
 * and no more descriptors than after the first stop (returned, to be passed back as `baseline`).
 */
function assertNothingLeft(dir: string, i: number, baseline: number | null, alsoHeld: string[] = []): number {
  const held = [...openFiles().filter((f) => f.startsWith(dir)), ...alsoHeld];
  assert.deepEqual(held, [], `stop ${i}: files of the data folder (or its devices) still open`);
  const left = filesUnder(dir).filter((f) => /-(wal|shm|journal)$/.test(f) || f.endsWith('host.lock.json') || f.endsWith('host.running'));
  assert.deepEqual(left, [], `stop ${i}: left beside the databases`);
  lockDataFolder(dir, 'the clean-shutdown test').release();
  const count = openFiles().length;
  assert.ok(count <= (baseline ?? count), `stop ${i}: ${count} descriptors open, ${baseline} after the first stop`);
  return baseline ?? count;
}

/**
 * After stop `i`: no timer, socket or handle more than before the first start (what stays, not
 * what a close finishing queued), and a device listener's throw said on stderr: no host's sink
 * left on it (each start adds one; the stop must take it off).
 */
async function assertNothingRunning(i: number, before: Map<string, number>): Promise<void> {
  assert.deepEqual(await leftAfter(before), [], `stop ${i}: timers, sockets or handles of the host left active`);
  const said: unknown[] = [];
  const error = console.error;
  console.error = (...args: unknown[]) => void said.push(args);
  try {
    listenerFault(new Error('a device listener threw after the host stopped'));
  } finally {
    console.error = error;
  }
  assert.equal(said.length, 1, `stop ${i}: a device listener's throw reached a stopped host's sink, not stderr`);
}

const STARTS = 20;

describe('a clean shutdown closes everything it opened', () => {
  it(`starts and stops the host ${STARTS} times: no descriptor, WAL, journal or lock left after any stop`, { timeout: 600_000 }, async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'clean-shutdown-'));
    // One station: what is opened per station (a bill acceptor's driver) is opened once all the same.
    const table = simulatedTableConfig('blackjack');
    const config = { ...table, stations: table.stations.slice(0, 1) };
    let baseline: number | null = null;
    let hangups: number | null = null;
    const before = resources();
    try {
      for (let i = 1; i <= STARTS; i++) {
        const running = await startHost({ dataDir: dir, rendererDir: path.join(dir, 'none'), config, simulatedDealer: false });
        // The service accounts and the ledger are open and written (power.reset, the accounts' check).
        assert.ok(
          openFiles().some((f) => f.startsWith(dir)),
          'the host holds its files while it runs',
        );
        await running.close();
        baseline = assertNothingLeft(dir, i, baseline);
        await assertNothingRunning(i, before);
        // Nor a handler on the process: the log's SIGHUP reopening is installed once, whatever the starts.
        hangups ??= process.listenerCount('SIGHUP');
        assert.equal(process.listenerCount('SIGHUP'), hangups, `stop ${i}: SIGHUP handlers`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('with a witness, a SAS link and an unanswering upstream: the same after each of 5 stops, the SAS port closed too', { timeout: 600_000 }, async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'clean-shutdown-floor-'));
    const dir = path.join(root, 'data');
    const witnessDir = path.join(root, 'witness');
    mkdirSync(witnessDir, { mode: 0o700 });
    writeNewKeyFile(path.join(witnessDir, 'witness.key'));
    const socket = path.join(witnessDir, 'witness.sock');
    const witness = await startWitness({ dir: witnessDir, key: { kind: 'file', file: path.join(witnessDir, 'witness.key') }, listen: { socket } });
    const pair = await ptyPair(root);
    // A terminal this process had before (its own, when run by hand) is not the SAS port's.
    const ttysBefore = new Set(openFiles().filter((f) => f.startsWith('/dev/pts/')));
    const ports = () => openFiles().filter((f) => f.startsWith('/dev/pts/') && !ttysBefore.has(f));
    const table = simulatedTableConfig('war');
    const config = { ...table, stations: table.stations.slice(0, 1).map((s) => ({ ...s, sas: { link: `serial:${pair.machine}`, address: 1 } })) };
    // Port 9 (discard) on this machine: nothing listens, every sync attempt fails at once and is retried.
    const upstream = 'http://127.0.0.1:9';
    let baseline: number | null = null;
    const silent = pino({ level: 'silent' });
    const before = resources();
    try {
      for (let i = 1; i <= 5; i++) {
        if (i === 1) {
          mkdirSync(dir, { recursive: true });
          writeFileSync(credentialsFile(dir), JSON.stringify({ terminalId: config.tableId, key: randomBytes(32).toString('base64'), upstream }));
        }
        const running = await startHost({
          dataDir: dir,
          rendererDir: path.join(dir, 'none'),
          config,
          logger: silent,
          simulatedDealer: false,
          upstream,
          witness: { socket, waitMs: 5_000 },
        });
        assert.ok(running.sync, 'the sync client runs');
        // The link opens its port once the host has started; wait for it, or the stop would be a start's.
        for (const t0 = Date.now(); ports().length === 0 && Date.now() - t0 < 15_000;) await sleep(20);
        assert.equal(ports().length, 1, 'the SAS port is open while the host runs');
        await running.close();
        // The witness is its own service (here in this process, its files open while it runs): the
        // host's connection to it is a socket, counted with the descriptors below.
        baseline = assertNothingLeft(dir, i, baseline, ports());
        await assertNothingRunning(i, before);
      }
    } finally {
      await witness.close();
      pair.socat.kill();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
