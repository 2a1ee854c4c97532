// The host has one list of what to stop (host/start/stops.ts): each start step puts its stop there
// as it starts, once, and a start that fails part-way runs it as a clean stop does. Before, the
// start kept a list for its failure and the shutdown one of its own: the table clock's 10 s timer
// went on the first only, and a host that started and stopped left it ticking (found by CI). Here:
// a step's timer and socket are let go by either path; the real host's clean stop runs, in the
// shutdown's order, the very stops a start refused at its last step (the edges' NATS port taken)
// unwinds, that one step aside.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import pino from 'pino';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { startHost } from '../../host/start-host.js';
import { shutdown } from '../../host/start/shutdown.js';
import { StartStops } from '../../host/start/stops.js';
import { leftAfter, resources } from './leftovers.js';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined, flush: () => undefined };

/** A start step that opens a repeating timer and a listening socket, each put on `stops` as it opens. */
async function fakeStep(stops: StartStops): Promise<void> {
  const timer = setInterval(() => undefined, 10_000);
  stops.add('watches', 'the fake timer', () => clearInterval(timer));
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stops.add('listeners', 'the fake listener', () => new Promise<void>((resolve) => server.close(() => resolve())));
}

/** Lines the host logged, parsed. */
function capturingLog(): { log: pino.Logger; lines: { msg: string; started?: string[]; stopped?: string[] }[] } {
  const lines: { msg: string; started?: string[]; stopped?: string[] }[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as (typeof lines)[number]) });
  return { log, lines };
}

function listening(): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => resolve(s));
  });
}

describe("the host's one list of stops", () => {
  it("a step's timer and socket are let go by a failed start's unwind and by a clean stop alike", async () => {
    const before = resources();
    const refused = new StartStops(quiet);
    await fakeStep(refused);
    assert.notDeepEqual(await leftAfter(before, 0), [], 'the step holds a timer and a socket while it runs');
    await refused.unwind();
    assert.deepEqual(await leftAfter(before), [], 'the unwind let them go');
    const ran = new StartStops(quiet);
    await fakeStep(ran);
    await shutdown({ stops: ran, log: quiet, closeLog: async () => undefined });
    assert.deepEqual(await leftAfter(before), [], 'the clean stop let them go');
  });

  it("the real host: its clean stop runs what a start refused at its last step unwinds, in the shutdown's order", { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'one-stop-list-'));
    const blocker = await listening();
    const taken = (blocker.address() as net.AddressInfo).port;
    const base = simulatedTableConfig('baccarat');
    const config = (port: number) =>
      TableConfig.parse({ ...base, tableId: 'T-ONE-LIST', remoteStations: 2, edges: { names: ['edge-1'], nats: { host: '127.0.0.1', port } } });
    const options = { dataDir: dir, rendererDir: path.join(dir, 'none'), simulatedDealer: { dealMs: 5 }, autoplay: true };
    try {
      const failed = capturingLog();
      await assert.rejects(startHost({ ...options, config: config(taken), logger: failed.log }), /nats-server/);
      const unwound = failed.lines.find((l) => l.started)?.started ?? [];
      const clean = capturingLog();
      const running = await startHost({ ...options, config: config(0), logger: clean.log });
      assert.ok(running.edges, 'the edges run');
      await running.close();
      const stopped = clean.lines.find((l) => l.msg === 'table host stopped')?.stopped ?? [];
      assert.deepEqual(
        stopped.filter((s) => s !== 'the edges'),
        unwound,
        'the clean stop and the unwind: the same stops in the same order (the edges, the step that refused, aside)',
      );
      assert.ok(stopped.includes('the table clock watch') && stopped.includes('the device listener fault log'), stopped.join(', '));
      // The shutdown's guarantees: what makes rounds stops first; service mode journals its
      // sessions out before the ledger closes; no input comes in once the devices and the
      // accounts close; the ledger closes before the power marker says clean; the folder last.
      const order = [
        'the simulated players',
        'the simulated dealer',
        'the table',
        'service mode',
        "service mode's held exits",
        'the edges',
        'the HTTP server',
        "the screens' refusals",
        'the SAS links',
        'the bill acceptors',
        'the faults',
        'the service accounts',
        'the ledger',
        'the power marker',
        "the data folder's lock",
      ];
      const at = order.map((s) => stopped.indexOf(s));
      assert.ok(
        at.every((i, k) => i >= 0 && (k === 0 || i > (at[k - 1] ?? -1))),
        `in order: ${order.join(' < ')}; stopped: ${stopped.join(', ')}`,
      );
    } finally {
      blocker.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
