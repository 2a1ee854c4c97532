// A station named by what the host publishes for an edge (a review, 8 December): the station in a
// `gone`'s subject (`edge.<edge>.st.<N>.gone`) and in an update's slot (`view:station/<N>`) were
// read with `Number`, so `0x65`, `101e0` or `0101` named station 101: a `gone` on such a subject
// closed station 101's connections, an own part in slot `view:station/0101` was delivered to them
// as station 101's. They are read as a command's subject is now (`stationInSubject`: a station in
// its plain decimal form); anything else is ignored, with a log line.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Msg, NatsConnection } from 'nats';
import pino from 'pino';
import { SharedMessage, wholeUpdate } from '../screens/outbox.js';
import { Edge, type EdgeHolder } from './edge.js';
import { encodeUpdate, tableSubjects } from './subjects.js';

const TABLE = 'token-table';
const subjects = tableSubjects(TABLE);
const utf8 = new TextEncoder();

/** edge-1's NATS connection: every attachment taken, the last values answered holding `held`. */
function fakeNats(held: number[]) {
  const callbacks = new Map<string, (err: Error | null, m: Msg) => void>();
  let holds = 0;
  const reply = (answer: object) => Promise.resolve({ data: utf8.encode(JSON.stringify(answer)) });
  const nc = {
    subscribe: (subject: string, o: { callback: (err: Error | null, m: Msg) => void }) => {
      callbacks.set(subject, o.callback);
      return { unsubscribe: () => undefined };
    },
    // No status events: the edge's link to NATS never drops here.
    status: () => ({ [Symbol.asyncIterator]: () => ({ next: () => new Promise<IteratorResult<never>>(() => undefined) }) }),
    publish: () => undefined,
    request: (subject: string) =>
      subject === subjects.last('edge-1')
        ? reply({ ok: true, held })
        : subject === subjects.attach('edge-1')
          ? reply({ ok: true, hold: ++holds })
          : reply({ ok: false }),
  };
  const mine = (subject: string, data: Uint8Array) => callbacks.get(subjects.edgeAll('edge-1'))?.(null, { subject, data } as unknown as Msg);
  return { nc: nc as unknown as NatsConnection, mine };
}

function capturedLog() {
  const lines: { msg: string; station?: unknown }[] = [];
  const log = pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s)) });
  return { log, lines };
}

async function edgeHolding101() {
  const f = fakeNats([101]);
  const { log, lines } = capturedLog();
  const edge = await Edge.start({ name: 'edge-1', tableId: TABLE, nc: f.nc, log });
  const got: string[] = [];
  const why: string[] = [];
  const h: EdgeHolder = { station: 101, deliver: (slot) => void got.push(slot), forgetAll: () => undefined, revoked: (w) => void why.push(w ?? 'revoked') };
  assert.ok(await edge.attach(101, 'nonce-1', 'proof', h));
  edge.hold(h);
  return { f, edge, got, why, lines };
}

describe('a station the host names for an edge', () => {
  it('is not closed by a `gone` whose subject names it other than in plain decimal', async () => {
    const { f, edge, why, lines } = await edgeHolding101();
    try {
      const tokens = ['0x65', '101e0', '0101', '+101', '-0', '0', '2101', '9999999'];
      for (const token of tokens) f.mine(`${subjects.root}.edge.edge-1.st.${token}.gone`, utf8.encode(JSON.stringify({ hold: 1 })));
      assert.deepEqual(why, [], 'a gone on a subject that names no station closed station 101');
      assert.deepEqual(edge.stations(), [101]);
      for (const token of tokens)
        assert.ok(
          lines.some((l) => l.station === token && /names no station/.test(l.msg)),
          `the gone on ${token} logged`,
        );
      // The plain form still ends the hold.
      f.mine(subjects.gone('edge-1', 101), utf8.encode(JSON.stringify({ hold: 1 })));
      assert.deepEqual(why, ['attached at another edge']);
    } finally {
      edge.close();
    }
  });

  it('is not sent an own part or recall whose slot names it other than in plain decimal', async () => {
    const { f, edge, got, lines } = await edgeHolding101();
    try {
      const before = edge.counters.dropped;
      const slots = ['view:station/0101', 'recall:station/0101', 'view:station/0', 'view:station/2101'];
      for (const slot of slots) f.mine(subjects.own('edge-1', 101), encodeUpdate('epoch-1', slot, wholeUpdate(5, new SharedMessage('{"own":1}'))));
      assert.deepEqual(got, [], 'a part whose slot names no station was sent to station 101');
      assert.equal(edge.counters.dropped - before, 4);
      for (const slot of slots)
        assert.ok(
          lines.some((l) => l.station === slot.slice(slot.indexOf('/') + 1) && /names no station/.test(l.msg)),
          `${slot} logged`,
        );
      f.mine(subjects.own('edge-1', 101), encodeUpdate('epoch-1', 'view:station/101', wholeUpdate(5, new SharedMessage('{"own":1}'))));
      assert.deepEqual(got, ['view:station/101']);
    } finally {
      edge.close();
    }
  });
});
