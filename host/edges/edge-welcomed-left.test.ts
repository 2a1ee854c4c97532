// A station's connections at an edge that are welcomed and leave without subscribing. The edge
// keeps an entry for each station it attached (`held`: its own part, the connections it sends it
// to), made when the attachment is asked; it was forgotten when the last subscribed connection
// went, but a connection that never subscribed was never among those, so its leaving forgot
// nothing: a hostile station dialling, proving itself and hanging up, again and again, left its
// entry for good, its own part kept and asked for at every reconnection. And the edge kept the
// welcomed connections apart from the subscribed ones (`admitted` beside `held`): the last
// subscribed connection gone, the entry was forgotten while a welcomed one was still to
// subscribe, which was then closed as if the station had attached at another edge.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Msg, NatsConnection } from 'nats';
import { PROTOCOL_VERSION, stationView } from '../../protocol/index.js';
import type { SharedMessage } from '../screens/outbox.js';
import { proofKeyOf, proveStation } from '../stadium/station-proof.js';
import { silent } from '../testing/table-kit.js';
import { Edge } from './edge.js';
import { EdgeSession } from './edge-session.js';
import { tableSubjects } from './subjects.js';

const TABLE = 'left-table';
const SECRET = 'station-secret-0123456789abcdef-0123';
const subjects = tableSubjects(TABLE);
const utf8 = new TextEncoder();
const reply = (answer: object) => ({ data: utf8.encode(JSON.stringify(answer)) });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The host as edge-1's NATS connection sees it: it gives nonces and takes every attachment of station 101. */
function fakeHost() {
  const callbacks = new Map<string, (err: Error | null, m: Msg) => void>();
  let n = 0;
  let holds = 0;
  const nc = {
    subscribe: (subject: string, o: { callback: (err: Error | null, m: Msg) => void }) => {
      callbacks.set(subject, o.callback);
      return { unsubscribe: () => undefined };
    },
    status: async function* () {},
    publish: () => undefined,
    request: (subject: string, data: Uint8Array) => {
      if (subject === subjects.challenge('edge-1')) {
        const { count } = JSON.parse(new TextDecoder().decode(data)) as { count: number };
        return Promise.resolve(reply({ nonces: Array.from({ length: count }, () => `nonce-${String(++n).padStart(18, '0')}`) }));
      }
      if (subject === subjects.attach('edge-1')) return Promise.resolve(reply({ ok: true, hold: ++holds }));
      return Promise.resolve(reply({ ok: true, held: [101] }));
    },
  };
  return {
    nc: nc as unknown as NatsConnection,
    enrol(stations: number[]) {
      const data = utf8.encode(JSON.stringify({ stations: stations.map((station) => ({ station, proofKey: proofKeyOf(SECRET) })) }));
      callbacks.get(subjects.enrol)?.(null, { subject: subjects.enrol, data } as unknown as Msg);
    },
  };
}

/** A connection of station 101 at `edge` that proves itself on its greeting's nonce. */
function station(edge: Edge) {
  let closed: string | null = null;
  const session: EdgeSession = new EdgeSession(
    edge,
    {
      send: (m: SharedMessage) => {
        const msg = JSON.parse(m.text) as { type: string; nonce?: string };
        if (msg.type !== 'challenge' || !msg.nonce) return;
        const proof = proveStation(SECRET, TABLE, 101, msg.nonce);
        session.receive(JSON.stringify({ type: 'hello-station', id: 'h', protocol: PROTOCOL_VERSION, station: 101, nonce: msg.nonce, proof }));
      },
      buffered: () => 0,
      close: (_code, reason) => void (closed ??= reason),
    },
    silent,
  );
  return { session, closed: () => closed, subscribe: () => session.receive(JSON.stringify({ type: 'subscribe', id: 's', view: stationView(101) })) };
}

async function until(ok: () => boolean, what: string): Promise<void> {
  const t0 = Date.now();
  while (!ok()) {
    assert.ok(Date.now() - t0 < 3000, what);
    await sleep(5);
  }
}

describe('connections welcomed at an edge that leave without subscribing', () => {
  it('leave nothing behind: a station dialling and hanging up again and again is not kept', async () => {
    const f = fakeHost();
    const edge = await Edge.start({ name: 'edge-1', tableId: TABLE, nc: f.nc, log: silent });
    f.enrol([101]);
    for (let i = 0; i < 20; i++) {
      const s = station(edge);
      await until(() => s.session.welcomed(), 'welcomed');
      s.session.close(1000, 'bye');
    }
    assert.deepEqual(edge.stations(), [], 'no station kept for connections all gone');
    edge.close();
  });

  it('keep their station for a welcomed one when the subscribed one goes: it subscribes and is held', async () => {
    const f = fakeHost();
    const edge = await Edge.start({ name: 'edge-1', tableId: TABLE, nc: f.nc, log: silent });
    f.enrol([101]);
    const first = station(edge);
    const second = station(edge);
    await until(() => first.session.welcomed() && second.session.welcomed(), 'both welcomed');
    first.subscribe();
    await sleep(20);
    first.session.close(1000, 'bye');
    second.subscribe();
    await sleep(20);
    assert.equal(second.closed(), null, 'the welcomed connection is the station here still');
    assert.deepEqual(edge.stations(), [101]);
    second.session.close(1000, 'bye');
    assert.deepEqual(edge.stations(), []);
    edge.close();
  });
});
