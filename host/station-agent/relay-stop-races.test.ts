// A station agent's relays stopped while a port is opening or closing (review of 3 December, L2):
// a port that opens after the stop and whose close then rejects was reported to the host as a
// port that "did not open", on the link already stopped, and a retry timer was armed after the
// stop; `stop()` returned before an open in flight had settled, so whoever awaited it and opened
// the same device again could find it still held. Now nothing is sent and no timer armed after a
// stop, `stop()` resolves only once the open in flight has settled and its port is closed, and a
// close that rejects is logged, never thrown to nobody. Both relays: the acceptor's bytes
// (byte-relay.ts) and the SAS link's (sas-relay.ts). The acceptor's case also holds the audit of
// 3 December before it (a flag read before an await, the state written after): the late port is
// closed and the host is never told it is open.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import pino from 'pino';
import WebSocket, { WebSocketServer } from 'ws';
import type { Clock } from '../../hardware/clock.js';
import type { BytePort } from '../../hardware/transport/byte-port.js';
import { decodeAgentMessage, type AgentMessage, type HostDeviceMessage } from '../../protocol/index.js';
import { ByteRelay } from './byte-relay.js';
import { OPEN_WAIT_MS } from './close-at-stop.js';
import { SasRelay } from './sas-relay.js';
import { agentEnrolment } from './test-enrolment.js';

/** Timers that fire only when the test says: it counts those armed. */
function countingClock(): { clock: Clock; armed: () => number; fire: (ms: number) => void } {
  const set = new Map<number, { fn: () => void; ms: number }>();
  let next = 0;
  return {
    clock: {
      now: () => 0,
      setTimeout: (fn, ms) => {
        set.set(++next, { fn, ms });
        return next;
      },
      clearTimeout: (h) => void set.delete(Number(h)),
    },
    armed: () => set.size,
    fire: (ms) => {
      for (const [k, t] of set)
        if (t.ms === ms) {
          set.delete(k);
          t.fn();
        }
    },
  };
}

/** The lines a relay logs, as their messages. */
function capturedLog() {
  const lines: string[] = [];
  const log = pino({ level: 'info' }, { write: (s: string) => void lines.push((JSON.parse(s) as { msg: string }).msg) });
  return { log, lines };
}

/** A port whose close is `closing` (resolves or rejects as the test says). */
function port(closing: () => Promise<void>): BytePort & { closes: number } {
  return {
    description: 'a port of the test',
    closed: false,
    closes: 0,
    write: () => Promise.resolve(),
    onData: () => () => {},
    onClose: () => () => {},
    close() {
      this.closes++;
      return closing();
    },
  };
}

/** An opener that hands over its port when the test says; `called` settles at its first call. */
function heldOpener() {
  let first: () => void = () => {};
  const h: { resolve?: (p: BytePort) => void; calls: number; called: Promise<void> } = { calls: 0, called: new Promise((r) => (first = r)) };
  const opener = () => {
    h.calls++;
    first();
    return new Promise<BytePort>((resolve) => (h.resolve = resolve));
  };
  return { h, opener };
}

const welcome: HostDeviceMessage = { type: 'device-welcome', pendingNote: null, enabled: true, accept: [500], sas: true };
const tick = () => new Promise((r) => setImmediate(r));

