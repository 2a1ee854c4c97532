// A remote station's SAS line is relayed by its own machine (docs/sas.md, "Remote stations"):
// every byte the host's SAS machine reads there comes from that machine, and SAS has only a CRC.
// A compromised station can play the casino system: a 0x72 transfer-in with fresh ids (money
// with no note behind it, which the drop count cannot find), a 0x4C setting the validation id
// every station of the table numbers its tickets under, or the answer to its own ticket's
// redemption. So a relayed line grants no money and sets nothing table-wide unless the floor opts
// in (`relayedMoney: "accept-unverified"`); its 0x4C never sets the table's id.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import type WebSocket from 'ws';
import { simulatedTableConfig, TableConfig, unbelievedSasLines } from '../../host/config/table-config.js';
import { startHost, type RunningHost } from '../../host/start-host.js';
import { pinnedAgent, pinnedSocket } from '../../host/station-agent/pinned-socket.js';
import { entryCount } from '../../ledger/index.js';
import { SasHost } from '../sas/host/host.js';
import * as A from '../sas/host/aft.js';
import * as T from '../sas/host/tickets.js';

const silent = pino({ level: 'silent' });
const ASSET = 4242;

async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    assert.ok(Date.now() < end, `timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('a relayed SAS line in the configuration: no money, nothing table-wide, unless the floor opts in', () => {
  const base = { ...simulatedTableConfig('baccarat'), remoteStations: 2 };

  it('refuses `aft` on a remote station without the opt-in, naming why', () => {
    const r = TableConfig.safeParse({ ...base, remoteSas: [{ station: 101, address: 7, aft: { assetNumber: ASSET } }] });
    assert.equal(r.success, false);
    const issue = r.error?.issues.find((i) => i.path.join('.') === 'remoteSas.0.aft');
    assert.ok(issue, JSON.stringify(r.error?.issues));
    assert.match(issue.message, /station 101.*its own machine.*relayedMoney/s);
  });

  it('takes it with `relayedMoney: "accept-unverified"`, and only those lines answer a redemption', () => {
    const c = TableConfig.parse({
      ...base,
      tickets: { authority: 'sas' },
      remoteSas: [
        { station: 101, address: 7 },
        { station: 102, address: 8, aft: { assetNumber: ASSET }, relayedMoney: 'accept-unverified' },
      ],
    });
    assert.deepEqual([...unbelievedSasLines(c)], [101]);
  });
});

describe('a compromised station machine plays the casino system on its relayed SAS line', { timeout: 120_000 }, () => {
  let dataDir: string;
  let running: RunningHost;
  const sockets: WebSocket[] = [];
  const agents: ReturnType<typeof pinnedAgent>[] = [];

  before(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'relayed-sas-'));
    const config = TableConfig.parse({
      ...simulatedTableConfig('baccarat'),
      remoteStations: 2,
      tickets: { authority: 'sas' },
      remoteSas: [
        { station: 101, address: 7 },
        { station: 102, address: 8, aft: { assetNumber: ASSET }, relayedMoney: 'accept-unverified' },
      ],
    });
    running = await startHost({
      dataDir,
      rendererDir: path.join(dataDir, 'none'),
      config,
      logger: silent,
      simulatedDealer: false,
      sasTiming: { silenceMs: 60_000, ackTimeoutMs: 120_000 },
    });
  });
  after(async () => {
    for (const s of sockets) s.terminate();
    for (const a of agents) a.destroy();
    await running?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** The station's own enrolment on a link it speaks as it likes: its SAS line is the forger's. */
  async function forger(station: number, address: number): Promise<SasHost> {
    const enrolment = running.stadium.enrol(station, ['Ana Lei (1001)', 'Rui Sá (1002)']);
    const agent = pinnedAgent(enrolment);
    const ws = pinnedSocket(enrolment, agent, '/station-device');
    agents.push(agent);
    sockets.push(ws);
    const listeners: ((b: Uint8Array) => void)[] = [];
    let welcomed = false;
    ws.on('message', (d) => {
      const m = JSON.parse(String(d)) as { type: string; data?: string };
      if (m.type === 'device-welcome') welcomed = true;
      if (m.type === 'sas-bytes' && m.data) for (const fn of listeners) fn(new Uint8Array(Buffer.from(m.data, 'base64')));
    });
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify({ type: 'hello-device', protocol: 1, station, secret: enrolment.secret, acceptor: 'id003', mode: 'relay' }));
    await until('welcomed', () => welcomed);
    ws.send(JSON.stringify({ type: 'sas-port', open: true }));
    const h = new SasHost(
      {
        write: (bytes) => Promise.resolve(void ws.send(JSON.stringify({ type: 'sas-bytes', data: Buffer.from(bytes).toString('base64') }))),
        onData: (fn) => void listeners.push(fn),
        close: () => Promise.resolve(),
      },
      address,
    );
    await until(`the host's machine answers station ${station}'s line`, async () => {
      await h.pollOther();
      return (await h.exchange([0x80 | address], 1, 1_000)) !== null;
    });
    return h;
  }

  it("its 0x4C does not set the table's validation id (every station's tickets would be numbered under it)", async () => {
    const h = await forger(101, 7);
    const answer = await T.validationId4C(h, 0x0a_bc_de, 1);
    console.log("0x4C on station 101's relayed line answered", answer);
    assert.equal(entryCount(running.ledger, ['ticket.machine-id']), 0, 'no id journalled');
    assert.equal(answer?.machineId, 0, 'answered: none set');
  });

  it('with the opt-in, a 0x72 of its own is credited: the residual risk the floor accepted (only the system reconciles it)', async () => {
    const h = await forger(102, 8);
    const before = running.ledger.credit(102);
    const t = await A.transfer72(h, { type: 0x00, cashable: 100_000, asset: ASSET, id: 'OPTED-IN-0001' });
    console.log('0x72 at the opted-in station 102: status', t.status.toString(16), 'credit', before, '->', running.ledger.credit(102));
    assert.equal(running.ledger.credit(102), before + 100_000);
    assert.equal(entryCount(running.ledger, ['aft.in']), 1);
  });
});
