// What relaying a remote station's acceptor byte for byte costs (docs/stadium.md, relay mode): N
// stations whose agents relay their idle ID-003 acceptors' bytes to the table host over TLS, the
// host polling each through its own driver, against the same N stations whose agents run the
// driver themselves and send nothing while idle (the baseline: the same drivers polling the same
// simulators, with no bytes on the network). Host and agents share this process; the CPU of the
// same host with no agent at all, measured in the same run, is taken off both, so each figure is
// what N stations add, per station and second. Prints figures only; nothing is asserted.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { simulatedTableConfig, TableConfig } from '../host/config/table-config.js';
import { startHost } from '../host/start-host.js';
import { ByteRelay } from '../host/station-agent/byte-relay.js';
import { DeviceRelay } from '../host/station-agent/device-relay.js';
import { pinnedAgent, pinnedSocket } from '../host/station-agent/pinned-socket.js';
import { figure, QUICK, times } from './report.js';

const STATIONS = QUICK ? 5 : 50;
const SECONDS = QUICK ? 2 : 10;
const silent = pino({ level: 'silent' });

async function idleCpu(mode: 'relay' | 'driver' | 'none'): Promise<{ cpuMsPerStationSecond: number; bytesPerStationSecond: number }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `bench-relay-${mode}-`));
  const config = TableConfig.parse({ ...simulatedTableConfig('baccarat'), remoteStations: STATIONS });
  const host = await startHost({ dataDir, rendererDir: path.join(dataDir, 'none'), config, logger: silent, simulatedDealer: false });
  const agents: (ByteRelay | DeviceRelay)[] = [];
  let bytes = 0;
  try {
    for (let i = 0; i < (mode === 'none' ? 0 : STATIONS); i++) {
      const station = 101 + i;
      const enrolment = host.stadium.enrol(station, ['Ana Lei (1001)', 'Rui Sá (1002)']);
      const agent = pinnedAgent(enrolment);
      const o = {
        enrolment,
        spec: 'sim',
        protocol: 'id003' as const,
        currency: 'MOP' as const,
        log: silent,
        connect: () => {
          const ws = pinnedSocket(enrolment, agent, '/station-device');
          ws.on('message', (d: Buffer) => (bytes += d.length));
          return ws;
        },
      };
      const a = mode === 'relay' ? new ByteRelay(o) : new DeviceRelay(o);
      a.start();
      agents.push(a);
    }
    // Every acceptor up and polled before the clock starts.
    const ready = () =>
      mode === 'none'
        ? true
        : mode === 'relay'
          ? host.devices.billAcceptors.statuses().filter((s) => s.station > 100 && s.state === 'ready').length === STATIONS
          : host.stadium.acceptors.statuses().filter((s) => s.connected).length === STATIONS;
    for (let i = 0; i < 600 && !ready(); i++) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 1000));
    const b0 = bytes;
    const c0 = process.cpuUsage();
    await new Promise((r) => setTimeout(r, SECONDS * 1000));
    const c = process.cpuUsage(c0);
    return { cpuMsPerStationSecond: (c.user + c.system) / 1000 / STATIONS / SECONDS, bytesPerStationSecond: (bytes - b0) / STATIONS / SECONDS };
  } finally {
    for (const a of agents) await a.stop();
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const load0 = os.loadavg()[0] ?? 0;
const alone = await idleCpu('none');
const driverRun = await idleCpu('driver');
const relayRun = await idleCpu('relay');
const load1 = os.loadavg()[0] ?? 0;
// What the stations add to the host alone (floored at a microsecond: a figure is positive).
const net = (x: { cpuMsPerStationSecond: number; bytesPerStationSecond: number }) => ({
  ...x,
  cpuMsPerStationSecond: Math.max(0.001, x.cpuMsPerStationSecond - alone.cpuMsPerStationSecond),
});
const driver = net(driverRun);
const relay = net(relayRun);
const r = figure({
  name: `idle remote acceptor, relayed byte for byte (host runs the ID-003 driver, ${STATIONS} stations)`,
  unit: 'CPU ms per station-second',
  value: relay.cpuMsPerStationSecond,
  better: 'lower',
  baseline: { name: 'the same stations with the driver on the agent (nothing on the network while idle)', value: driver.cpuMsPerStationSecond },
});
console.log(
  `relay: ${relay.cpuMsPerStationSecond.toFixed(2)} CPU ms per station-second, ${relay.bytesPerStationSecond.toFixed(0)} B/s per station from the host; ` +
    `driver on the agent: ${driver.cpuMsPerStationSecond.toFixed(2)} ms, ${driver.bytesPerStationSecond.toFixed(0)} B/s; ratio ${times(r)}; ` +
    `the host alone ${(alone.cpuMsPerStationSecond * STATIONS).toFixed(2)} ms per second (taken off both); ${STATIONS} stations, ${SECONDS} s each, load average ${load0.toFixed(2)} → ${load1.toFixed(2)}`,
);
