// Remote acceptors without a trusted middle (issue 28 item 2). A station agent started with
// `--relay` carries its acceptor's serial bytes over its TLS link and nothing else; the table host
// runs the driver, the same code as a seated station's (host/devices/bill-acceptors.ts) after the
// transport: the credit rule, the escrow journalled before STACK, the faults, service mode's
// trace. The agent is asked nothing about money, and a money message on a relaying link is
// refused. An SSP acceptor so relayed runs eSSP end to end: after the key exchange every packet
// the station's machine carries is ciphertext (STEX), and the fixed key is the host's alone.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import type WebSocket from 'ws';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { startHost, type RunningHost } from '../../host/start-host.js';
import { ByteRelay } from '../../host/station-agent/byte-relay.js';
import { DeviceClient } from '../../host/station-agent/device-client.js';
import { pinnedAgent, pinnedSocket } from '../../host/station-agent/pinned-socket.js';
import type { EnrolmentFile } from '../../host/stadium/enrolment-file.js';
import { entriesOfTypes, type EntryBody, type Payload } from '../../ledger/index.js';
import { decodeHostDeviceMessage } from '../../protocol/index.js';

const silent = pino({ level: 'silent' });

async function until(what: string, ok: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    assert.ok(Date.now() < end, `timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('remote acceptors relayed byte for byte, the driver on the host', { timeout: 180_000 }, () => {
  let dataDir: string;
  let running: RunningHost;
  const enrolments = new Map<number, EnrolmentFile>();
  const relays: ByteRelay[] = [];
  /** Every `bytes` message the table host sent down each station's link, decoded. */
  const down = new Map<number, Uint8Array[]>();

  before(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'remote-relay-'));
    const config = TableConfig.parse({
      ...simulatedTableConfig('baccarat'),
      remoteStations: 4,
      // 101 and 103 have ID-003 acceptors: pinned so by the table (the key makes SSP the default).
      remoteAcceptors: { esspFixedKey: '0123456701234567', stationProtocols: { '101': 'id003', '103': 'id003' } },
    });
    running = await startHost({ dataDir, rendererDir: path.join(dataDir, 'none'), config, logger: silent, simulatedDealer: false });
    for (const station of [101, 102, 103]) enrolments.set(station, running.stadium.enrol(station, ['Ana Lei (1001)', 'Rui Sá (1002)']));
  });
  after(async () => {
    for (const r of relays) await r.stop();
    await running?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A relaying agent as `etg station-agent --relay` runs it, with the host's messages to it tapped. */
  function relayAgent(station: number, protocol: 'id003' | 'ssp'): ByteRelay {
    const enrolment = enrolments.get(station) as EnrolmentFile;
    const agent = pinnedAgent(enrolment);
    const got: Uint8Array[] = [];
    down.set(station, got);
    const relay = new ByteRelay({
      enrolment,
      spec: 'sim',
      protocol,
      currency: 'MOP',
      log: silent,
      connect: (): WebSocket => {
        const ws = pinnedSocket(enrolment, agent, '/station-device');
        ws.on('message', (data) => {
          const d = decodeHostDeviceMessage(String(data));
          if (d.ok && d.message.type === 'bytes') got.push(Buffer.from(d.message.data, 'base64'));
        });
        return ws;
      },
    });
    relay.start();
    relays.push(relay);
    return relay;
  }

  const credits = (station: number) =>
    [...entriesOfTypes(running.ledger, ['bill.credit'])]
      .map((e) => (JSON.parse(e.body) as EntryBody).payload as Payload<'bill.credit'>)
      .filter((p) => p.station === station);

  it('an ID-003 acceptor relayed: the host drives it as a seated one, journals the escrow and the credit, and shows it in service mode', async () => {
    const relay = relayAgent(101, 'id003');
    await until('the host drives BA-101', () => running.devices.billAcceptors.statuses().some((s) => s.station === 101 && s.state === 'ready'));
    relay.simulator()?.insertNote(500);
    await until('the note credited', () => running.ledger.credit(101) === 50_000);
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(relay.simulator()?.cashbox, [500]);
    const [c] = credits(101);
    assert.ok(c?.escrowSeq, 'credited against the escrow the host journalled before STACK');
    assert.equal(c?.ref, undefined, "the host's own driver sends no messages: no agent message to name");
    assert.equal(running.ledger.credit(101), 50_000, 'once');
    assert.equal(running.devices.billAcceptors.statuses().find((s) => s.station === 101)?.protocol, 'id003');
  });

  it('an SSP acceptor relayed runs eSSP end to end: after the key exchange the station machine carries only ciphertext', async () => {
    const relay = relayAgent(102, 'ssp');
    await until('the host drives BA-102', () => running.devices.billAcceptors.statuses().some((s) => s.station === 102 && s.state === 'ready'));
    relay.simulator()?.insertNote(100);
    await until('the note credited', () => running.ledger.credit(102) === 10_000);
    // SSP packets: STX 0x7F, SEQ/ID, LENGTH, DATA… The key exchange goes in clear (SYNC, SET
    // GENERATOR, SET MODULUS, REQUEST KEY EXCHANGE); every packet after it carries STEX (0x7E).
    const packets = (down.get(102) ?? []).filter((b) => b[0] === 0x7f);
    const keyExchange = packets.findIndex((b) => b[3] === 0x4c);
    assert.ok(keyExchange >= 0, 'the host asked the validator for a key exchange');
    const after = packets.slice(keyExchange + 1);
    assert.ok(after.length > 5, `${after.length} packets after it`);
    assert.ok(
      after.every((b) => b[3] === 0x7e),
      'every packet after the key exchange is encrypted',
    );
  });

  it('a money message on a relaying link is refused: the agent has no say in a credit', async () => {
    // A hostile machine that greets in relay mode and then claims a note as a driving agent would.
    const enrolment = enrolments.get(103) as EnrolmentFile;
    const agent = pinnedAgent(enrolment);
    const ws = pinnedSocket(enrolment, agent, '/station-device');
    const replies: string[] = [];
    ws.on('message', (d) => replies.push(String(d)));
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify({ type: 'hello-device', protocol: 1, station: 103, secret: enrolment.secret, acceptor: 'id003', mode: 'relay' }));
    await until('welcomed', () => replies.some((r) => r.includes('device-welcome')));
    const note = { escrowId: 'forged-1', amount: 50_000, denomination: 500, currency: 'MOP' };
    ws.send(JSON.stringify({ type: 'escrow', id: 'e1', ...note }));
    ws.send(JSON.stringify({ type: 'credit', id: 'c1', ...note, recovered: false }));
    await until('both refused', () => replies.filter((r) => r.includes('"refused"')).length >= 2);
    assert.equal(running.ledger.credit(103), 0);
    assert.equal(credits(103).length, 0);
    ws.close();
    agent.destroy();
  });

  it('a table that takes relayed acceptors only refuses an agent that runs the driver itself', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'relay-only-'));
    const config = TableConfig.parse({ ...simulatedTableConfig('baccarat'), remoteStations: 1, remoteAcceptors: { relayOnly: true } });
    const host = await startHost({ dataDir: dir, rendererDir: path.join(dir, 'none'), config, logger: silent, simulatedDealer: false });
    try {
      const enrolment = host.stadium.enrol(101, ['Ana Lei (1001)', 'Rui Sá (1002)']);
      const agent = pinnedAgent(enrolment);
      const device = new DeviceClient(enrolment, agent);
      await assert.rejects(device.ready(), /relayed acceptors only/);
      device.close();
      agent.destroy();
    } finally {
      await host.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
