// A station's credential revoked (or the station enrolled again, with a new key) while one of its
// connections at an edge is welcomed but has not subscribed yet, or while its attachment is under
// way at the host. The edge closes a station's connections when the published enrolment drops its
// key (Edge.takeEnrolment), but it looked only at the connections it holds, which are the
// subscribed ones: a welcomed connection not yet subscribed stayed open with the revoked
// credential (a hostile station need never subscribe: welcomed, the connection guard never evicts
// it), and an attachment the host took just before the revocation was welcomed after it. Now every
// welcomed connection of the station is closed at the revocation, and an attachment answered after
// the enrolment dropped the key it was checked against is refused. And a connection gone while its
// attachment was under way (the station dialled again) was counted among its station's screens when
// the host's answer came, after its close: such dead connections closed the live one as 'replaced'.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Msg, NatsConnection } from 'nats';
import { PROTOCOL_VERSION } from '../../protocol/index.js';
import type { SharedMessage } from '../screens/outbox.js';
import { proofKeyOf, proveStation } from '../stadium/station-proof.js';
import { silent } from '../testing/table-kit.js';
import { Edge } from './edge.js';
import { EdgeSession } from './edge-session.js';
import { SCREENS_PER_STATION, StationScreens } from '../screens/station-connections.js';
import { tableSubjects } from './subjects.js';

const TABLE = 'revoked-table';
const SECRET = 'station-secret-0123456789abcdef-0123';
const subjects = tableSubjects(TABLE);
const utf8 = new TextEncoder();
const reply = (answer: object) => ({ data: utf8.encode(JSON.stringify(answer)) });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The host as edge-1's NATS connection sees it; `gate`: attachments wait for the test to answer them. */
function fakeHost() {
  const callbacks = new Map<string, (err: Error | null, m: Msg) => void>();
  let n = 0;
  const host = { gate: false, attachments: [] as (() => void)[] };
  const nc = {
    subscribe: (subject: string, o: { callback: (err: Error | null, m: Msg) => void }) => {
      callbacks.set(subject, o.callback);
      return { unsubscribe: () => undefined };
    },
    status: async function* () {
      await new Promise(() => undefined);
      yield undefined;
    },
    publish: () => undefined,
    request: (subject: string) => {
      if (subject === subjects.challenge('edge-1'))
        return Promise.resolve(reply({ nonces: Array.from({ length: 16 }, () => `nonce${String(++n).padStart(19, '0')}`) }));
      if (subject === subjects.last('edge-1')) return Promise.resolve(reply({ ok: true, held: [] }));
      if (subject === subjects.attach('edge-1')) {
        const answer = reply({ ok: true, hold: ++n });
        if (!host.gate) return Promise.resolve(answer);
        return new Promise((resolve) => host.attachments.push(() => resolve(answer)));
      }
      return Promise.reject(new Error('503'));
    },
  };
  return {
    nc: nc as unknown as NatsConnection,
    host,
    /** The enrolment the host publishes: these stations, each with its key. */
    enrol(stations: number[]) {
      const data = utf8.encode(JSON.stringify({ stations: stations.map((station) => ({ station, proofKey: proofKeyOf(SECRET) })) }));
      callbacks.get(subjects.enrol)?.(null, { subject: subjects.enrol, data } as unknown as Msg);
    },
  };
}

/** A connection of station 101 at `edge`: it proves itself on its greeting's nonce and never subscribes. */
function station(edge: Edge, screens: StationScreens | null = null) {
  const said: string[] = [];
  let closed: { code: number; reason: string } | null = null;
  const session: EdgeSession = new EdgeSession(
    edge,
    {
      send: (m: SharedMessage) => {
        const msg = JSON.parse(m.text) as { type: string; nonce?: string; code?: string };
        said.push(msg.code ?? msg.type);
        if (msg.type === 'challenge' && msg.nonce)
          session.receive(
            JSON.stringify({
              type: 'hello-station',
              id: 'h',
              protocol: PROTOCOL_VERSION,
              station: 101,
              nonce: msg.nonce,
              proof: proveStation(SECRET, TABLE, 101, msg.nonce),
            }),
          );
      },
      buffered: () => 0,
      close: (code, reason) => void (closed ??= { code, reason }),
    },
    silent,
    undefined,
    screens,
  );
  return { session, said, closed: () => closed };
}

async function until(ok: () => boolean, what: string): Promise<void> {
  const t0 = Date.now();
  while (!ok()) {
    assert.ok(Date.now() - t0 < 3000, what);
    await sleep(5);
  }
}

describe("a station's credential revoked at an edge", () => {
  it('closes its connection welcomed and never subscribed', async () => {
    const f = fakeHost();
    const edge = await Edge.start({ name: 'edge-1', tableId: TABLE, nc: f.nc, log: silent });
    f.enrol([101, 102]);
    const s = station(edge);
    await until(() => s.session.welcomed(), 'welcomed');
    f.enrol([102]);
    await sleep(20);
    assert.deepEqual(s.closed(), { code: 1008, reason: 'credential revoked' });
    edge.close();
  });

  it('refuses an attachment the host answered after the enrolment dropped the station', async () => {
    const f = fakeHost();
    const edge = await Edge.start({ name: 'edge-1', tableId: TABLE, nc: f.nc, log: silent });
    f.enrol([101]);
    f.host.gate = true;
    const s = station(edge);
    await until(() => f.host.attachments.length === 1, 'the attachment asked');
    f.enrol([]);
    for (const answer of f.host.attachments) answer();
    await until(() => s.closed() !== null, 'closed');
    assert.equal(s.session.welcomed(), false, 'never welcomed');
    assert.ok(!s.said.includes('welcome'), `${s.said.join(', ')}`);
    assert.deepEqual(edge.stations(), [], 'the station not kept at the edge');
    edge.close();
  });

  it("does not count a connection gone while its attachment was under way among its station's screens", async () => {
    const f = fakeHost();
    const edge = await Edge.start({ name: 'edge-1', tableId: TABLE, nc: f.nc, log: silent });
    f.enrol([101]);
    const screens = new StationScreens();
    f.host.gate = true;
    // The station dialled, and went (its machine dialled again) while the host was asked.
    const gone = station(edge, screens);
    await until(() => f.host.attachments.length === 1, 'the attachment asked');
    gone.session.dispose();
    f.host.gate = false;
    const live = Array.from({ length: SCREENS_PER_STATION }, () => station(edge, screens));
    await until(() => live.every((s) => s.session.welcomed()), 'the live connections welcomed');
    f.host.attachments[0]?.();
    await sleep(20);
    assert.deepEqual(
      live.map((s) => s.closed()),
      live.map(() => null),
      'no live connection closed as replaced by the one gone',
    );
    edge.close();
  });
});
