// A table host's start that fails part-way stops what it had started. The start wires its steps
// in order (host/start-host.ts `serve`): the HTTP server listening, the disk-space timer and the
// ledger file's check, service mode, the LAN listener, the devices, the edges. A step that throws
// after others started (the LAN port taken by another process; two stations at one SAS address
// of one device, found only where the links open) used to release the ledger and the folder and
// rethrow, leaving the HTTP server bound, the timers ticking and the simulated dealer dealing
// against a closed ledger: the process did not exit and the port stayed taken. Here, after each
// refused start: the HTTP port the host had is free, the process holds no more handles or timers
// than before it, and a second start on the same data folder runs and stops cleanly.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import pino from 'pino';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { startHost } from '../../host/start-host.js';
import { openLedger, verifyLedger } from '../../ledger/index.js';
import { leftAfter, resources, turns } from './leftovers.js';

/** Whether this process can listen on `port` at 127.0.0.1 now (the host's server gone from it). */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

function listening(): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => resolve(s));
  });
}

/** Errors the host logged (its log silent otherwise). */
function capturingLog(): { log: pino.Logger; errors: string[] } {
  const errors: string[] = [];
  const log = pino(
    { level: 'error' },
    {
      write: (line: string) => {
        errors.push(line);
      },
    },
  );
  return { log, errors };
}

/** What every refused start here leaves: the HTTP port free, no handle or timer more, the ledger as it was. */
async function assertNothingLeft(dir: string, before: Map<string, number>, errorsAtRefusal: number, errors: string[]): Promise<void> {
  await turns();
  const port = Number(readFileSync(path.join(dir, 'host-port'), 'utf8').trim());
  assert.ok(port > 0, 'the HTTP server had listened before the failing step');
  assert.equal(await canListen(port), true, `the HTTP port ${port} is free after the refused start`);
  // That listener's own handle is gone a turn after its close.
  assert.deepEqual(await leftAfter(before), [], 'no handle, socket or timer of the host left after the refused start');
  assert.deepEqual(errors.slice(errorsAtRefusal), [], 'nothing of the host ran (and failed) after the refused start');
  // The ledger closed whole: another opener finds it verified and not held.
  const ledger = openLedger(dir, 'T-PARTIAL');
  try {
    assert.ok(verifyLedger(ledger).ok, 'the ledger verifies after the refused start');
  } finally {
    ledger.close();
  }
}

describe('a start that fails part-way stops what it started', () => {
  it('the LAN port taken by another listener: the HTTP server, the timers and the folder are let go; a second start runs', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'start-partial-lan-'));
    const blocker = await listening();
    const taken = (blocker.address() as net.AddressInfo).port;
    const base = simulatedTableConfig('baccarat');
    const config = (port: number) => TableConfig.parse({ ...base, tableId: 'T-PARTIAL', remoteStations: 2, lan: { host: '127.0.0.1', port } });
    const { log, errors } = capturingLog();
    try {
      const before = resources();
      await assert.rejects(
        startHost({ dataDir: dir, rendererDir: path.join(dir, 'none'), config: config(taken), logger: log, simulatedDealer: { dealMs: 5 } }),
        /EADDRINUSE/,
      );
      const errorsAtRefusal = errors.length;
      await assertNothingLeft(dir, before, errorsAtRefusal, errors);
      const running = await startHost({ dataDir: dir, rendererDir: path.join(dir, 'none'), config: config(0), logger: log, simulatedDealer: false });
      assert.ok(running.stadium.lanOrigin, 'the second start listens on the LAN');
      await running.close();
      assert.deepEqual(await leftAfter(before), [], 'the second start stops cleanly');
    } finally {
      blocker.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it(
    'two stations at one SAS address of one device (startDevices refuses): the devices, the dealer and the listeners are stopped too',
    { timeout: 120_000 },
    async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'start-partial-sas-'));
      const device = path.join(dir, 'ttyS0');
      writeFileSync(device, '');
      symlinkSync(device, path.join(dir, 'by-id-ftdi'));
      const base = simulatedTableConfig('war');
      const links: Record<number, string> = { 1: `serial:${device}`, 2: `serial:${path.join(dir, 'by-id-ftdi')}` };
      const twice = TableConfig.parse({
        ...base,
        tableId: 'T-PARTIAL',
        remoteStations: 2,
        stations: base.stations.map((s) => (links[s.station] ? { ...s, sas: { link: links[s.station], address: 5 } } : s)),
      });
      const { log, errors } = capturingLog();
      try {
        const before = resources();
        await assert.rejects(
          // The simulated dealer and players started just before the SAS links: they deal against the ledger.
          startHost({ dataDir: dir, rendererDir: path.join(dir, 'none'), config: twice, logger: log, simulatedDealer: { dealMs: 5 }, autoplay: true }),
          /stations 1 and 2/,
        );
        const errorsAtRefusal = errors.length;
        await assertNothingLeft(dir, before, errorsAtRefusal, errors);
        const fixed = TableConfig.parse({ ...twice, stations: base.stations });
        const running = await startHost({ dataDir: dir, rendererDir: path.join(dir, 'none'), config: fixed, logger: log, simulatedDealer: false });
        await running.close();
        assert.deepEqual(await leftAfter(before), [], 'the second start stops cleanly');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it("the edges' NATS port taken (openStadium, the start's last step, refuses): everything before it is stopped", { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'start-partial-edges-'));
    const blocker = await listening();
    const taken = (blocker.address() as net.AddressInfo).port;
    const base = simulatedTableConfig('baccarat');
    const config = (port: number) =>
      TableConfig.parse({ ...base, tableId: 'T-PARTIAL', remoteStations: 2, edges: { names: ['edge-1'], nats: { host: '127.0.0.1', port } } });
    const { log, errors } = capturingLog();
    try {
      const before = resources();
      await assert.rejects(
        startHost({ dataDir: dir, rendererDir: path.join(dir, 'none'), config: config(taken), logger: log, simulatedDealer: { dealMs: 5 }, autoplay: true }),
        // The refusal is nats-server's on the port taken, not any failure of the start.
        new RegExp(`nats-server .* on 127\\.0\\.0\\.1:${taken}: .*address already in use`, 's'),
      );
      const errorsAtRefusal = errors.length;
      await assertNothingLeft(dir, before, errorsAtRefusal, errors);
      const running = await startHost({ dataDir: dir, rendererDir: path.join(dir, 'none'), config: config(0), logger: log, simulatedDealer: false });
      assert.ok(running.edges, 'the second start runs its edges');
      await running.close();
      assert.deepEqual(await leftAfter(before), [], 'the second start stops cleanly');
    } finally {
      blocker.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
