// A remote station's screen session the host closes for its conduct (too many protocol errors,
// its rate) waits, as ws does, up to 30 s for the peer to answer the close frame. Before (a
// review), the connection guard still counted such a link as earned (its session had said a
// hello the host accepted), so it was never evicted: a station's machine that had its sessions
// closed so, and read nothing more, held the LAN listener's slots (the per-station cap counts
// only sessions still open) and every other station's reconnect was refused meanwhile. Scaled
// down: caps of 8 per address and 16 in all; station 101 has 16 sessions closed so, from two
// addresses, and keeps them unread.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import WebSocket from 'ws';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { MAX_PROTOCOL_ERRORS } from '../../host/screens/screen-session.js';
import type { EnrolmentFile } from '../../host/stadium/enrolment-file.js';
import { startHost, type RunningHost } from '../../host/start-host.js';
import { pinnedAgent } from '../../host/station-agent/pinned-socket.js';
import { PROTOCOL_VERSION } from '../../protocol/index.js';

const BY: [string, string] = ['Ana Lei (1001)', 'Rui Sá (1002)'];

/** A station's screen from `localAddress`: its hello-station, and what the host answered first. */
function screen(e: EnrolmentFile, agent: ReturnType<typeof pinnedAgent>, localAddress: string): { ws: WebSocket; outcome: Promise<string> } {
  const url = new URL('/ws', e.host);
  url.protocol = 'wss:';
  const ws = new WebSocket(url, { agent, localAddress, perMessageDeflate: false, handshakeTimeout: 5000 });
  const outcome = new Promise<string>((resolve) => {
    ws.on('open', () => ws.send(JSON.stringify({ type: 'hello-station', id: 'h1', protocol: PROTOCOL_VERSION, station: e.station, secret: e.secret })));
    ws.on('message', (d) => {
      const m = JSON.parse(String(d)) as { type: string; code?: string };
      resolve(m.type === 'welcome' ? 'welcome' : `${m.type} ${m.code ?? ''}`);
    });
    ws.on('error', (err) => resolve(`error: ${err.message}`));
    ws.on('close', (code) => resolve(`closed ${code}`));
  });
  return { ws, outcome };
}

describe('a station screen closed for its conduct, its close never answered', { timeout: 60_000 }, () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'station-screen-linger-'));
  let running: RunningHost;
  const sockets: WebSocket[] = [];
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
    for (const s of sockets) s.terminate();
    await running?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('holds no slot of the LAN listener: another station still connects', async () => {
    const e101 = running.stadium.enrol(101, BY);
    const e102 = running.stadium.enrol(102, BY);
    const a101 = pinnedAgent(e101);
    const a102 = pinnedAgent(e102);
    for (const address of ['127.0.0.2', '127.0.0.3'])
      for (let i = 0; i < 8; i++) {
        const s = screen(e101, a101, address);
        sockets.push(s.ws);
        assert.equal(await s.outcome, 'welcome');
        // Garbage until the host closes the session, then nothing more read (its close never answered).
        for (let k = 0; k < MAX_PROTOCOL_ERRORS; k++) s.ws.send('{}');
        (s.ws as unknown as { _socket: Socket })._socket.pause();
      }
    await new Promise((r) => setTimeout(r, 500));
    const s102 = screen(e102, a102, '127.0.0.9');
    sockets.push(s102.ws);
    assert.equal(await s102.outcome, 'welcome', 'station 102 is welcomed while 101’s closed sessions wait for their close');
    a101.destroy();
    a102.destroy();
  });

  it('nor does a device link replaced by a newer one, read no more', async () => {
    for (const s of sockets.splice(0)) s.terminate();
    await new Promise((r) => setTimeout(r, 300));
    const e101 = running.stadium.enrol(101, BY);
    const e102 = running.stadium.enrol(102, BY);
    const a101 = pinnedAgent(e101);
    const a102 = pinnedAgent(e102);
    const url = new URL('/station-device', e101.host);
    url.protocol = 'wss:';
    for (const address of ['127.0.0.4', '127.0.0.5'])
      for (let i = 0; i < 8; i++) {
        const ws = new WebSocket(url, { agent: a101, localAddress: address, perMessageDeflate: false, handshakeTimeout: 5000 });
        sockets.push(ws);
        const welcomed = new Promise<string>((resolve) => {
          ws.on('message', (d) => resolve((JSON.parse(String(d)) as { type: string }).type));
          ws.on('error', (err) => resolve(`error: ${err.message}`));
          ws.on('close', (code) => resolve(`closed ${code}`));
        });
        ws.on('open', () => ws.send(JSON.stringify({ type: 'hello-device', protocol: 1, station: 101, secret: e101.secret, acceptor: 'id003' })));
        assert.equal(await welcomed, 'device-welcome');
        // Greeted, then read no more: the next link replaces it, and its close is never answered.
        (ws as unknown as { _socket: Socket })._socket.pause();
      }
    await new Promise((r) => setTimeout(r, 500));
    const s102 = screen(e102, a102, '127.0.0.9');
    sockets.push(s102.ws);
    assert.equal(await s102.outcome, 'welcome', 'station 102 is welcomed while 101’s replaced links wait for their close');
    a101.destroy();
    a102.destroy();
  });
});
