// A station agent's device link dialled again after a stall-cut (a review of the link's backoff:
// it was reset when the socket opened). A host, or whatever answers at its address, that accepts
// the link and then stalls, never reading (cut at the send buffer cap) or never welcoming the
// hello, was dialled again after the first wait every time: a TLS handshake every 100-200 ms
// for as long as it went on. Now the backoff is reset only by a link the host welcomed and that
// held for three ping intervals, and a link not welcomed in time is cut. The redial's waits run
// on the test's own timers and the jitter is seeded: the waits chosen are counted, never timed.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import WebSocket, { WebSocketServer } from 'ws';
import type { HostDeviceMessage } from '../../protocol/index.js';
import type { Clock } from '../../hardware/clock.js';
import { agentEnrolment } from './test-enrolment.js';
import { agentLink } from './test-device-link.js';

const enrolment = agentEnrolment(202);
const welcome: HostDeviceMessage = { type: 'device-welcome', pendingNote: null, enabled: true, accept: [], sas: true };
const chunk = Buffer.alloc(48, 0x80).toString('base64');
const CUTS = 8;
const PING = 60_000;
const TIMING = { maxBufferedBytes: 64 * 1024, pingMs: PING };

async function until(what: string, ok: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    assert.ok(Date.now() < end, `timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Timers the test runs by hand: each one set is kept until the test fires it; `now` moves when told. */
function handTimers() {
  let clock = 0;
  let next = 0;
  const pending = new Map<number, { fn: () => void; ms: number }>();
  const timers: Clock = {
    now: () => clock,
    setTimeout: (fn, ms) => {
      pending.set(++next, { fn, ms });
      return next;
    },
    clearTimeout: (h) => void pending.delete(h as number),
  };
  /** Fires the one timer of `ms` (or any, when absent) set, and says its wait. */
  const fire = (ms?: number): number => {
    for (const [k, t] of pending)
      if (ms === undefined || t.ms === ms) {
        pending.delete(k);
        t.fn();
        return t.ms;
      }
    throw new Error(`no timer of ${ms} ms set`);
  };
  return { timers, fire, pending, advance: (ms: number) => void (clock += ms) };
}

/** A table host at a port: what it does with each link is `onLink`'s. */
async function fakeHost(onLink: (ws: WebSocket, req: IncomingMessage) => void) {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(server, 'listening');
  const address = server.address();
  const host = { port: typeof address === 'object' && address ? address.port : 0, links: 0, close: () => undefined as void };
  server.on('connection', (ws, req) => {
    host.links++;
    onLink(ws, req);
  });
  host.close = () => {
    for (const c of server.clients) c.terminate();
    server.close();
  };
  return host;
}

/** The waits the backoff chose for the first `n` redials with a jitter of 0: the ceiling's lower half. */
function backedOff(n: number): number[] {
  return Array.from({ length: n }, (_, i) => Math.min(5000, 200 * 2 ** i) / 2);
}

describe("a station agent's device link dialled again after a stall", { timeout: 60_000 }, () => {
  it('a host that welcomes and stops reading: each cut at the cap waits longer than the last', async () => {
    const t = handTimers();
    const host = await fakeHost((ws, req) => {
      ws.send(JSON.stringify(welcome));
      req.socket.pause();
    });
    const { link, warnings, sockets } = agentLink(host.port, { enrolment, timing: TIMING, timers: t.timers, welcomeMs: 10_000 });
    const waits: number[] = [];
    try {
      link.start();
      for (let cut = 0; cut < CUTS; cut++) {
        await until(`link ${cut + 1} up`, () => link.connected() && sockets.length === cut + 1);
        let sent = 0;
        while (link.send({ type: 'sas-bytes', data: chunk }) && sent < 100_000) sent++;
        assert.ok(sent < 100_000, 'cut at the send buffer cap');
        await until(`link ${cut + 1} closed`, () => !link.connected() && [...t.pending.values()].some((p) => p.ms < 10_000));
        waits.push(t.fire());
      }
      await until('the last redial dialled', () => host.links === CUTS + 1);
      console.log(`a host that welcomes and stalls: ${CUTS} cuts, waits ${waits.join(', ')} ms (${waits.reduce((a, b) => a + b, 0)} ms in all)`);
      assert.deepEqual(waits, backedOff(CUTS));
      assert.equal(warnings.filter((w) => w.msg === 'device link to the table not reading, its send buffer over the cap: terminated').length, CUTS);
    } finally {
      link.stop();
      host.close();
    }
  });

  it('a host that takes the link and never welcomes it: cut at the welcome deadline, each wait longer than the last', async () => {
    const t = handTimers();
    const WELCOME = 7000;
    const host = await fakeHost(() => undefined);
    const { link, warnings, sockets } = agentLink(host.port, { enrolment, timing: TIMING, timers: t.timers, welcomeMs: WELCOME });
    const waits: number[] = [];
    try {
      link.start();
      for (let cut = 0; cut < CUTS; cut++) {
        await until(`link ${cut + 1} open`, () => sockets.length === cut + 1 && sockets[cut]?.readyState === WebSocket.OPEN);
        // Its pings would be answered for ever: only the welcome deadline cuts it.
        await until('the welcome deadline set', () => [...t.pending.values()].some((p) => p.ms === WELCOME));
        t.fire(WELCOME);
        await until(`link ${cut + 1} closed`, () => [...t.pending.values()].some((p) => p.ms < WELCOME));
        waits.push(t.fire());
      }
      await until('the last redial dialled', () => host.links === CUTS + 1);
      console.log(`a host that never welcomes: ${CUTS} cuts, waits ${waits.join(', ')} ms`);
      assert.equal(link.connected(), false);
      assert.deepEqual(waits, backedOff(CUTS));
      assert.equal(warnings.filter((w) => w.msg === 'device link to the table not welcomed in time: terminated').length, CUTS);
    } finally {
      link.stop();
      host.close();
    }
  });

  it('a link that was welcomed and held for three pings is dialled again after the first wait', async () => {
    const t = handTimers();
    let drop: (() => void) | null = null;
    const host = await fakeHost((ws) => {
      ws.send(JSON.stringify(welcome));
      drop = () => ws.terminate();
    });
    const { link, sockets } = agentLink(host.port, { enrolment, timing: TIMING, timers: t.timers, welcomeMs: 10_000 });
    const waits: number[] = [];
    try {
      link.start();
      for (let cut = 0; cut < 4; cut++) {
        await until(`link ${cut + 1} up`, () => link.connected() && sockets.length === cut + 1);
        // The first two links drop at once (waits grow), the next two after holding three pings (back to the first wait).
        if (cut >= 2) t.advance(3 * PING);
        (drop as (() => void) | null)?.();
        await until(`link ${cut + 1} closed`, () => !link.connected() && [...t.pending.values()].some((p) => p.ms < 10_000));
        waits.push(t.fire());
      }
      console.log(`links that dropped at once, then held: waits ${waits.join(', ')} ms`);
      assert.deepEqual(waits, [100, 200, 100, 100]);
    } finally {
      link.stop();
      host.close();
    }
  });
});
