// A station agent's own port that opens and goes at once (a USB cable that drops as the port opens,
// a SAS bridge at `tcp:HOST:PORT` that accepts and closes): both relays started their backoff over
// at every open, so such a port was opened again every 250 ms for as long as it went on, and each
// open and loss was told to the table host, which logs every change of a remote SAS port. Now the
// backoff starts over only after a port that held open (PORT_HELD_MS), as a link's does after a
// link that held. The waits run on the test's own timers: they are counted, never timed.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import pino from 'pino';
import WebSocket, { WebSocketServer } from 'ws';
import type { Clock } from '../../hardware/clock.js';
import type { BytePort } from '../../hardware/transport/byte-port.js';
import type { AgentMessage, HostDeviceMessage } from '../../protocol/index.js';
import { PORT_HELD_MS } from '../limits/redial.js';
import { ByteRelay } from './byte-relay.js';
import { SasRelay } from './sas-relay.js';
import { agentEnrolment } from './test-enrolment.js';

const FLAPS = 8;
/** 250 ms doubled, capped at 5 s: the relays' port backoff. */
const GROWING = [250, 500, 1000, 2000, 4000, 5000, 5000, 5000];
const welcome: HostDeviceMessage = { type: 'device-welcome', pendingNote: null, enabled: true, accept: [500], sas: true };
const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

/** Timers fired by the test; `now` moves when told. */
function handClock() {
  let at = 0;
  let next = 0;
  const pending = new Map<number, { fn: () => void; ms: number }>();
  const clock: Clock = {
    now: () => at,
    setTimeout: (fn, ms) => {
      pending.set(++next, { fn, ms });
      return next;
    },
    clearTimeout: (h) => void pending.delete(Number(h)),
  };
  /** Fires the one timer set (the retry) and says its wait. */
  const fire = (): number => {
    assert.equal(pending.size, 1, 'one retry armed');
    const [k, t] = [...pending][0] ?? assert.fail('no timer');
    pending.delete(k);
    at += t.ms;
    t.fn();
    return t.ms;
  };
  return { clock, fire, advance: (ms: number) => void (at += ms) };
}

/** An opener whose ports the test closes: `drop()` ends the newest as a cable that went would. */
function flappingOpener() {
  let closeLast: ((err?: Error) => void) | null = null;
  const s = { opens: 0 };
  const opener = (): Promise<BytePort> => {
    s.opens++;
    const port: BytePort = {
      description: 'a port of the test',
      closed: false,
      write: () => Promise.resolve(),
      onData: () => () => {},
      onClose: (fn) => {
        closeLast = fn;
        return () => {};
      },
      close: () => Promise.resolve(),
    };
    return Promise.resolve(port);
  };
  const drop = (): void => {
    const c = closeLast ?? assert.fail('no port open');
    closeLast = null;
    c(new Error('EIO: the device went'));
  };
  return { s, opener, drop };
}

/** Drops the port as soon as it opens, `FLAPS` times; the waits armed between. */
async function flap(f: ReturnType<typeof flappingOpener>, fire: () => number, opened: () => Promise<void>): Promise<number[]> {
  const waits: number[] = [];
  for (let i = 0; i < FLAPS; i++) {
    await opened();
    f.drop();
    waits.push(fire());
  }
  return waits;
}

describe("a station's SAS port that goes as it opens", () => {
  it('is opened again at a growing wait (before: every 250 ms); a port that held starts the wait over', async () => {
    const sent: AgentMessage[] = [];
    const { clock, fire, advance } = handClock();
    const f = flappingOpener();
    const relay = new SasRelay('tcp:127.0.0.1:9', (m) => sent.push(m), pino({ level: 'silent' }), f.opener, clock);
    relay.receive(welcome);
    const waits = await flap(f, fire, tick);
    assert.deepEqual(waits, GROWING);
    assert.equal(f.s.opens, FLAPS + 1);
    await tick();
    advance(PORT_HELD_MS);
    f.drop();
    assert.equal(fire(), 250, 'a port that held open: the wait starts over');
    await relay.stop();
  });
});

describe("a station's acceptor port that goes as it opens", { timeout: 30_000 }, () => {
  it('is opened again at a growing wait (before: every 250 ms); a port that held starts the wait over', async () => {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await once(server, 'listening');
    const address = server.address();
    const at = typeof address === 'object' && address ? address.port : 0;
    server.on('connection', (ws) => ws.send(JSON.stringify({ ...welcome, sas: undefined })));
    const { clock, fire, advance } = handClock();
    const f = flappingOpener();
    const relay = new ByteRelay({
      enrolment: agentEnrolment(204),
      spec: 'sim',
      protocol: 'id003',
      currency: 'MOP',
      log: pino({ level: 'silent' }),
      clock,
      connect: () => new WebSocket(`ws://127.0.0.1:${at}`, { perMessageDeflate: false }),
      openPort: () => ({ opener: f.opener }),
    });
    try {
      relay.start();
      let seen = 0;
      const opened = async (): Promise<void> => {
        const end = Date.now() + 10_000;
        while (f.s.opens === seen) {
          assert.ok(Date.now() < end, 'the port was not opened');
          await new Promise((r) => setTimeout(r, 5));
        }
        seen = f.s.opens;
        await tick();
      };
      const waits = await flap(f, fire, opened);
      assert.deepEqual(waits, GROWING);
      await opened();
      advance(PORT_HELD_MS);
      f.drop();
      assert.equal(fire(), 250, 'a port that held open: the wait starts over');
    } finally {
      await relay.stop();
      for (const c of server.clients) c.terminate();
      server.close();
    }
  });
});
