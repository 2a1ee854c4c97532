// A device link's send buffer (a security review of the device link): the host queued what it said
// to a station agent without bound, and a station that stopped reading while it kept asking (SAS
// polls, each answered with ~5 times its bytes) grew the host by ~530 MB in 10 s, its link open.
// Here a device that answers every message with 64 KiB stands for any such amplifier: the link of
// a client that reads nothing is cut once the host holds more than its cap unsent for it, and the
// line names the client.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import pino from 'pino';
import WebSocket from 'ws';
import type { ScreenSession, ScreenTransport } from '../screens/screen-session.js';
import { tableCertificate } from '../stadium/table-certificate.js';
import { createLanServer, LAN_CLOSE_GRACE_MS } from './lan-server.js';

const MAX = 256 * 1024;
const PING_MS = 400;

async function until(what: string, ok: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    assert.ok(Date.now() < end, `timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("the LAN listener's device links", { timeout: 60_000 }, () => {
  it('a link that reads nothing while the host keeps answering is cut at its send buffer cap, its client named', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'lan-device-buffer-'));
    const lines: Record<string, unknown>[] = [];
    const log = pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) });
    let disposed = false;
    let answered = 0;
    const lan = await createLanServer(
      {
        log,
        openSession: () => ({}) as ScreenSession,
        openDevice: (send) => ({
          receive: () => {
            for (let i = 0; i < 16; i++, answered++) send('x'.repeat(4096), () => undefined);
          },
          dispose: () => (disposed = true),
          greeted: () => true,
        }),
        certificate: await tableCertificate(dir, 'T1', ['127.0.0.1']),
        connections: { helloMs: 10_000, perAddress: 8, total: 16 },
        deviceLink: { maxBufferedBytes: MAX, pingMs: 60_000 },
      },
      '127.0.0.1',
      0,
    );
    const ws = new WebSocket(`wss://127.0.0.1:${lan.port}/station-device`, { rejectUnauthorized: false, perMessageDeflate: false });
    try {
      await new Promise((r) => ws.once('open', r));
      (ws as unknown as { _socket: Socket })._socket.pause();
      // Within the link's message rate (200 at once): 64 KiB asked for by each.
      for (let s = 0; s < 40 && !disposed; s++) {
        for (let i = 0; i < 5; i++) ws.send('{}');
        await new Promise((r) => setTimeout(r, 100));
      }
      await until('the link cut', () => disposed);
      const sentMiB = (answered * 4096) / 2 ** 20;
      console.log(`cut after ${sentMiB.toFixed(1)} MiB asked for (cap ${MAX / 1024} KiB)`);
      const cut = lines.filter((l) => l.msg === 'station device link not reading, its send buffer over the cap: terminated');
      assert.equal(cut.length, 1);
      assert.equal(cut[0]?.client, '127.0.0.1');
      assert.ok((cut[0]?.buffered as number) > MAX);
    } finally {
      ws.terminate();
      await lan.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the LAN listener's screen links", { timeout: 60_000 }, () => {
  // A station's machine switched off or unplugged says nothing: its TCP connection stays open on
  // the host until TCP gives up (many minutes), and service mode showed its screen connected.
  it('a remote station that answers no ping is cut within two pings, its session ended', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'lan-screen-ping-'));
    const lines: Record<string, unknown>[] = [];
    const log = pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) });
    let ended: number | null = null;
    const session = { id: 'screen-1', view: () => 'station/1', closed: () => ended !== null, receive: () => undefined, dispose: () => (ended = Date.now()) };
    const lan = await createLanServer(
      {
        log,
        openSession: () => session as unknown as ScreenSession,
        openDevice: () => ({ receive: () => undefined, dispose: () => undefined, greeted: () => true }),
        certificate: await tableCertificate(dir, 'T1', ['127.0.0.1']),
        connections: { helloMs: 10_000, perAddress: 8, total: 16 },
        screenPingMs: PING_MS,
      },
      '127.0.0.1',
      0,
    );
    // Its TLS and TCP stay up; only its pongs are gone (autoPong off), as a vanished machine's.
    const ws = new WebSocket(`wss://127.0.0.1:${lan.port}/ws`, { rejectUnauthorized: false, perMessageDeflate: false, autoPong: false });
    try {
      await new Promise((r) => ws.once('open', r));
      const from = Date.now();
      await until(`the session ended (pinged every ${PING_MS} ms)`, () => ended !== null, 5 * PING_MS);
      assert.ok(ended !== null && ended - from <= 3 * PING_MS, `within two pings and a little (${ended === null ? '-' : ended - from} ms)`);
      const cut = lines.filter((l) => l.msg === 'station screen link answered no ping: terminated');
      assert.equal(cut.length, 1);
      assert.equal(cut[0]?.client, '127.0.0.1');
    } finally {
      ws.terminate();
      await lan.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// A link the host closes for its conduct (too many protocol errors, over its rate, unauthorized, a
// binary frame) was closed with a close frame only, and ws waits 30 s for the peer's answer before
// it frees the socket: a hostile station that never answers kept each such connection counted
// under the listener's caps for 30 s, and could open the next at once. Now it is cut when it has
// not answered within LAN_CLOSE_GRACE_MS.
describe('the LAN listener cuts a link it closed that never answers the close', { timeout: 60_000 }, () => {
  async function listener(dir: string) {
    return createLanServer(
      {
        log: pino({ level: 'silent' }),
        openSession: (transport: ScreenTransport) => {
          return {
            id: 's',
            view: () => null,
            closed: () => false,
            receive: () => transport.close(1008, 'too many protocol errors'),
            dispose: () => undefined,
          } as unknown as ScreenSession;
        },
        openDevice: (_send, close) => ({ receive: () => close(1008, 'unauthorized'), dispose: () => undefined, greeted: () => false }),
        certificate: await tableCertificate(dir, 'T1', ['127.0.0.1']),
        connections: { helloMs: 60_000, perAddress: 8, total: 16 },
        screenPingMs: 60_000,
        deviceLink: { pingMs: 60_000 },
      },
      '127.0.0.1',
      0,
    );
  }

  for (const [route, frame] of [
    ['/ws', '{}'],
    ['/station-device', '{}'],
    ['/station-device', Buffer.from([1, 2, 3])],
  ] as const) {
    it(`${route}, closed for ${typeof frame === 'string' ? 'its message' : 'a binary frame'}: its slot is free within the grace`, async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'lan-close-grace-'));
      const lan = await listener(dir);
      const ws = new WebSocket(`wss://127.0.0.1:${lan.port}${route}`, { rejectUnauthorized: false, perMessageDeflate: false });
      try {
        await new Promise((r) => ws.once('open', r));
        assert.equal(lan.connections().open, 1);
        // Hostile: it reads nothing more, so it never answers the host's close frame.
        (ws as unknown as { _socket: Socket })._socket.pause();
        ws.send(frame);
        await until(`the closed link's slot free (ws waits 30 s for the answer)`, () => lan.connections().open === 0, 3 * LAN_CLOSE_GRACE_MS);
      } finally {
        ws.terminate();
        await lan.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});

describe("the LAN listener's peer links", { timeout: 60_000 }, () => {
  // A peer table's host whose machine went (power, cable) says nothing, and the listener only ever
  // sends a peer its welcome: its greeted link stayed open until TCP gave up (never, with nothing
  // to send), counted under the caps and never evicted, and service mode showed it linked in.
  it('a peer that answers no ping is cut within two pings, its link ended', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'lan-peer-ping-'));
    const lines: Record<string, unknown>[] = [];
    const log = pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) });
    let ended: number | null = null;
    const lan = await createLanServer(
      {
        log,
        openSession: () => ({}) as ScreenSession,
        openDevice: () => ({ receive: () => undefined, dispose: () => undefined, greeted: () => true }),
        openPeer: () => ({ receive: () => undefined, dispose: () => (ended ??= Date.now()), greeted: () => ended === null }),
        certificate: await tableCertificate(dir, 'T1', ['127.0.0.1']),
        connections: { helloMs: 10_000, perAddress: 8, total: 16 },
        peerPingMs: PING_MS,
      },
      '127.0.0.1',
      0,
    );
    const ws = new WebSocket(`wss://127.0.0.1:${lan.port}/peer`, { rejectUnauthorized: false, perMessageDeflate: false, autoPong: false });
    try {
      await new Promise((r) => ws.once('open', r));
      const from = Date.now();
      await until(`the peer link ended (pinged every ${PING_MS} ms)`, () => ended !== null, 5 * PING_MS);
      assert.ok(ended !== null && ended - from <= 3 * PING_MS, `within two pings and a little (${ended === null ? '-' : ended - from} ms)`);
      assert.equal(lines.filter((l) => l.msg === 'peer link answered no ping: terminated').length, 1);
    } finally {
      ws.terminate();
      await lan.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the LAN listener's device links after a binary frame", { timeout: 60_000 }, () => {
  it('hands nothing more of the link to its station once it closed it for the binary frame', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'lan-device-binary-'));
    const received: string[] = [];
    const lan = await createLanServer(
      {
        log: pino({ level: 'silent' }),
        openSession: () => ({}) as ScreenSession,
        openDevice: () => ({ receive: (t) => void received.push(t), dispose: () => undefined, greeted: () => false }),
        certificate: await tableCertificate(dir, 'T1', ['127.0.0.1']),
        connections: { helloMs: 60_000, perAddress: 8, total: 16 },
        deviceLink: { pingMs: 60_000 },
      },
      '127.0.0.1',
      0,
    );
    const ws = new WebSocket(`wss://127.0.0.1:${lan.port}/station-device`, { rejectUnauthorized: false, perMessageDeflate: false });
    try {
      await new Promise((r) => ws.once('open', r));
      (ws as unknown as { _socket: Socket })._socket.pause();
      ws.send(Buffer.from([1]));
      ws.send('{"type":"hello-device"}');
      await until('the link cut', () => lan.connections().open === 0, 3 * LAN_CLOSE_GRACE_MS);
      assert.deepEqual(received, [], 'a frame after the binary one was handed to the station');
    } finally {
      ws.terminate();
      await lan.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
