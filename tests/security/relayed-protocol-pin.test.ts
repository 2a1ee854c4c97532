// The remote acceptors' protocol is the host's configuration, not the station's word (a review:
// on an eSSP table, `remoteAcceptors.esspFixedKey`, a station machine greeted as `id003`, the host
// attached an ID-003 driver to its relay — a CRC, no key — and the machine played a whole ID-003
// device: 50,000 credited that no validator took in). With `esspFixedKey` set only `ssp` is taken
// unless the configuration pins a station otherwise; a hello naming another is refused and closed.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { startHost, type RunningHost } from '../../host/start-host.js';
import { ByteRelay } from '../../host/station-agent/byte-relay.js';
import { pinnedAgent, pinnedSocket } from '../../host/station-agent/pinned-socket.js';

const silent = pino({ level: 'silent' });

async function until(what: string, ok: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    assert.ok(Date.now() < end, `timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("the remote acceptors' protocol in the configuration", () => {
  const base = { ...simulatedTableConfig('baccarat'), remoteStations: 2 };
  it('a station pinned is one of the remote stations', () => {
    const r = TableConfig.safeParse({ ...base, remoteAcceptors: { stationProtocols: { '105': 'id003' } } });
    assert.equal(r.success, false);
    assert.match(JSON.stringify(r.error?.issues), /105 is not one of the table's remote stations/);
    assert.equal(TableConfig.safeParse({ ...base, remoteAcceptors: { stationProtocols: { '102': 'id003' } } }).success, true);
  });
});

describe('an eSSP table: a station machine that greets as ID-003', { timeout: 120_000 }, () => {
  let dataDir: string;
  let running: RunningHost;
  const stops: (() => Promise<void> | void)[] = [];

  before(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'protocol-pin-'));
    const config = TableConfig.parse({
      ...simulatedTableConfig('baccarat'),
      remoteStations: 2,
      remoteAcceptors: { relayOnly: true, esspFixedKey: '0123456701234567', stationProtocols: { '102': 'id003' } },
    });
    running = await startHost({ dataDir, rendererDir: path.join(dataDir, 'none'), config, logger: silent, simulatedDealer: false });
  });
  after(async () => {
    for (const s of stops) await s();
    await running?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is refused at its hello, closed, and no driver is attached to its relay', async () => {
    const enrolment = running.stadium.enrol(101, ['Ana Lei (1001)', 'Rui Sá (1002)']);
    const agent = pinnedAgent(enrolment);
    const ws = pinnedSocket(enrolment, agent, '/station-device');
    stops.push(
      () => void ws.terminate(),
      () => agent.destroy(),
    );
    const replies: string[] = [];
    let closed: number | null = null;
    ws.on('message', (d) => replies.push(String(d)));
    ws.on('close', (code) => (closed = code));
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify({ type: 'hello-device', protocol: 1, station: 101, secret: enrolment.secret, acceptor: 'id003', mode: 'relay' }));
    await until('closed', () => closed !== null);
    console.log('the host answered', replies, 'and closed', closed);
    assert.equal(closed, 1008);
    assert.ok(
      replies.some((r) => /"refused".*this table's acceptor at station 101 is ssp/.test(r)),
      JSON.stringify(replies),
    );
    assert.ok(!replies.some((r) => r.includes('device-welcome')));
    assert.equal(
      running.devices.billAcceptors.statuses().find((s) => s.station === 101),
      undefined,
      'no driver',
    );
  });

  it('a station the configuration pins to ID-003 is driven as ID-003', async () => {
    const enrolment = running.stadium.enrol(102, ['Ana Lei (1001)', 'Rui Sá (1002)']);
    const agent = pinnedAgent(enrolment);
    const relay = new ByteRelay({
      enrolment,
      spec: 'sim',
      protocol: 'id003',
      currency: 'MOP',
      log: silent,
      connect: () => pinnedSocket(enrolment, agent, '/station-device'),
    });
    stops.push(
      () => relay.stop(),
      () => agent.destroy(),
    );
    relay.start();
    await until('the host drives BA-102', () => running.devices.billAcceptors.statuses().some((s) => s.station === 102 && s.state === 'ready'));
    relay.simulator()?.insertNote(100);
    await until('credited', () => running.ledger.credit(102) === 10_000);
  });
});
