// The sim controls' route that faults a station's simulated ticket printer (`POST /sim/printer-fault`,
// docs/tito.md): only a host started with `--sim-controls` has it (a production host answers 404,
// whatever token is sent); with them it needs the sim token, takes a station and one of its faults,
// refuses a station with no simulated printer, and the printer it faults reports it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { withSimulatedPrinters } from '../../host/launch-options.js';
import { createLogger } from '../../host/logger.js';
import { startHost, type RunningHost } from '../../host/start-host.js';

async function post(origin: string, token: string, body: unknown): Promise<number> {
  const r = await fetch(`${origin}/sim/printer-fault`, {
    method: 'POST',
    headers: { 'x-sim-token': token, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await r.text();
  return r.status;
}

async function until(what: string, ok: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('POST /sim/printer-fault', () => {
  const dirs: string[] = [];
  const hosts: RunningHost[] = [];
  const start = async (simControls: boolean): Promise<RunningHost> => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sim-printer-fault-'));
    dirs.push(dir);
    // The demonstration table's printers (a simulated one at every station), but none at station 1.
    const config = withSimulatedPrinters(simulatedTableConfig('war'), { authority: false });
    config.stations = config.stations.map(({ printer, ...s }) => (s.station === 1 ? s : { ...s, ...(printer ? { printer } : {}) }));
    const running = await startHost({
      dataDir: dir,
      rendererDir: path.join(dir, 'no-renderer'),
      logger: createLogger(path.join(dir, 'logs'), { console: null }),
      config,
      simulatedDealer: false,
      ...(simControls ? { simControls: true } : {}),
    });
    hosts.push(running);
    return running;
  };
  let plain: RunningHost;
  let sim: RunningHost;
  before(async () => {
    plain = await start(false);
    sim = await start(true);
  });
  after(async () => {
    for (const h of hosts) await h.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('is not there without --sim-controls, whatever the token', async () => {
    assert.equal(plain.simToken, null);
    assert.ok(plain.devices.printers.simulator(2), 'the station has a simulated printer all the same');
    assert.equal(await post(plain.origin, '', { station: 2, fault: 'paper-out' }), 404);
    assert.equal(await post(plain.origin, sim.simToken ?? 'x', { station: 2, fault: 'paper-out' }), 404);
  });

  it('needs the sim token, a station and a fault it knows; refuses a station without a simulated printer', async () => {
    const token = sim.simToken ?? '';
    assert.notEqual(token, '');
    assert.equal(await post(sim.origin, 'not-it', { station: 2, fault: 'paper-out' }), 401);
    for (const body of [
      { station: 2 },
      { station: 2, fault: 'on-fire' },
      { station: '2', fault: 'jam' },
      { station: 0, fault: 'jam' },
      { station: 2, fault: 'jam', more: 1 },
    ])
      assert.equal(await post(sim.origin, token, body), 400, JSON.stringify(body));
    assert.equal(await post(sim.origin, token, { station: 1, fault: 'paper-out' }), 409, 'station 1 has no printer');
  });

  it('puts the station’s printer out of paper, and clears it', async () => {
    const token = sim.simToken ?? '';
    const faults = (): readonly string[] => sim.devices.printers.statuses().find((s) => s.station === 2)?.condition?.faults ?? [];
    await until('station 2’s printer ready', () => sim.devices.printers.statuses().find((s) => s.station === 2)?.state === 'ready');
    assert.equal(await post(sim.origin, token, { station: 2, fault: 'paper-out' }), 200);
    await until('station 2’s printer reports paper out', () => faults().includes('paper-out'));
    assert.ok(!sim.devices.printers.statuses().some((s) => s.station === 3 && s.condition?.faults.includes('paper-out')), 'only the station named');
    assert.equal(await post(sim.origin, token, { station: 2, fault: 'clear' }), 200);
    await until('station 2’s printer clear again', () => !faults().includes('paper-out'));
  });
});
