// A lost `gone` (a review of the edges, 5 December): the host tells the edge that held a station
// before that the station attached at another edge on a plain NATS message, which NATS does not
// keep for an edge that is away (its link down, or cut as a slow consumer). The edge's old
// connection of that station then stayed open for good: shown the public parts but never its own
// part again, each command answered `unauthorized` (which the station's screen takes as fatal). Now
// the host's answer to an edge's ask for the last values (at its start, after each reconnection to
// NATS, and when the host's epoch changes) names the stations it holds at that edge, and the edge
// closes its connections of any other it held when it asked. An ask that failed (the host
// restarting, a timeout) or was refused is made again, 1 s later then twice as long each time up to
// 30 s, until answered (a review, 6 December: before, such a connection stayed open until the next
// reconnection or epoch change).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Msg, NatsConnection, Status } from 'nats';
import { SharedMessage, wholeUpdate } from '../screens/outbox.js';
import { silent } from '../testing/table-kit.js';
import { Edge, type EdgeHolder } from './edge.js';
import { encodeUpdate, tableSubjects } from './subjects.js';

const TABLE = 'catch-up-table';
const subjects = tableSubjects(TABLE);
const utf8 = new TextEncoder();

/** The host as edge-1's NATS connection sees it: the stations it holds at edge-1 (`held`), what it answers an ask for the last values. */
function fakeHost() {
  const events: Status[] = [];
  let wake: (() => void) | null = null;
  const callbacks = new Map<string, (err: Error | null, m: Msg) => void>();
  // `failing`: how many asks for the last values fail next (no responder: the host restarting, or a timeout), each `failsAfter` ms after it was made;
  // the others are answered `answersAfter` ms after. `gated`: each attachment waits for the test to answer it (`attachments`).
  const host = {
    held: new Set<number>(),
    answer: (held: number[]): object => ({ ok: true, held }),
    asks: 0,
    failing: 0,
    failsAfter: 0,
    answersAfter: 0,
    gated: false,
    attachments: [] as ((ok: boolean, hold?: number) => void)[],
    /** The host's attachments so far, each numbered (the answer's `hold`). */
    holds: 0,
  };
  const reply = (answer: object) => ({ data: utf8.encode(JSON.stringify(answer)) });
  const nc = {
    subscribe: (subject: string, o: { callback: (err: Error | null, m: Msg) => void }) => {
      callbacks.set(subject, o.callback);
      return { unsubscribe: () => undefined };
    },
    status: async function* () {
      for (;;) {
        const e = events.shift();
        if (e) yield e;
        else await new Promise<void>((r) => (wake = r));
      }
    },
    publish: () => undefined,
    request: (subject: string) => {
      let answer: object = { ok: false };
      if (subject === subjects.last('edge-1')) {
        host.asks++;
        if (host.failing > 0) {
          host.failing--;
          return new Promise((_, reject) => setTimeout(() => reject(new Error('503')), host.failsAfter));
        }
        const answered = host.answer([...host.held]);
        return new Promise((resolve) => setTimeout(() => resolve(reply(answered)), host.answersAfter));
      } else if (subject === subjects.attach('edge-1')) {
        if (host.gated) return new Promise((resolve) => host.attachments.push((ok, hold) => resolve(reply({ ok, ...(hold === undefined ? {} : { hold }) }))));
        answer = { ok: true, hold: ++host.holds };
      }
      return Promise.resolve(reply(answer));
    },
  };
  return {
    nc: nc as unknown as NatsConnection,
    host,
    reconnect() {
      events.push({ type: 'reconnect', data: '127.0.0.1:4222' } as Status);
      wake?.();
    },
    /** A public part as the host publishes it, in `epoch`. */
    publishRound(epoch: string, version: number) {
      const data = encodeUpdate(epoch, 'public:round', wholeUpdate(version, new SharedMessage('{"round":1}')));
      callbacks.get(subjects.publicAll)?.(null, { subject: subjects.publicPart('round'), data } as unknown as Msg);
    },
    /** The host's `gone` to edge-1 for `station`: it attached at another edge, which ended edge-1's hold numbered `hold`. */
    gone(station: number, hold: number) {
      const data = utf8.encode(JSON.stringify({ hold }));
      callbacks.get(subjects.edgeAll('edge-1'))?.(null, { subject: subjects.gone('edge-1', station), data } as unknown as Msg);
    },
    /** A station's own part, whole, as the host sends it to edge-1 (after its answer to an attachment). */
    publishOwn(epoch: string, station: number, version: number) {
      const data = encodeUpdate(epoch, `view:station/${station}`, wholeUpdate(version, new SharedMessage('{"own":1}')));
      callbacks.get(subjects.edgeAll('edge-1'))?.(null, { subject: subjects.own('edge-1', station), data } as unknown as Msg);
    },
  };
}

