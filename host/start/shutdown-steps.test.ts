// SIGTERM's shutdown when a step throws: service mode journals its sessions out (`service.exit`),
// which a full disk refuses (SQLITE_FULL). Before, the throw rejected the shutdown and the steps
// after it (the devices closed, the ledger and the data folder released, the log flushed) never
// ran. Each step runs whatever the one before did; each failure is logged.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { shutdown, type Started } from './shutdown.js';

function started(fails: ReadonlySet<string>) {
  const ran: string[] = [];
  const errors: object[] = [];
  const step = (name: string) => () => {
    ran.push(name);
    if (fails.has(name)) throw new Error(`SQLITE_FULL: ${name}`);
  };
  const async = (name: string) => async () => step(name)();
  const log = { info: () => undefined, error: (fields: object) => void errors.push(fields), flush: step('log.flush') };
  const s = {
    stopCountingTilts: step('stopCountingTilts'),
    disk: { stop: step('disk') },
    clockWatch: { stop: step('clockWatch') },
    ledgerCheck: { stop: async('ledgerCheck') },
    devices: {
      autoplay: { stop: step('autoplay') },
      stopAttendant: step('attendant'),
      stopDealer: step('dealer'),
      sas: { close: async('sas') },
      printers: { close: async('printers') },
    },
    floor: { close: step('floor') },
    table: { stop: step('table') },
    service: { stop: step('service') },
    serviceBackend: { dispose: step('serviceBackend'), sessions: { journalHeldAtStop: step('heldExits') } },
    accounts: { close: step('accounts') },
    remoteAcceptors: { closeAll: step('remoteAcceptors') },
    transfers: { stop: step('transfers') },
    lan: { close: async('lan') },
    edges: { close: async('edges') },
    server: { close: async('server') },
    shoe: { close: async('shoe') },
    rt: { billAcceptors: { close: async('billAcceptors') }, tilts: { close: step('tilts') } },
    opened: { release: async('release'), closeLog: async('closeLog'), log },
    closeRefusals: step('closeRefusals'),
  } as unknown as Started;
  return { s, ran, errors };
}

describe('the host shutdown when a step fails', () => {
  it('with nothing failing: every step, in order, nothing logged', async () => {
    const { s, ran, errors } = started(new Set());
    await shutdown(s);
    assert.equal(ran.at(0), 'stopCountingTilts');
    assert.deepEqual(ran.slice(-3), ['release', 'log.flush', 'closeLog']);
    assert.equal(ran.length, 27);
    assert.deepEqual(errors, []);
  });

  it('service mode refused its exits (and the devices throw too): every later step still runs, each failure logged', async () => {
    const { s, ran, errors } = started(new Set(['service', 'sas', 'release']));
    await assert.doesNotReject(shutdown(s));
    assert.equal(ran.length, 27, ran.join(', '));
    for (const name of ['heldExits', 'serviceBackend', 'remoteAcceptors', 'server', 'printers', 'accounts', 'release', 'log.flush', 'closeLog'])
      assert.ok(ran.includes(name), name);
    assert.equal(errors.length, 3, JSON.stringify(errors));
  });
});