describe('the SAS relay stopped while its port opens', () => {
  it('a late port whose close rejects: nothing sent after the stop, no retry armed, the failure logged; stop waits for it', async () => {
    const sent: AgentMessage[] = [];
    const { log, lines } = capturedLog();
    const { clock, armed } = countingClock();
    const { h, opener } = heldOpener();
    const relay = new SasRelay('tcp:127.0.0.1:9', (m) => sent.push(m), log, opener, clock);
    relay.receive(welcome);
    assert.equal(h.calls, 1);
    let stopped = false;
    const stopping = relay.stop().then(() => (stopped = true));
    await tick();
    assert.equal(stopped, false, 'stop waits for the open in flight');
    const late = port(() => Promise.reject(new Error('EIO: the port would not close')));
    h.resolve?.(late);
    await stopping;
    assert.equal(late.closes, 1, 'the late port closed once');
    assert.deepEqual(sent, [], 'nothing told to a stopped link');
    assert.equal(armed(), 0, 'no retry armed after the stop');
    assert.ok(lines.includes('a port closing at the stop failed'), lines.join(' | '));
    assert.ok(!lines.some((l) => /did not open/.test(l)), 'not reported as a port that did not open');
  });

  it('an open port whose close rejects at the stop: the stop resolves, the failure logged', async () => {
    const sent: AgentMessage[] = [];
    const { log, lines } = capturedLog();
    const { clock } = countingClock();
    const { h, opener } = heldOpener();
    const relay = new SasRelay('tcp:127.0.0.1:9', (m) => sent.push(m), log, opener, clock);
    relay.receive(welcome);
    const open = port(() => Promise.reject(new Error('EIO: the port would not close')));
    h.resolve?.(open);
    await tick();
    assert.deepEqual(sent, [{ type: 'sas-port', open: true }]);
    await relay.stop();
    assert.equal(open.closes, 1);
    assert.ok(lines.includes('a port closing at the stop failed'), lines.join(' | '));
  });
});

describe('a stop and an open that hangs', () => {
  it(`the stop resolves after ${OPEN_WAIT_MS} ms, not never; the port that comes later is closed then, nothing sent`, async () => {
    const sent: AgentMessage[] = [];
    const { log } = capturedLog();
    const { clock, armed, fire } = countingClock();
    const { h, opener } = heldOpener();
    const relay = new SasRelay('tcp:127.0.0.1:9', (m) => sent.push(m), log, opener, clock);
    relay.receive(welcome);
    let stopped = false;
    const stopping = relay.stop().then(() => (stopped = true));
    await tick();
    assert.equal(stopped, false);
    fire(OPEN_WAIT_MS);
    await stopping;
    assert.equal(armed(), 0, 'no timer left behind');
    const late = port(() => Promise.resolve());
    h.resolve?.(late);
    for (let i = 0; i < 10 && late.closes === 0; i++) await tick();
    assert.equal(late.closes, 1);
    assert.deepEqual(sent, []);
  });
});

describe('the acceptor byte relay stopped while its port opens', { timeout: 30_000 }, () => {
  it('stop waits for the open in flight; a late port whose close rejects arms no retry and is not "did not open"', async () => {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await once(server, 'listening');
    const address = server.address();
    const at = typeof address === 'object' && address ? address.port : 0;
    const heard: AgentMessage[] = [];
    server.on('connection', (ws) => {
      ws.send(JSON.stringify({ type: 'device-welcome', pendingNote: null, enabled: true, accept: [500] }));
      ws.on('message', (data) => {
        const d = decodeAgentMessage(String(data));
        if (d.ok) heard.push(d.message);
      });
    });
    const { log, lines } = capturedLog();
    const { clock, armed } = countingClock();
    const { h, opener } = heldOpener();
    const relay = new ByteRelay({
      enrolment: agentEnrolment(203),
      spec: 'sim',
      protocol: 'id003',
      currency: 'MOP',
      log,
      clock,
      connect: () => new WebSocket(`ws://127.0.0.1:${at}`, { perMessageDeflate: false }),
      openPort: () => ({ opener }),
    });
    try {
      relay.start();
      await h.called;
      assert.equal(h.calls, 1, 'the port opening');
      let stopped = false;
      const stopping = relay.stop().then(() => (stopped = true));
      await tick();
      assert.equal(stopped, false, 'stop waits for the open in flight');
      const late = port(() => Promise.reject(new Error('EIO: the port would not close')));
      h.resolve?.(late);
      await stopping;
      assert.equal(late.closes, 1);
      assert.equal(armed(), 0, 'no retry armed after the stop');
      assert.ok(!lines.some((l) => /did not open/.test(l)), lines.join(' | '));
      assert.ok(lines.includes('a port closing at the stop failed'), lines.join(' | '));
      assert.deepEqual(
        heard.filter((m) => m.type === 'port' && m.open),
        [],
        'the host never told the late port is open',
      );
    } finally {
      await relay.stop();
      for (const c of server.clients) c.terminate();
      server.close();
    }
  });
});
