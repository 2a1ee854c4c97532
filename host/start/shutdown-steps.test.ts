// SIGTERM's shutdown when a step throws: service mode journals its sessions out (`service.exit`),
// which a full disk refuses (SQLITE_FULL). Before, the throw rejected the shutdown and the steps
// after it (the devices closed, the ledger and the data folder released, the log flushed) never
// ran. Each step runs whatever the one before did; each failure is logged. The steps are the
// host's one list (host/start/stops.ts), put there in the start's order; the shutdown runs them
// phase by phase, the newest first within one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { shutdown } from './shutdown.js';
import { StartStops, type StopPhase } from './stops.js';

/** Put on the list as `startHost` does, in its order (a part of each phase). */
const STARTED: [StopPhase, string][] = [
  ['folder', 'lock'],
  ['ledger', 'ledger'],
  ['ledger', 'witness'],
  ['folder', 'power'],
  ['ledger', 'sync'],
  ['faults', 'tilts'],
  ['rounds', 'table'],
  ['watches', 'countingTilts'],
  ['devices', 'shoe'],
  ['rounds', 'floor'],
  ['faults', 'signals'],
  ['watches', 'clockWatch'],
  ['watches', 'disk'],
  ['accounts', 'accounts'],
  ['service', 'serviceBackend'],
  ['service', 'heldExits'],
  ['service', 'service'],
  ['listeners', 'remoteAcceptors'],
  ['listeners', 'closeRefusals'],
  ['listeners', 'server'],
  ['listeners', 'lan'],
  ['devices', 'billAcceptors'],
  ['devices', 'printers'],
  ['rounds', 'dealer'],
  ['rounds', 'autoplay'],
  ['devices', 'sas'],
];

function started(fails: ReadonlySet<string>) {
  const ran: string[] = [];
  const errors: object[] = [];
  const step = (name: string) => () => {
    ran.push(name);
    if (fails.has(name)) throw new Error(`SQLITE_FULL: ${name}`);
  };
  const log = { info: () => undefined, error: (fields: object) => void errors.push(fields), warn: () => undefined, flush: step('log.flush') };
  const stops = new StartStops(log);
  for (const [phase, name] of STARTED) stops.add(phase, name, name.length % 2 === 0 ? step(name) : async () => step(name)());
  return { s: { stops, log, closeLog: async () => step('closeLog')() }, ran, errors };
}

describe('the host shutdown when a step fails', () => {
  it('with nothing failing: every step, phase by phase, nothing logged', async () => {
    const { s, ran, errors } = started(new Set());
    await shutdown(s);
    assert.deepEqual(ran, [
      ...['disk', 'clockWatch', 'countingTilts'],
      // What makes rounds, then the table.
      ...['autoplay', 'dealer', 'floor', 'table'],
      // Whoever is signed in journalled out, the held exits, before the ledger closes.
      ...['service', 'heldExits', 'serviceBackend'],
      // The screens' refusals said once no screen is left.
      ...['lan', 'server', 'closeRefusals', 'remoteAcceptors'],
      ...['sas', 'printers', 'billAcceptors', 'shoe'],
      ...['signals', 'tilts'],
      'accounts',
      ...['sync', 'witness', 'ledger'],
      // Clean only once the ledger is closed; the folder let go last.
      ...['power', 'lock'],
      ...['log.flush', 'closeLog'],
    ]);
    assert.deepEqual(errors, []);
  });

  it('service mode refused its exits (and the devices throw too): every later step still runs, each failure logged', async () => {
    const { s, ran, errors } = started(new Set(['service', 'sas', 'ledger']));
    await assert.doesNotReject(shutdown(s));
    assert.equal(ran.length, STARTED.length + 2, ran.join(', '));
    for (const name of ['heldExits', 'serviceBackend', 'remoteAcceptors', 'server', 'printers', 'accounts', 'ledger', 'lock', 'log.flush', 'closeLog'])
      assert.ok(ran.includes(name), name);
    assert.equal(errors.length, 3, JSON.stringify(errors));
  });

  it('a failed start runs the same stops in the same order, and a second stop finds none', async () => {
    const clean = started(new Set());
    await shutdown(clean.s);
    const failed = started(new Set());
    await failed.s.stops.unwind();
    assert.deepEqual(failed.ran, clean.ran.slice(0, -2), 'the unwind: the same steps as the clean stop, the log aside');
    const again = started(new Set());
    await again.s.stops.stopAll();
    const once = again.ran.length;
    assert.deepEqual(await again.s.stops.stopAll(), { stopped: [], failed: 0 });
    assert.equal(again.ran.length, once);
  });
});
