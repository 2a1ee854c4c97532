// One station's credential holding connections at an edge. At the table host's own LAN listener a
// credential holds at most SCREENS_PER_STATION screen sessions, a newer one closing the oldest
// (host/screens/station-connections.ts): a welcomed session is never evicted by the connection
// guard, and one credential from many addresses filled the listener's total, so every other
// station's reconnect was refused. The edge has the same guard and the same caps, and had no such
// bound: a station's fifth connection was welcomed beside the other four. Now the edge holds the
// same bound: the oldest is closed (1008, 'replaced by a newer screen of the station').
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import WebSocket from 'ws';
import { PROTOCOL_VERSION } from '../../protocol/index.js';
import { SCREENS_PER_STATION } from '../screens/station-connections.js';
import { newNonce, proveStation } from '../stadium/station-proof.js';
import { tableCertificate, type TableCertificate } from '../stadium/table-certificate.js';
import type { Edge } from './edge.js';
import { createEdgeServer } from './edge-server.js';

const TABLE = 'screens-table';
const SECRET = 'station-secret-0123456789abcdef-0123';

/** What the listener asks of its edge: a nonce each, the proof checked, the attachment taken. */
const edge = {
  nonce: () => Promise.resolve(newNonce()),
  giveBack: () => undefined,
  verify: (station: number, nonce: string, proof: string) => proof === proveStation(SECRET, TABLE, station, nonce),
  attach: () => Promise.resolve(true),
  hold: () => undefined,
  release: () => undefined,
} as unknown as Edge;

interface Screen {
  ws: WebSocket;
  answer: Promise<string>;
  closed: Promise<{ code: number; reason: string }>;
}

/** A station's connection from `localAddress`, proving `station`: its answer (`welcome`, or what went wrong) and its close. */
function screen(port: number, ca: string, station: number, localAddress: string): Screen {
  const ws = new WebSocket(`wss://127.0.0.1:${port}/ws`, { ca, localAddress, perMessageDeflate: false });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  const answer = new Promise<string>((resolve) => {
    ws.on('message', (d: Buffer) => {
      const m = JSON.parse(d.toString()) as { type: string; nonce?: string };
      if (m.type !== 'challenge' || m.nonce === undefined) return resolve(m.type);
      const proof = proveStation(SECRET, TABLE, station, m.nonce);
      ws.send(JSON.stringify({ type: 'hello-station', id: 'h', protocol: PROTOCOL_VERSION, station, nonce: m.nonce, proof }));
    });
    ws.on('error', (e) => resolve(`error: ${e.message}`));
    void closed.then((c) => resolve(`closed ${c.code}`));
  });
  return { ws, answer, closed };
}

describe("one station's connections at an edge", () => {
  let dir = '';
  let certificate: TableCertificate;
  let server: Awaited<ReturnType<typeof createEdgeServer>>;

  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'edge-screens-'));
    certificate = await tableCertificate(dir, 'edge-screens', ['127.0.0.1']);
    server = await createEdgeServer(edge, {
      log: pino({ level: 'silent' }),
      certificate,
      host: '127.0.0.1',
      port: 0,
      caps: { perAddress: 8, total: 64 },
    });
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`holds at most ${SCREENS_PER_STATION} of one station's: a newer one closes the oldest, and another station's are untouched`, async () => {
    const other = screen(server.port, certificate.cert, 102, '127.0.5.9');
    assert.equal(await other.answer, 'welcome');
    const screens: Screen[] = [];
    // From addresses of their own: the per-address cap is not what bounds them.
    for (let i = 0; i < SCREENS_PER_STATION + 2; i++) {
      const s = screen(server.port, certificate.cert, 101, `127.0.5.${1 + i}`);
      assert.equal(await s.answer, 'welcome', `connection ${i + 1} welcomed`);
      screens.push(s);
    }
    const within = <T>(p: Promise<T>) => Promise.race([p, new Promise<'open'>((r) => setTimeout(() => r('open'), 3000).unref())]);
    for (const s of screens.slice(0, 2))
      assert.deepEqual(await within(s.closed), { code: 1008, reason: 'replaced by a newer screen of the station' }, 'the oldest closed');
    for (const s of screens.slice(2)) assert.equal(s.ws.readyState, WebSocket.OPEN, 'the newest kept');
    assert.equal(other.ws.readyState, WebSocket.OPEN, "another station's connection kept");
    for (const s of [...screens, other]) s.ws.terminate();
  });
});
