// The edge's listener for remote stations, attacked from the LAN as the table host's own LAN
// listener is (tests/security/idle-sockets.test.ts): sockets that never say a word, a TLS
// connection that dribbles its upgrade request and never ends it, and WebSockets that are greeted
// with a challenge and then only ping. Before, the edge had no cap per client address nor in all
// and no deadline before the upgrade: every such socket stayed open (a file descriptor each, and a
// nonce and a session each once upgraded), until the edge ran out of descriptors and a real
// station could not connect. Its listener is now guarded by the host's own ConnectionGuard.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import WebSocket from 'ws';
import { PROTOCOL_VERSION } from '../../protocol/index.js';
import { newNonce, proveStation } from '../stadium/station-proof.js';
import { tableCertificate, type TableCertificate } from '../stadium/table-certificate.js';
import type { Edge, EdgeHolder } from './edge.js';
import { createEdgeServer, EDGE_CLOSE_GRACE_MS } from './edge-server.js';

const HELLO_MS = 1000;
const PING_MS = 400;
const CAPS = { perAddress: 4, total: 12 };
const TABLE = 'guard-table';
const STATION = 101;
const SECRET = 'station-101-secret-0123456789abcdef';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What the listener asks of its edge, up to a station's welcome: a nonce each, the proof checked, the attachment taken. */
function fakeEdge(): { edge: Edge; nonces: () => number; unspent: () => number; held: EdgeHolder[] } {
  let nonces = 0;
  const out = new Set<string>();
  const held: EdgeHolder[] = [];
  const edge = {
    nonce: () => {
      nonces++;
      const n = newNonce();
      out.add(n);
      return Promise.resolve(n);
    },
    giveBack: (n: string) => out.delete(n),
    verify: (station: number, nonce: string, proof: string) => station === STATION && proof === proveStation(SECRET, TABLE, station, nonce),
    attach: () => Promise.resolve(true),
    hold: (h: EdgeHolder) => void held.push(h),
    release: (h: EdgeHolder) => void held.splice(held.indexOf(h) >>> 0, 1),
  };
  return { edge: edge as unknown as Edge, nonces: () => nonces, unspent: () => out.size, held };
}

interface Hostile {
  closed: boolean;
  destroy(): void;
}

function track(s: { on(e: 'close', l: () => void): unknown; on(e: 'error', l: () => void): unknown }, destroy: () => void): Hostile {
  const h: Hostile = { closed: false, destroy };
  s.on('error', () => undefined);
  s.on('close', () => (h.closed = true));
  return h;
}

/** A TCP connection that never sends a byte (not even a TLS hello). */
function silentTcp(port: number, localAddress: string): Hostile {
  const s = net.connect({ port, host: '127.0.0.1', localAddress });
  return track(s, () => s.destroy());
}

/** TLS done, then an upgrade request dribbled a header at a time and never ended. */
function slowUpgrade(port: number, ca: string, localAddress: string): Hostile {
  const s = tls.connect({ socket: net.connect({ port, host: '127.0.0.1', localAddress }), host: '127.0.0.1', ca });
  let n = 0;
  const drip = setInterval(() => s.writable && s.write(n++ === 0 ? 'GET /ws HTTP/1.1\r\nHost: edge\r\n' : `X-Drip-${n}: 1\r\n`), 100);
  s.on('close', () => clearInterval(drip));
  return track(s, () => s.destroy());
}

/** A WebSocket that takes its challenge and never says hello, pinging to look alive. */
function pingingWebSocket(port: number, ca: string, localAddress: string): Hostile {
  const ws = new WebSocket(`wss://127.0.0.1:${port}/ws`, { ca, localAddress, perMessageDeflate: false });
  const ping = setInterval(() => ws.readyState === ws.OPEN && ws.ping(), 100);
  ws.on('close', () => clearInterval(ping));
  return track(ws, () => ws.terminate());
}

/** A real station from `localAddress`: the answer to its proof (`welcome`, or what went wrong) and its socket. */
function station(port: number, ca: string, localAddress: string, autoPong = true): Promise<{ answer: string; ws: WebSocket }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`wss://127.0.0.1:${port}/ws`, { ca, localAddress, perMessageDeflate: false, autoPong });
    const done = (answer: string) => {
      clearTimeout(timer);
      resolve({ answer, ws });
    };
    const timer = setTimeout(() => done('timed out'), 5000);
    ws.on('message', (d: Buffer) => {
      const m = JSON.parse(d.toString()) as { type: string; nonce?: string };
      if (m.type !== 'challenge' || m.nonce === undefined) return done(m.type);
      const proof = proveStation(SECRET, TABLE, STATION, m.nonce);
      ws.send(JSON.stringify({ type: 'hello-station', id: 'h', protocol: PROTOCOL_VERSION, station: STATION, nonce: m.nonce, proof }));
    });
    ws.on('error', (e) => done(`error: ${e.message}`));
    ws.on('close', (code) => done(`closed ${code}`));
  });
}