function holder(station: number) {
  const why: string[] = [];
  const got: string[] = [];
  const h: EdgeHolder = { station, deliver: (slot) => void got.push(slot), forgetAll: () => undefined, revoked: (w) => void why.push(w ?? 'revoked') };
  return { h, why, got };
}

async function until(ok: () => boolean, what: string): Promise<void> {
  const t0 = Date.now();
  while (!ok()) {
    assert.ok(Date.now() - t0 < 3000, what);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** A connection of `station` at `edge`, attached while the host held it there. */
async function holding(f: ReturnType<typeof fakeHost>, edge: Edge, station: number) {
  f.host.held.add(station);
  assert.ok(await edge.attach(station, `nonce-${station}`, 'proof'));
  const c = holder(station);
  edge.hold(c.h);
  return c;
}

/** Asks for the last values that failed are made again after 10 ms, then 20, 40, at most 40 (production: 1 s doubling to 30 s). */
const RETRY = { firstMs: 10, maxMs: 40 };
const start = (f: ReturnType<typeof fakeHost>) => Edge.start({ name: 'edge-1', tableId: TABLE, nc: f.nc, log: silent, catchUpRetry: RETRY });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("an edge's connections checked against the host's attachments", () => {
  it('closes the connection of a station the host moved to another edge while this one was away from NATS', async () => {
    const f = fakeHost();
    const edge = await start(f);
    const c = await holding(f, edge, 101);
    const kept = await holding(f, edge, 102);
    try {
      // Station 101 attached at edge-2 while edge-1's link was down: the host's `gone` fell on nobody.
      f.host.held.delete(101);
      f.reconnect();
      await until(() => c.why.length > 0, 'the old connection of station 101 still open after the reconnection (its `gone` lost)');
      assert.deepEqual(edge.stations(), [102]);
      assert.deepEqual(kept.why, [], 'a station the host still holds here is kept');
    } finally {
      edge.close();
    }
  });

  it('closes every connection the host does not know after it started again (a new epoch), and none when the host names no stations', async () => {
    const f = fakeHost();
    const edge = await start(f);
    const c = await holding(f, edge, 101);
    try {
      f.publishRound('epoch-1', 1);
      // An older host's answer names no stations: nothing is closed on it.
      f.host.answer = () => ({ ok: true });
      f.reconnect();
      const asked = f.host.asks;
      await until(() => f.host.asks > asked, 'the edge asked again');
      await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual(c.why, []);
      // The host restarted: it holds nothing, and its first part comes in a new epoch.
      f.host.answer = (held) => ({ ok: true, held });
      f.host.held.clear();
      f.publishRound('epoch-2', 1);
      await until(() => c.why.length > 0, 'the connection still open after the host started again');
      await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual(c.why, ['not attached here at the table'], 'closed once');
      assert.deepEqual(edge.stations(), []);
    } finally {
      edge.close();
    }
  });

  it('asks again for the last values when an ask failed, and closes then the connection the host moved away', async () => {
    const f = fakeHost();
    const edge = await start(f);
    const c = await holding(f, edge, 101);
    try {
      // Station 101 moved to edge-2 while edge-1 was away; back on NATS, its first two asks find no host (restarting).
      f.host.held.delete(101);
      f.host.failing = 2;
      const asked = f.host.asks;
      f.reconnect();
      await until(() => c.why.length > 0, 'the old connection of station 101 still open: the failed ask for the last values was not made again');
      assert.equal(f.host.asks - asked, 3, 'two failed asks, then the one answered');
      assert.deepEqual(c.why, ['not attached here at the table']);
      assert.deepEqual(edge.stations(), []);
      await sleep(100);
      assert.equal(f.host.asks - asked, 3, 'no ask after the answer');
    } finally {
      edge.close();
    }
  });

  it('asks again after an answer that sent nothing (asked too often)', async () => {
    const f = fakeHost();
    const edge = await start(f);
    const c = await holding(f, edge, 101);
    try {
      f.host.held.delete(101);
      let refusals = 1;
      f.host.answer = (held) => (refusals-- > 0 ? { ok: false } : { ok: true, held });
      f.reconnect();
      await until(() => c.why.length > 0, 'the old connection still open: an answer that sent nothing was not asked again');
    } finally {
      edge.close();
    }
  });

  it('stops asking when the edge closes, and runs one series of asks at a time', async () => {
    const f = fakeHost();
    const edge = await start(f);
    await holding(f, edge, 101);
    f.host.failing = Infinity;
    f.host.failsAfter = 15;
    // The host's epoch changes five times in a row, each while the ask before is still out: each new series of asks replaces the one before.
    f.publishRound('epoch-0', 1);
    for (let i = 1; i <= 5; i++) f.publishRound(`epoch-${i}`, 1);
    const reconnected = f.host.asks;
    f.reconnect();
    await until(() => f.host.asks > reconnected, 'the edge asked after its reconnection');
    const from = f.host.asks;
    await sleep(400);
    const asks = f.host.asks - from;
    // One series asks every 55 ms once its waits reached their cap (15 ms an ask, 40 between): about 7 in 400 ms; six at once, about 45.
    assert.ok(asks >= 1 && asks <= 16, `${asks} asks in 400 ms, one series of asks expected (about 7)`);
    edge.close();
    const closed = f.host.asks;
    await sleep(150);
    assert.equal(f.host.asks, closed, 'asked again after the edge closed');
  });
});

// A station whose connection to an edge dropped dials the same edge again: its new connection's
// attachment may be under way at the host when the edge sees the old connection close. The edge
// forgot the station then (its last connection gone), so the host's answer and the own part it
// sends after found nothing: the new connection, attached, was closed 'attached at another edge'
// as it subscribed, and the station had to dial again.
describe("a station's attachment under way while its connections before go", () => {
  /** Answers the attachment asked `n`th (from 0) and, if `ok`, sends the station's own part right after, as EdgeBridge.attach does. */
  const answerAttachment = (f: ReturnType<typeof fakeHost>, n: number, ok: boolean, station: number) => {
    f.host.attachments[n]?.(ok);
    if (ok) f.publishOwn('epoch-1', station, 7);
  };

  /** A new connection of `station` subscribing at `edge`: it must be kept (not closed 'attached at another edge'), the station held. */
  const subscribedKept = (edge: Awaited<ReturnType<typeof start>>, station: number) => {
    const c = holder(station);
    edge.hold(c.h);
    assert.deepEqual(c.why, [], 'the new connection closed as it subscribed');
    assert.deepEqual(edge.stations(), [station]);
    return c;
  };

  it('keeps the station for its new connection when its old one closes meanwhile', async () => {
    const f = fakeHost();
    const edge = await start(f);
    f.publishRound('epoch-1', 1);
    const old = await holding(f, edge, 101);
    try {
      f.host.gated = true;
      const attached = edge.attach(101, 'nonce-2', 'proof');
      edge.release(old.h);
      answerAttachment(f, 0, true, 101);
      assert.ok(await attached);
      const c = subscribedKept(edge, 101);
      assert.ok(c.got.includes('view:station/101'), 'the own part the host sent after its answer was kept for the new connection');
    } finally {
      edge.close();
    }
  });

  it('keeps the station for an attachment the host takes when another one under way is refused', async () => {
    const f = fakeHost();
    const edge = await start(f);
    f.publishRound('epoch-1', 1);
    try {
      f.host.gated = true;
      const refused = edge.attach(101, 'nonce-1', 'proof');
      const taken = edge.attach(101, 'nonce-2', 'proof');
      answerAttachment(f, 0, false, 101);
      assert.equal(await refused, false);
      answerAttachment(f, 1, true, 101);
      assert.ok(await taken);
      const c = holder(101);
      edge.hold(c.h);
      assert.deepEqual(c.why, [], 'the connection the host attached closed as it subscribed');
      assert.ok(c.got.includes('view:station/101'));
      // Both answered, no connection: a refused attachment alone forgets the station.
      edge.release(c.h);
      const again = edge.attach(102, 'nonce-3', 'proof');
      answerAttachment(f, 2, false, 102);
      assert.equal(await again, false);
      assert.deepEqual(edge.stations(), []);
    } finally {
      edge.close();
    }
  });

  it('keeps the station for its new connection when an answer to the last values asked before closes its old one', async () => {
    const f = fakeHost();
    const edge = await start(f);
    f.publishRound('epoch-1', 1);
    const old = await holding(f, edge, 101);
    try {
      // 101 moved to edge-2 while edge-1 was away; back, edge-1 asks for the last values, and 101 dials edge-1 again.
      f.host.held.delete(101);
      f.host.answersAfter = 30;
      const asked = f.host.asks;
      f.reconnect();
      await until(() => f.host.asks > asked, 'the edge asked after its reconnection');
      f.host.gated = true;
      const attached = edge.attach(101, 'nonce-2', 'proof');
      // The host answers the ask made first (101 is not held here), then the attachment.
      await until(() => old.why.length > 0, 'the old connection of 101 closed by the answer');
      answerAttachment(f, 0, true, 101);
      assert.ok(await attached);
      subscribedKept(edge, 101);
    } finally {
      edge.close();
    }
  });

  // A station moved to edge-2 and dialled edge-1 again at once (its machine's list of edges, or a
  // hostile edge-2 that drops it): the host's `gone` for edge-1's old hold comes while edge-1's new
  // attachment is under way. Before, the `gone` forgot the station whatever was under way, so the
  // new connection, attached at the host (after the `gone`), was closed 'attached at another edge'
  // as it subscribed and its own part dropped; and one the host had taken before the move was kept
  // as attached when the `gone` came with its answer.
  it('keeps the station for an attachment the host took after the `gone` for its old connection', async () => {
    const f = fakeHost();
    const edge = await start(f);
    f.publishRound('epoch-1', 1);
    const old = await holding(f, edge, 101);
    try {
      f.host.gated = true;
      const attached = edge.attach(101, 'nonce-2', 'proof');
      // Moved to edge-2 (hold 2), which ends edge-1's hold 1; then edge-1's attachment taken (hold 3).
      f.gone(101, 1);
      assert.deepEqual(old.why, ['attached at another edge'], 'the old connection closed by the gone');
      f.host.attachments[0]?.(true, 3);
      f.publishOwn('epoch-1', 101, 7);
      assert.ok(await attached);
      const c = subscribedKept(edge, 101);
      assert.ok(c.got.includes('view:station/101'), 'the own part the host sent after its answer was kept for the new connection');
    } finally {
      edge.close();
    }
  });

  it('refuses an attachment the `gone` that came with its answer ended', async () => {
    const f = fakeHost();
    const edge = await start(f);
    f.publishRound('epoch-1', 1);
    const old = await holding(f, edge, 101);
    try {
      f.host.gated = true;
      const attached = edge.attach(101, 'nonce-2', 'proof');
      // The host took edge-1's attachment (hold 2), then edge-2's (hold 3), which ended hold 2: the gone is read before the answer is acted on.
      f.host.attachments[0]?.(true, 2);
      f.gone(101, 2);
      assert.equal(await attached, false, 'an attachment the host ended since taken as attached');
      assert.deepEqual(old.why, ['attached at another edge']);
      assert.deepEqual(edge.stations(), []);
    } finally {
      edge.close();
    }
  });

  // The host's hold numbers start again with the host (a new epoch): what the edge kept of the
  // numbers before must not refuse the new host's attachment nor hide its `gone`.
  it('takes the holds of a host started again, whose numbers start again', async () => {
    const f = fakeHost();
    const edge = await start(f);
    f.publishRound('epoch-1', 1);
    f.host.held.add(101);
    try {
      f.host.gated = true;
      const first = edge.attach(101, 'nonce-1', 'proof');
      f.host.attachments[0]?.(true, 40);
      assert.ok(await first);
      const c1 = holder(101);
      edge.hold(c1.h);
      const second = edge.attach(101, 'nonce-2', 'proof');
      f.gone(101, 40);
      f.host.attachments[1]?.(true, 41);
      assert.ok(await second);
      const c2 = holder(101);
      edge.hold(c2.h);
      // The host started again: its holds count from 1.
      f.publishRound('epoch-2', 1);
      const third = edge.attach(101, 'nonce-3', 'proof');
      f.host.attachments[2]?.(true, 1);
      assert.equal(await third, true, "the new host's attachment refused by the numbers of the one before");
      const c3 = holder(101);
      edge.hold(c3.h);
      assert.deepEqual(c3.why, []);
      f.gone(101, 1);
      assert.deepEqual(c3.why, ['attached at another edge'], "the new host's gone not heard");
    } finally {
      edge.close();
    }
  });
});
