// A technician's disable of a bill acceptor and the faults that inhibit it are separate reasons
// (host/devices/bill-acceptors.ts): a fault clearing never enables what a technician disabled,
// and the disable, journalled, stands across a restart until a technician enables it again.
import { PROTOCOL_VERSION } from '../../protocol/index.js';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import pino from 'pino';
import WebSocket from 'ws';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { AccountStore } from '../../host/service/accounts.js';
import { startHost, type RunningHost } from '../../host/start-host.js';
import { entryCount } from '../../ledger/index.js';
import { decodeHostMessage, type CommandBody, type DeviceRow, type ServiceState } from '../../protocol/index.js';

const TECH = { name: 'Bo', staff: '2002', pin: '739164' };

async function until(test: () => boolean, what: string, ms = 15_000): Promise<void> {
  const t0 = Date.now();
  while (!test()) {
    if (Date.now() - t0 > ms) assert.fail(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/**
 * The station's credit reaching `amount`, heard from the ledger's commits (a named event), not
 * polled against a wall clock: on a loaded machine the enable, the unit's next polls, the escrow
 * and the credit journal can take longer than any fixed budget, and the test's own time-out bounds it.
 */
function credited(running: RunningHost, station: number, amount: number): Promise<void> {
  return new Promise((resolve) => {
    if (running.ledger.credit(station) === amount) return resolve();
    const off = running.ledger.onAppended(() => {
      if (running.ledger.credit(station) !== amount) return;
      off();
      resolve();
    });
  });
}

/**
 * `n` status reports of the station's acceptor saying DISABLE (its wire trace), counted from now: so
 * many polls at which an inhibited unit left the note at its slot, however slowly the machine runs
 * (a 2 s sleep is fewer polls the more loaded it is).
 */
function disabledReports(running: RunningHost, station: number, n: number): Promise<void> {
  return new Promise((resolve) => {
    let seen = 0;
    const off = running.devices.billAcceptors.onFrame((s, f) => {
      if (s !== station || f.dir !== 'rx' || !f.meaning.startsWith('DISABLE') || ++seen < n) return;
      off();
      resolve();
    });
  });
}

/** A technician signed in to the service screen over WebSocket, on the Devices page. */
async function technician(running: RunningHost) {
  const token = running.screens.urls.find((s) => s.view === 'service')?.token;
  assert.ok(token);
  const ws = new WebSocket(`${running.origin.replace('http', 'ws')}/ws`, { origin: running.origin });
  await new Promise((r) => ws.once('open', r));
  let state: ServiceState | null = null;
  let version = 0;
  let n = 0;
  const replies = new Map<string, (m: { type: string; code?: string; messageKey?: string }) => void>();
  ws.on('message', (d) => {
    const m = decodeHostMessage(d.toString());
    assert.ok(m.ok, 'host message fails its schema');
    const msg = m.message;
    if (msg.type === 'snapshot' && msg.state.kind === 'service') {
      state = msg.state;
      version = msg.version;
    } else if ((msg.type === 'ack' || msg.type === 'error') && msg.ref) replies.get(msg.ref)?.(msg);
  });
  ws.send(JSON.stringify({ type: 'hello', id: 'h', protocol: PROTOCOL_VERSION, token }));
  ws.send(JSON.stringify({ type: 'subscribe', id: 's', view: 'service' }));
  const current = () => state as ServiceState | null;
  const send = async (command: CommandBody) => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const id = `c${++n}`;
      const reply = await new Promise<{ type: string; code?: string; messageKey?: string }>((resolve) => {
        replies.set(id, resolve);
        ws.send(JSON.stringify({ type: 'command', id, view: 'service', version, command }));
      });
      if (reply.type === 'error' && reply.code === 'stale-version') continue;
      assert.equal(reply.type, 'ack', `${command.name} refused: ${reply.messageKey}`);
      return;
    }
    assert.fail('stale five times in a row');
  };
  await until(() => current() !== null, 'a first snapshot');
  await send({ name: 'service-sign-in', staff: TECH.staff, pin: TECH.pin });
  await until(() => current()?.signedIn === true && current()?.busy !== true, 'signed in');
  await send({ name: 'service-page', page: 'devices' });
  await until(() => current()?.page?.page === 'devices', 'the devices page');
  return {
    /** The acceptor's row as the Devices page shows it now. */
    row(device: string): DeviceRow | undefined {
      const page = current()?.page;
      return page?.page === 'devices' ? page.devices.find((d) => d.device === device) : undefined;
    },
    /** A device action; resolves with the notice's key once the host has answered. */
    async setEnabled(device: string, enabled: boolean): Promise<string | undefined> {
      const before = current()?.notice;
      await send({ name: 'service-action', action: { kind: 'device-enable', device, enabled } });
      await until(() => current()?.busy !== true && current()?.notice !== before, `${device} ${enabled ? 'enabled' : 'disabled'}`);
      return current()?.notice?.key;
    },
    async testNote(station: number): Promise<string | undefined> {
      const before = current()?.notice;
      await send({ name: 'service-action', action: { kind: 'test-note', station } });
      await until(() => current()?.busy !== true && current()?.notice !== before, `note test at ${station}`);
      return current()?.notice?.key;
    },
    async clearTilt(tilt: string, station: number): Promise<string | undefined> {
      const before = current()?.notice;
      await send({ name: 'service-action', action: { kind: 'clear-tilt', tilt, station } });
      await until(() => current()?.busy !== true && current()?.notice !== before, `${tilt} cleared`);
      return current()?.notice?.key;
    },
    async close() {
      ws.close();
      await until(() => running.service.sessions().length === 0, 'the session ended');
    },
  };
}

describe("a technician's disable of a bill acceptor", () => {
  it('outlasts a fault at its station and a restart, until a technician enables it', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'acceptor-disable-'));
    const start = () =>
      startHost({
        dataDir: dir,
        rendererDir: path.join(dir, 'none'),
        logger: pino({ level: 'silent' }),
        config: simulatedTableConfig('war'),
        simulatedDealer: false,
      });
    const escrows = (running: RunningHost) => entryCount(running.ledger, ['bill.escrow']);
    try {
      const accounts = new AccountStore(dir);
      await accounts.add({ name: 'Ana', role: 'supervisor', pin: '482915', staff: '2001' }, null);
      await accounts.add({ name: TECH.name, role: 'technician', pin: TECH.pin, staff: TECH.staff }, { staff: '2001', pin: '482915' });

      const first = await start();
      try {
        await until(() => first.devices.billAcceptors.statuses().find((s) => s.station === 2)?.state === 'ready', 'BA-2 ready');
        const sim = first.devices.billAcceptors.simulator(2);
        assert.ok(sim);
        const screen = await technician(first);
        assert.equal(await screen.setEnabled('BA-2', false), 'service.done.disabled');
        await until(() => screen.row('BA-2')?.enabled === false, 'the page shows BA-2 disabled');
        assert.deepEqual(screen.row('BA-2')?.inhibitedBy, ['service-disable']);

        // A jam at the same station, then fixed and cleared by the technician: the fault's reason goes, the disable stays.
        sim.faults.jam('acceptor');
        await until(() => first.floor.tilts.list().some((t) => t.kind === 'bill-jam' && t.station === 2), 'the jam fault');
        assert.deepEqual(first.devices.billAcceptors.inhibitedBy(2).sort(), ['service-disable', 'tilt:bill-jam']);
        await until(() => (screen.row('BA-2')?.inhibitedBy ?? []).includes('tilt:bill-jam'), 'the page names the fault');
        sim.faults.clear();
        await until(() => first.floor.tilts.list().find((t) => t.kind === 'bill-jam')?.clearable === true, 'the jam fixed at the device');
        assert.equal(await screen.clearTilt('bill-jam', 2), 'service.done.clearTilt');
        assert.deepEqual(first.floor.tilts.list(), []);
        assert.deepEqual(first.devices.billAcceptors.inhibitedBy(2), ['service-disable'], 'still disabled by the technician');
        // The note test says at once why no note can be read, instead of waiting for its time-out:
        // by key, each cause in the screen's words (never the codes joined in English).
        assert.equal(await screen.testNote(2), 'serviceRefusal.deviceInhibited');

        // A note offered now is not taken (a dozen status polls, several times what a note needs).
        const polls = disabledReports(first, 2, 12);
        sim.insertNote(100);
        await polls;
        assert.equal(escrows(first), 0, 'no note was taken into escrow');
        assert.equal(first.ledger.credit(2), 0);
        assert.equal(screen.row('BA-2')?.enabled, false);

        // Enabled by the technician: it takes notes again (the note waiting at the slot goes in).
        assert.equal(await screen.setEnabled('BA-2', true), 'service.done.enabled');
        await credited(first, 2, 10_000);
        assert.equal(screen.row('BA-2')?.enabled, true);
        assert.equal(screen.row('BA-2')?.inhibitedBy, undefined);

        // While a fault holds, the technician's enable says the fault still stops it.
        assert.equal(await screen.setEnabled('BA-2', false), 'service.done.disabled');
        sim.faults.jam('acceptor');
        await until(() => first.devices.billAcceptors.inhibitedBy(2).includes('tilt:bill-jam'), 'the jam again');
        assert.equal(await screen.setEnabled('BA-2', true), 'service.done.enabledInhibited');
        assert.deepEqual(first.devices.billAcceptors.inhibitedBy(2), ['tilt:bill-jam']);
        sim.faults.clear();
        await until(() => first.floor.tilts.list().find((t) => t.kind === 'bill-jam')?.clearable === true, 'the jam fixed again');
        assert.equal(await screen.clearTilt('bill-jam', 2), 'service.done.clearTilt');
        assert.deepEqual(first.devices.billAcceptors.inhibitedBy(2), []);

        // Disabled once more, and the host restarts.
        assert.equal(await screen.setEnabled('BA-2', false), 'service.done.disabled');
        await screen.close();
      } finally {
        await first.close();
      }

      const second = await start();
      try {
        assert.deepEqual(second.devices.billAcceptors.inhibitedBy(2), ['service-disable'], 'rebuilt from the journal');
        assert.deepEqual(second.devices.billAcceptors.inhibitedBy(1), [], 'the other stations accept');
        await until(() => second.devices.billAcceptors.statuses().find((s) => s.station === 2)?.state === 'ready', 'BA-2 ready after the restart');
        const screen = await technician(second);
        await until(() => screen.row('BA-2') !== undefined, 'the page lists BA-2');
        assert.equal(screen.row('BA-2')?.enabled, false, 'the Devices page shows it disabled by service');
        assert.deepEqual(screen.row('BA-2')?.inhibitedBy, ['service-disable']);
        const sim = second.devices.billAcceptors.simulator(2);
        assert.ok(sim);
        const polls = disabledReports(second, 2, 12);
        sim.insertNote(100);
        await polls;
        assert.equal(second.ledger.credit(2), 10_000, 'no note taken after the restart');
        assert.equal(await screen.setEnabled('BA-2', true), 'service.done.enabled');
        await credited(second, 2, 20_000);
        await screen.close();
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