const open = (xs: readonly Hostile[]) => xs.filter((x) => !x.closed).length;

/** Every connection the listener's guard has seen: those it holds and those it closed, for any reason. */
const arrived = (server: { connections(): { open: number; closed: Record<string, number> } }) =>
  Object.values(server.connections().closed).reduce((a, b) => a + b, server.connections().open);

/**
 * The most connections the listener's guard held at once while `count` new ones reached it (the
 * count from `before`, `arrived`), sampled every 10 ms, and 50 ms more. Counted at the guard, not
 * from the attacker's side: a client sees its socket open until the server's close reaches it,
 * which on a loaded machine came after a fixed wait (a review: 13 of 30 still open at 300 ms at
 * load 25, the guard holding 12). Waited for by arrivals, not for a fixed time: at load 26 some
 * of the 30 had not reached the guard when a fixed 300 ms was up, and the cap's closes were read
 * before it had made them (a helper's report of 7 December, the same in that day's CI at load 25).
 */
async function mostHeld(server: Parameters<typeof arrived>[0], before: number, count: number): Promise<number> {
  let most = server.connections().open;
  for (const until = Date.now() + 10_000; arrived(server) - before < count && Date.now() < until;) {
    await tick(10);
    most = Math.max(most, server.connections().open);
  }
  for (const until = Date.now() + 50; Date.now() < until;) {
    await tick(10);
    most = Math.max(most, server.connections().open);
  }
  return most;
}

/** Closes by the caps so far (a newcomer refused, or an unproved connection evicted for it). */
const capCloses = (server: { connections(): { closed: { refused: number; evicted: number } } }) =>
  server.connections().closed.refused + server.connections().closed.evicted;

/** Waits until the listener holds no connection (the last test's closed and their nonces given back). */
async function drained(server: { connections(): { open: number } }): Promise<void> {
  for (const until = Date.now() + 5000; server.connections().open > 0 && Date.now() < until;) await tick(20);
  await tick(50);
}

/** A WebSocket that takes its challenge and goes at once, or first says a hello with a made-up proof on it. */
function takesAndGoes(port: number, ca: string, localAddress: string, lie: boolean): Promise<void> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`wss://127.0.0.1:${port}/ws`, { ca, localAddress, perMessageDeflate: false });
    ws.on('message', (d: Buffer) => {
      const m = JSON.parse(d.toString()) as { type: string; nonce?: string };
      if (m.type !== 'challenge') return;
      if (!lie) return ws.terminate();
      const hello = { type: 'hello-station', id: 'h', protocol: PROTOCOL_VERSION, station: STATION, nonce: m.nonce, proof: 'A'.repeat(43) };
      ws.send(JSON.stringify(hello));
    });
    ws.on('error', () => undefined);
    ws.on('close', () => resolve());
  });
}

