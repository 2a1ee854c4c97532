// The link's lifecycle at its edges: a stop that comes while the port is still being opened. Seen
// when a host with a SAS link on a serial port was stopped seconds after its start (the clean-
// shutdown test with a floor around the host, tests/host/clean-shutdown.test.ts): the open
// finished after the stop, the session began with a signal already aborted, waited for an abort
// that had come and gone, and the host's close never returned.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { onListenerFault } from './clock.js';
import { Link } from './link.js';
import { BasePort, type BytePort } from './transport/byte-port.js';

class QuietPort extends BasePort {
  readonly description = 'quiet';
  shutdowns = 0;
  async write(): Promise<void> {}
  protected async shutdown(): Promise<void> {
    this.shutdowns++;
  }
}

/** A session as the drivers write it: until the port closes or the link is stopped. */
function untilClosedOrStopped(port: BytePort, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    port.onClose(() => resolve());
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/** A link over `open` whose sessions are counted. */
function counted(open: () => Promise<BytePort>): { link: Link; sessions: { count: number } } {
  const sessions = { count: 0 };
  const link = new Link(open, {
    session: (p, signal) => {
      sessions.count++;
      return untilClosedOrStopped(p, signal);
    },
    down: () => undefined,
    up: () => undefined,
  });
  return { link, sessions };
}

const within = <T>(p: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} did not end within ${ms} ms`)), ms).unref())]);

describe('Link', () => {
  it('stopped while its port is being opened: the stop returns, the port opened late is closed, no session runs on it', async () => {
    let finishOpen!: (p: BytePort) => void;
    const port = new QuietPort();
    const { link, sessions } = counted(() => new Promise<BytePort>((r) => (finishOpen = r)));
    link.start();
    const stopped = link.stop();
    finishOpen(port);
    await within(stopped, 2_000, 'the stop');
    assert.equal(sessions.count, 0, 'no session on a port opened after the stop');
    assert.equal(port.closed, true);
    assert.ok(port.shutdowns >= 1);
  });

  it('stopped during a session: the session ends and the port is closed', async () => {
    const port = new QuietPort();
    const { link, sessions } = counted(async () => port);
    link.start();
    while (sessions.count === 0) await new Promise((r) => setImmediate(r));
    await within(link.stop(), 2_000, 'the stop');
    assert.equal(sessions.count, 1);
    assert.equal(port.closed, true);
    // The stop and the loop's own end may each ask (BasePort's second close is harmless: a serial
    // port's close while closing answers at once, which is what frees a close stuck in the driver).
    assert.ok(port.shutdowns >= 1);
  });
});

describe('Link backoff', () => {
  it('a device that answers once per connection and then drops it: the backoff grows, not reset by a session that did not stay up', async () => {
    let sessions = 0;
    let downs = 0;
    const link: Link = new Link(
      async () => new QuietPort(),
      {
        session: async () => {
          sessions++;
          link.markUp(); // it answered
          throw new Error('dropped'); // and went quiet at once
        },
        down: () => void downs++,
        up: () => undefined,
      },
      { reconnectBaseMs: 10, reconnectMaxMs: 10_000 },
    );
    link.start();
    await new Promise((r) => setTimeout(r, 1000));
    await within(link.stop(), 2_000, 'the stop');
    // Growing from 10 ms: 10, 20, 40, … 640 fit in a second: at most 8 sessions. Reset after each, about 100.
    assert.ok(sessions <= 8, `${sessions} sessions in a second`);
    assert.ok(downs <= 8, `${downs} outages reported`);
  });
});

describe('Link: a hook that throws', () => {
  it('the down hook throwing (a fault the journal refused): the port is opened again, the throw reported, nothing unhandled (a review of 2 December, H3)', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => void unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    const reported: unknown[] = [];
    const stopReporting = onListenerFault((e) => void reported.push(e));
    let opens = 0;
    const link = new Link(
      async () => {
        opens++;
        throw new Error('ENOENT: no such device');
      },
      {
        session: async () => undefined,
        down: () => {
          throw new Error('SQLITE_FULL: database or disk is full');
        },
        up: () => undefined,
      },
      { reconnectBaseMs: 10, reconnectMaxMs: 20 },
    );
    try {
      link.start();
      await new Promise((r) => setTimeout(r, 300));
      assert.ok(opens >= 3, `the port opened ${opens} times`);
      assert.deepEqual(unhandled, []);
      assert.equal(reported.length, 1, 'the throw reported once (the outage is reported once)');
      assert.match(String(reported[0]), /SQLITE_FULL/);
    } finally {
      await within(link.stop(), 2_000, 'the stop');
      stopReporting();
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
