// The stations the host names to an edge on NATS, in its published enrolment (`station`) and in its
// answer to an ask for the last values (`held`), were checked as positive integers (`held`: any
// integer), not as stations a table may have (1–7 seated, 101–2100 remote: `StationNumber`, what a
// command's subject is read with). The edge distrusts the host's bus as any boundary: an enrolment
// naming station 8 was taken whole (dropping the stations it left out, closing their connections,
// and enrolling a station no table has); an answer naming only station 2101 closed the connections
// of every station the edge held. Now either is malformed: refused, logged, the enrolment before
// kept, and the last values asked for again.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Msg, NatsConnection, Status } from 'nats';
import { pino } from 'pino';
import { Edge, type EdgeHolder } from './edge.js';
import { tableSubjects } from './subjects.js';

const TABLE = 'range-table';
const subjects = tableSubjects(TABLE);
const utf8 = new TextEncoder();
const KEY = 'A'.repeat(43);
/** Station numbers no table has: between the seats and the remote stations, and past the last remote one. */
const OUT_OF_RANGE = [8, 100, 2101, 65_536];

/** The host as edge-1's NATS connection sees it; `answer`: what it answers each ask for the last values. */
function fakeHost() {
  const events: Status[] = [];
  let wake: (() => void) | null = null;
  const callbacks = new Map<string, (err: Error | null, m: Msg) => void>();
  const host = { asks: 0, answer: (): object => ({ ok: true, held: [101] }) };
  let n = 0;
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
      if (subject === subjects.challenge('edge-1'))
        return Promise.resolve(reply({ nonces: Array.from({ length: 16 }, () => `nonce${String(++n).padStart(19, '0')}`) }));
      if (subject === subjects.last('edge-1')) {
        host.asks++;
        return Promise.resolve(reply(host.answer()));
      }
      if (subject === subjects.attach('edge-1')) return Promise.resolve(reply({ ok: true, hold: ++n }));
      return Promise.reject(new Error('503'));
    },
  };
  return {
    nc: nc as unknown as NatsConnection,
    host,
    reconnect() {
      events.push({ type: 'reconnect', data: '127.0.0.1:4222' } as Status);
      wake?.();
    },
    /** The enrolment as the host publishes it: these stations, each with a key. */
    enrol(stations: number[]) {
      const data = utf8.encode(JSON.stringify({ stations: stations.map((station) => ({ station, proofKey: KEY })) }));
      callbacks.get(subjects.enrol)?.(null, { subject: subjects.enrol, data } as unknown as Msg);
    },
  };
}

/** The edge's log lines at warn and above. */
function warnings() {
  const lines: string[] = [];
  const log = pino({ level: 'warn' }, { write: (s: string) => void lines.push((JSON.parse(s) as { msg: string }).msg) });
  return { log, lines };
}

function holder(station: number) {
  const why: string[] = [];
  const h: EdgeHolder = { station, deliver: () => undefined, forgetAll: () => undefined, revoked: (w) => void why.push(w ?? 'revoked') };
  return { h, why };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(ok: () => boolean, what: string): Promise<void> {
  const t0 = Date.now();
  while (!ok()) {
    assert.ok(Date.now() - t0 < 3000, what);
    await sleep(5);
  }
}

describe('the stations the host names to an edge', () => {
  it('refuses, logged, a published enrolment naming a station no table has, and keeps the one before', async () => {
    const f = fakeHost();
    const w = warnings();
    const edge = await Edge.start({ name: 'edge-1', tableId: TABLE, nc: f.nc, log: w.log, catchUpRetry: { firstMs: 10, maxMs: 40 } });
    try {
      f.enrol([101, 102]);
      const c = holder(101);
      assert.ok(await edge.attach(101, 'nonce-101', 'proof', c.h));
      for (const bad of OUT_OF_RANGE) {
        const before = w.lines.length;
        // Station 101 left out, and `bad` in: taken, this closed 101's connection and enrolled `bad`.
        f.enrol([102, bad]);
        assert.deepEqual(c.why, [], `station ${bad}: the enrolment naming it was acted on`);
        assert.equal(await edge.challenge(bad), null, `station ${bad} enrolled at the edge`);
        assert.notEqual(await edge.challenge(101), null, `station ${bad}: the enrolment before not kept`);
        assert.ok(w.lines.slice(before).includes('the published enrolment is malformed: kept the one before'), `station ${bad}: ${w.lines.join(' | ')}`);
      }
      // The same enrolment without the stranger is taken: 101 revoked.
      f.enrol([102]);
      assert.deepEqual(c.why, ['revoked']);
      assert.equal(await edge.challenge(101), null);
    } finally {
      edge.close();
    }
  });

  it('refuses, logged, an answer to the last values naming a station no table has, and asks again', async () => {
    for (const bad of [...OUT_OF_RANGE, 0, -1]) {
      const f = fakeHost();
      const w = warnings();
      const edge = await Edge.start({ name: 'edge-1', tableId: TABLE, nc: f.nc, log: w.log, catchUpRetry: { firstMs: 10, maxMs: 40 } });
      try {
        const c = holder(101);
        assert.ok(await edge.attach(101, 'nonce-101', 'proof', c.h));
        // The host holds 101 here; its next answer names `bad` alone, the one after that 101 again.
        let wrong = 1;
        f.host.answer = () => (wrong-- > 0 ? { ok: true, held: [bad] } : { ok: true, held: [101] });
        const asked = f.host.asks;
        f.reconnect();
        await until(() => f.host.asks - asked >= 2 || c.why.length > 0, `station ${bad}: not asked again`);
        await sleep(30);
        assert.deepEqual(c.why, [], `station ${bad}: the answer naming it was acted on`);
        assert.deepEqual(edge.stations(), [101]);
        assert.ok(w.lines.includes("the host's answer to an ask for the last values is malformed: asked again"), `station ${bad}: ${w.lines.join(' | ')}`);
      } finally {
        edge.close();
      }
    }
  });
});
