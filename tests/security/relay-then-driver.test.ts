// A station whose agent relayed its acceptor's bytes (`--relay`: the host ran the driver) and
// then comes back running the driver itself (a table that is not relay-only: a test rig, a
// development build). Before, the host kept the relayed link's entry and its own driver for the
// station after the driver-mode link replaced it: that driver went on opening ports whose bytes
// went to the dead relaying link, said the acceptor was lost, and the station's acceptor was
// inhibited for a fault of a device nobody drove any more.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { startHost, type RunningHost } from '../../host/start-host.js';
import { ByteRelay } from '../../host/station-agent/byte-relay.js';
import { DeviceRelay } from '../../host/station-agent/device-relay.js';
import { pinnedAgent, pinnedSocket } from '../../host/station-agent/pinned-socket.js';

const silent = pino({ level: 'silent' });

async function until(what: string, ok: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    assert.ok(Date.now() < end, `timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('a station that relayed its acceptor, then runs the driver itself', { timeout: 120_000 }, () => {
  let dataDir: string;
  let running: RunningHost;
  const stops: (() => Promise<void>)[] = [];

  before(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'relay-then-driver-'));
    const config = TableConfig.parse({ ...simulatedTableConfig('baccarat'), remoteStations: 3, remoteAcceptors: { relayOnly: false } });
    running = await startHost({ dataDir, rendererDir: path.join(dataDir, 'none'), config, logger: silent, simulatedDealer: false });
  });
  after(async () => {
    for (const stop of stops) await stop();
    await running?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const lost = (station: number) => running.floor.tilts.list().some((t) => t.kind === 'bill-acceptor-lost' && t.station === station && t.conditionPresent);

  /** The station's agent relays, then (its relaying agent stopped first, or still up and replaced) one runs the driver. */
  async function relayThenDriver(station: number, stopFirst: boolean): Promise<void> {
    const enrolment = running.stadium.enrol(station, ['Ana Lei (1001)', 'Rui Sá (1002)']);
    const agent = pinnedAgent(enrolment);
    stops.push(async () => agent.destroy());
    const link = {
      enrolment,
      spec: 'sim',
      protocol: 'id003' as const,
      currency: 'MOP' as const,
      log: silent,
      connect: () => pinnedSocket(enrolment, agent, '/station-device'),
    };
    const relayed = new ByteRelay(link);
    relayed.start();
    stops.push(() => relayed.stop());
    const mine = () => running.devices.billAcceptors.statuses().find((s) => s.station === station);
    await until(`the host drives BA-${station} over the relay`, () => mine()?.state === 'ready');
    if (stopFirst) await relayed.stop();

    const driving = new DeviceRelay(link);
    driving.start();
    stops.push(() => driving.stop());
    await until('the driving agent greeted', () => driving.connected() && driving.simulator() !== null);
    await until('its acceptor not lost', () => !lost(station));
    // From here: anything the host's own driver of the station's acceptor says, and any lost acceptor raised there.
    const said: string[] = [];
    const off = running.devices.billAcceptors.onEvent((at, e) => at === station && said.push(e.type));
    const raised: boolean[] = [];
    const offTilts = running.floor.tilts.onChange(() => raised.push(lost(station)));
    await relayed.stop();
    // Long enough for a driver over the dead relay to find it dead (its polls time out, ~0.7 s) and try again.
    await new Promise((r) => setTimeout(r, 4000));
    off();
    offTilts();
    assert.deepEqual(said, [], `the host's own driver of BA-${station} says nothing once the agent drives it`);
    assert.ok(!raised.includes(true), `no bill-acceptor-lost raised at ${station}: its acceptor answers its agent`);
    assert.equal(mine(), undefined, `the host lists no acceptor of its own at ${station}: ${JSON.stringify(mine())}`);

    driving.simulator()?.insertNote(500);
    await until('the note credited', () => running.ledger.credit(station) === 50_000, 15_000);
  }

  it('and back to relaying: the host drives the acceptor again, and credits its note', async () => {
    await relayThenDriver(103, true);
    for (const stop of stops.splice(0)) await stop();
    const enrolment = running.stadium.enrol(103, ['Ana Lei (1001)', 'Rui Sá (1002)']);
    const agent = pinnedAgent(enrolment);
    stops.push(async () => agent.destroy());
    const relayed = new ByteRelay({
      enrolment,
      spec: 'sim',
      protocol: 'id003',
      currency: 'MOP',
      log: silent,
      connect: () => pinnedSocket(enrolment, agent, '/station-device'),
    });
    relayed.start();
    stops.push(() => relayed.stop());
    await until('the host drives BA-103 again', () => running.devices.billAcceptors.statuses().some((s) => s.station === 103 && s.state === 'ready'));
    relayed.simulator()?.insertNote(100);
    await until('the note credited', () => running.ledger.credit(103) === 60_000, 15_000);
  });

  it("the relaying link replaced by the driving one: the host's driver let go, no lost acceptor, the agent's note credited", () => relayThenDriver(101, false));
  it("the relaying agent stopped, then one that drives: the host's driver let go, the agent's note credited", () => relayThenDriver(102, true));
});