describe('the edge’s listener for stations, attacked', () => {
  let dir = '';
  let certificate: TableCertificate;
  let server: Awaited<ReturnType<typeof createEdgeServer>>;
  let fake: ReturnType<typeof fakeEdge>;

  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'edge-guard-'));
    certificate = await tableCertificate(dir, 'edge-guard', ['127.0.0.1']);
    fake = fakeEdge();
    const log = pino({ level: 'silent' });
    server = await createEdgeServer(fake.edge, { log, certificate, host: '127.0.0.1', port: 0, caps: CAPS, helloMs: HELLO_MS, pingMs: PING_MS });
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('holds at most its cap of one address’s silent sockets, and that address’s real station is still welcomed', async () => {
    const capped = capCloses(server);
    const before = arrived(server);
    const hostile = Array.from({ length: 30 }, () => silentTcp(server.port, '127.0.0.1'));
    try {
      const most = await mostHeld(server, before, 30);
      assert.ok(most <= CAPS.perAddress, `${most} of 30 silent sockets from one address held at once (cap ${CAPS.perAddress})`);
      assert.ok(capCloses(server) > capped, 'the cap closed some of them (not only the hello deadline)');
      const real = await station(server.port, certificate.cert, '127.0.0.1');
      assert.equal(real.answer, 'welcome');
      await tick(3 * HELLO_MS);
      assert.equal(real.ws.readyState, WebSocket.OPEN, 'a station whose proof was taken is kept past the deadline');
      assert.equal(open(hostile), 0, 'every silent socket closed');
      real.ws.terminate();
    } finally {
      for (const h of hostile) h.destroy();
    }
  });

  it('closes a dribbled upgrade and a WebSocket that only pings within the hello deadline, and holds at most its total from many addresses', async () => {
    const hostile: Hostile[] = [];
    const before = arrived(server);
    for (let i = 0; i < 10; i++) {
      const address = `127.0.3.${1 + i}`;
      hostile.push(slowUpgrade(server.port, certificate.cert, address), pingingWebSocket(server.port, certificate.cert, address));
      hostile.push(silentTcp(server.port, address));
    }
    const capped = capCloses(server);
    try {
      const most = await mostHeld(server, before, 30);
      assert.ok(most <= CAPS.total, `${most} of 30 hostile sockets held at once (cap ${CAPS.total} in all)`);
      assert.ok(capCloses(server) > capped, 'the cap closed some of them (not only the hello deadline)');
      const real = await station(server.port, certificate.cert, '127.0.0.2');
      assert.equal(real.answer, 'welcome');
      await tick(3 * HELLO_MS);
      assert.equal(open(hostile), 0, 'every hostile socket closed within the deadline');
      real.ws.terminate();
    } finally {
      for (const h of hostile) h.destroy();
    }
  });

  it('gives back the nonce of every connection that went without proving a station, and spends only a proved one', async () => {
    await drained(server);
    const before = fake.nonces();
    const kept = fake.unspent();
    // Ten at a time, from ten addresses: under the caps, so each is greeted.
    for (const lie of [false, true])
      await Promise.all(Array.from({ length: 10 }, (_, i) => takesAndGoes(server.port, certificate.cert, `127.0.4.${1 + i}`, lie)));
    const until = Date.now() + 2000;
    while (fake.unspent() > kept && Date.now() < until) await tick(20);
    assert.equal(fake.nonces() - before, 20, 'each connection was greeted with a nonce');
    assert.equal(
      fake.unspent() - kept,
      0,
      `every unproved connection's nonce given back (${fake.unspent() - kept} of 20 kept: each one of the host's nonces wasted)`,
    );
    const real = await station(server.port, certificate.cert, '127.0.0.1');
    assert.equal(real.answer, 'welcome');
    real.ws.terminate();
    await tick(100);
    assert.equal(fake.unspent() - kept, 1, "the proved station's nonce was spent, never given back");
  });

  it('cuts a station the host moved to another edge that never answers the close, freeing its slot', async () => {
    const real = await station(server.port, certificate.cert, '127.0.0.1');
    assert.equal(real.answer, 'welcome');
    real.ws.send(JSON.stringify({ type: 'subscribe', id: 's', view: `station/${STATION}` }));
    const until = Date.now() + 2000;
    while (fake.held.length === 0 && Date.now() < until) await tick(20);
    const holder = fake.held[0];
    assert.ok(holder, 'the station subscribed');
    const slots = server.connections().open;
    // Hostile, or its machine gone: it reads nothing more, so it never answers the edge's close frame.
    real.ws.pause();
    holder.revoked('attached at another edge');
    await tick(2 * EDGE_CLOSE_GRACE_MS);
    assert.equal(
      server.connections().open,
      slots - 1,
      `the moved station's connection still counted under the caps ${2 * EDGE_CLOSE_GRACE_MS} ms after its close (ws waits 30 s for the answer)`,
    );
    real.ws.terminate();
  });

  it('cuts a welcomed station that answers no ping (its machine gone without a word), freeing its slot and its hold', async () => {
    const gone = await station(server.port, certificate.cert, '127.0.0.1', false);
    assert.equal(gone.answer, 'welcome');
    const holders = fake.held.length;
    gone.ws.send(JSON.stringify({ type: 'subscribe', id: 's', view: `station/${STATION}` }));
    const until = Date.now() + 2000;
    while (fake.held.length === holders && Date.now() < until) await tick(20);
    assert.equal(fake.held.length, holders + 1, 'the station subscribed');
    const closed = new Promise<number>((resolve) => gone.ws.once('close', () => resolve(Date.now())));
    const from = Date.now();
    const at = await Promise.race([closed, tick(5 * PING_MS).then(() => null)]);
    assert.ok(at !== null, `a station that answers no ping still connected ${5 * PING_MS} ms on (pinged every ${PING_MS} ms)`);
    assert.ok(at - from <= 3 * PING_MS, `cut within two pings and a little (${at - from} ms)`);
    // The client hears its socket end a moment before the edge's session is disposed.
    const released = Date.now() + 2000;
    while (fake.held.length > holders && Date.now() < released) await tick(20);
    assert.equal(fake.held.length, holders, 'its hold released');
  });
});
