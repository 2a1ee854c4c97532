// Issue 55, a stall of the edges' soak (a station's own part left 3 versions behind for good after
// nats-server came back): the host's bridge republished its last values and its held stations'
// own parts after a reconnection only once it had made its stream again. A stream not made at the
// first ask (a server just started, a request timed out on a loaded
// machine) left every edge without the versions published while NATS was down: an edge that came
// back before the host had its own ask for them (`askOwn`) fall on nobody, and a table waiting for
// bets changed nothing more. Now the live values go out at once. (Since 5 December there is no
// stream: an edge asks the host for the last values, `last.<edge>`, answered on its own subjects.)
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Msg, NatsConnection, Status } from 'nats';
import type { RemoteStations } from '../stadium/remote-stations.js';
import { silent, testTable } from '../testing/table-kit.js';
import { EdgeBridge } from './edge-bridge.js';
import { edgeInbox } from './subjects.js';

/** A NATS connection whose status events the test pushes; each subscription's callback by subject, to hand it messages. */
function fakeNats(log: string[]) {
  const events: Status[] = [];
  let wake: (() => void) | null = null;
  const status = async function* () {
    for (;;) {
      const e = events.shift();
      if (e) yield e;
      else await new Promise<void>((r) => (wake = r));
    }
  };
  const callbacks = new Map<string, (err: Error | null, m: Msg) => void>();
  const nc = {
    subscribe: (subject: string, o: { callback: (err: Error | null, m: Msg) => void }) => {
      callbacks.set(subject, o.callback);
      return { unsubscribe: () => undefined };
    },
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
    /** A request on `subject` as an edge makes it, answered on `reply` (pushed to `answers`). */
    request(subject: string, reply: string, answers: string[]) {
      const m = { subject, reply, data: new Uint8Array(0), respond: (d: Uint8Array) => answers.push(new TextDecoder().decode(d)) };
      const callback = [...callbacks].find(([s]) => new RegExp(`^${s.replace(/\./g, '\\.').replace(/\*/g, '[^.]+')}$`).test(subject))?.[1];
      callback?.(null, m as unknown as Msg);
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
  it('publishes its last values and held stations whole at once', async () => {
    const t = testTable({ game: 'baccarat', config: { remoteStations: 2 } });
    const log: string[] = [];
    const { nc, reconnect } = fakeNats(log);
    const bridge = await EdgeBridge.start({ hub: t.hub, stations, nc, tableId: t.config.tableId, log: silent });
    try {
      bridge['hold'](101, 'edge-1');
      log.length = 0;
      reconnect();
      await until(() => log.some((l) => l.endsWith('.101.own')), "the held station's own part published again", log);
      assert.ok(
        log.some((l) => /\.pub\.round$/.test(l)) && log.some((l) => /\.enrol$/.test(l)),
        `the public parts and the enrolment published again: ${log.join(', ')}`,
      );
    } finally {
      await bridge.close();
      t.close();
    }
  });

  it('sends an edge that asks the last values on its own subjects before its answer, at most 8 at once', async () => {
    const t = testTable({ game: 'baccarat', config: { remoteStations: 2 } });
    const log: string[] = [];
    const { nc, request } = fakeNats(log);
    const bridge = await EdgeBridge.start({ hub: t.hub, stations, nc, tableId: t.config.tableId, log: silent });
    const root = `etg.${t.config.tableId}`;
    try {
      log.length = 0;
      const answers: string[] = [];
      bridge['hold'](101, 'edge-1');
      bridge['hold'](102, 'edge-2');
      log.length = 0;
      request(`${root}.last.edge-2`, `${edgeInbox('edge-2')}.a`, answers);
      // Naming the stations it holds at that edge: the edge closes its connections of any other (edge-catch-up.test.ts).
      assert.deepEqual(answers, ['{"ok":true,"held":[102]}']);
      assert.ok(log.includes(`pub ${root}.edge.edge-2.enrol`) && log.includes(`pub ${root}.edge.edge-2.pub`), log.join(', '));
      assert.ok(
        log.every((l) => l.startsWith(`pub ${root}.edge.edge-2.`)),
        `on edge-2's subjects only: ${log.join(', ')}`,
      );
      // A flood of asks: each costs the host every part, so past a few it is refused, counted.
      for (let i = 0; i < 50; i++) request(`${root}.last.edge-2`, `${edgeInbox('edge-2')}.a`, answers);
      assert.equal(answers.filter((a) => a.startsWith('{"ok":true')).length, 8);
      assert.ok(bridge.counters.refused >= 40);
    } finally {
      await bridge.close();
      t.close();
    }
  });
});
