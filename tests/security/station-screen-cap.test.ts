// One enrolled station holding the whole LAN listener (a security review of the LAN listener): a
// greeted screen session has earned its place and the connection guard never evicts it, and there
// was no bound on the sessions one station credential greets. 75 addresses × 8 sessions of one
// station filled the listener's 600, and every other station's reconnect was refused. Scaled down
// here: caps of 8 per address and 16 in all, station 101 greeting 16 screens from two addresses.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import WebSocket from 'ws';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { SCREENS_PER_STATION } from '../../host/screens/station-connections.js';
import type { EnrolmentFile } from '../../host/stadium/enrolment-file.js';
import { startHost, type RunningHost } from '../../host/start-host.js';
import { pinnedAgent } from '../../host/station-agent/pinned-socket.js';
import { PROTOCOL_VERSION } from '../../protocol/index.js';

const BY: [string, string] = ['Ana Lei (1001)', 'Rui Sá (1002)'];

interface Screen {
  ws: WebSocket;
  /** 'welcome', or why not. */
  outcome: Promise<string>;
  closed: () => string | null;
}

/** A station's screen from `localAddress`, saying its hello-station. */
function screen(e: EnrolmentFile, agent: ReturnType<typeof pinnedAgent>, localAddress: string): Screen {
  const url = new URL('/ws', e.host);
  url.protocol = 'wss:';
  const ws = new WebSocket(url, { agent, localAddress, perMessageDeflate: false, handshakeTimeout: 5000 });
  let closed: string | null = null;
  const outcome = new Promise<string>((resolve) => {
    ws.on('open', () => ws.send(JSON.stringify({ type: 'hello-station', id: 'h1', protocol: PROTOCOL_VERSION, station: e.station, secret: e.secret })));
    ws.on('message', (d) => {
      const m = JSON.parse(String(d)) as { type: string; code?: string };
      if (m.type === 'welcome') resolve('welcome');
      else if (m.type === 'error') resolve(`error ${m.code}`);
    });
    ws.on('error', (err) => resolve(`error: ${err.message}`));
    ws.on('close', (code, reason) => {
      closed = `${code} ${String(reason)}`;
      resolve(`closed ${closed}`);
    });
  });
  return { ws, outcome, closed: () => closed };
}

async function until(what: string, ok: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    assert.ok(Date.now() < end, `timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('the screen sessions of one station credential', { timeout: 60_000 }, () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'station-screen-cap-'));
  let running: RunningHost;
  const screens: Screen[] = [];
  before(async () => {
    const config = TableConfig.parse({
      ...simulatedTableConfig('baccarat'),
      remoteStations: 2,
      connections: { helloSeconds: 1, lan: { perAddress: 8, total: 16 } },
    });
    running = await startHost({
      dataDir: path.join(dir, 'data'),
      rendererDir: path.join(dir, 'none'),
      config,
      logger: pino({ level: 'silent' }),
      simulatedDealer: false,
    });
  });
  after(async () => {
    for (const s of screens) s.ws.terminate();
    await running?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`one station greeting 16 screens holds ${SCREENS_PER_STATION}, the oldest replaced; another station still connects`, async () => {
    const e101 = running.stadium.enrol(101, BY);
    const e102 = running.stadium.enrol(102, BY);
    const a101 = pinnedAgent(e101);
    const a102 = pinnedAgent(e102);
    for (const address of ['127.0.0.2', '127.0.0.3'])
      for (let i = 0; i < 8; i++) {
        const s = screen(e101, a101, address);
        screens.push(s);
        await s.outcome;
      }
    await until(`at most ${SCREENS_PER_STATION} of 101's screens open`, () => screens.filter((s) => s.closed() === null).length <= SCREENS_PER_STATION);
    const open = screens.filter((s) => s.closed() === null);
    console.log(`101 greeted 16 screens: ${open.length} open; closed: ${screens.find((s) => s.closed() !== null)?.closed() ?? 'none'}`);
    assert.deepEqual(open, screens.slice(-SCREENS_PER_STATION), 'the newest kept');
    const s102 = screen(e102, a102, '127.0.0.9');
    screens.push(s102);
    const got = await s102.outcome;
    console.log(`102 during it: ${got}`);
    assert.equal(got, 'welcome');
    a101.destroy();
    a102.destroy();
  });
});
