// Issue 55, a stall of the edges' soak (a station's own part left 3 versions behind for good after
// nats-server came back): the host's bridge republished its last values and its held stations'
// own parts after a reconnection only once it had made its stream again. A stream not made at the
// first ask (JetStream not ready yet on a server just started, a request timed out on a loaded
// machine) left every edge without the versions published while NATS was down: an edge that came
// back before the host had its own ask for them (`askOwn`) fall on nobody, and a table waiting for
// bets changed nothing more. Now the live values go out at once, and the stream is asked for again
// until it is made, the last values then published again into it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { NatsConnection, Status } from 'nats';
import type { RemoteStations } from '../stadium/remote-stations.js';
import { silent, testTable } from '../testing/table-kit.js';
import { EdgeBridge } from './edge-bridge.js';

/** A NATS connection whose status events the test pushes, and whose stream can be refused `refusals` times. */
function flakyNats(log: string[], refusals: { left: number }) {
  const events: Status[] = [];
  let wake: (() => void) | null = null;
  const status = async function* () {
    for (;;) {
      const e = events.shift();
      if (e) yield e;
      else await new Promise<void>((r) => (wake = r));
    }
  };
  const refuse = async () => {
    if (refusals.left > 0) {
      refusals.left--;
      log.push('stream refused');
      throw new Error('503 no responders: JetStream not ready');
    }
    log.push('stream made');
    return {};
  };
  const streams = { info: async () => Promise.reject(new Error('stream not found')), update: refuse, add: refuse };
  const nc = {
    jetstreamManager: async () => ({ streams }),
    subscribe: () => ({ unsubscribe: () => undefined }),
    status,
    publish: (subject: string) => log.push(`pub ${subject}`),
    protocol: { pendingLimit: 32 * 1024, flushPending: () => undefined },
  };
  return {
    nc: nc as unknown as NatsConnection,
    reconnect() {
      events.push({ type: 'reconnect', data: '127.0.0.1:4222' } as Status);
      wake?.();
    },
  };
}

const stations = { onChange: () => () => undefined, onRevoked: () => () => undefined, proofKeys: () => [] } as unknown as RemoteStations;

async function until(ok: () => boolean, what: string, log: string[]): Promise<void> {
  const t0 = Date.now();
  while (!ok()) {
    if (Date.now() - t0 > 5_000) assert.fail(`${what}: ${log.join(', ')}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe("the edges' publisher after NATS came back (issue 55)", () => {
  it('publishes its last values and held stations whole at once, and makes its stream again when it is refused at first', async () => {
    const t = testTable({ game: 'baccarat', config: { remoteStations: 2 } });
    const log: string[] = [];
    const refusals = { left: 0 };
    const { nc, reconnect } = flakyNats(log, refusals);
    const bridge = await EdgeBridge.start({ hub: t.hub, stations, nc, tableId: t.config.tableId, log: silent });
    try {
      bridge['hold'](101, 'edge-1');
      log.length = 0;
      // NATS came back, and its JetStream refuses the stream twice.
      refusals.left = 2;
      reconnect();
      await until(() => log.some((l) => l.endsWith('.101.own')), "the held station's own part published again", log);
      assert.ok(
        log.some((l) => /\.pub\.round$/.test(l)),
        `the public parts published again: ${log.join(', ')}`,
      );
      await until(() => log.includes('stream made'), 'the stream made again', log);
      const made = log.indexOf('stream made');
      assert.ok(
        log.slice(made).some((l) => /\.pub\.round$/.test(l)),
        `the last values published into the stream once made: ${log.join(', ')}`,
      );
      assert.equal(log.filter((l) => l === 'stream refused').length, 2);
    } finally {
      await bridge.close();
      t.close();
    }
  });
});
