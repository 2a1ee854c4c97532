// A hostile edge spending another edge's nonces (a review of the edges, 7 December). The host
// spent a nonce on any edge's attachment naming it, whichever edge it was issued to. A nonce is
// not secret from the LAN: an edge greets every connection with one, and gives back to its pool,
// to greet the next connection with, the nonce of a connection that went without proving a station
// (nonce-pool.ts). So a machine with edge-2's NATS user could connect to edge-1's listener, take
// its challenge, go, and spend that nonce at the host with a made-up attachment: the real station
// edge-1 greeted with it next was refused 'unknown station credential', which a station's screen
// takes as fatal (it stays on the error until an attendant comes). Now a try from another edge than
// the one the nonce was issued to is refused and spends nothing: it could never attach anything
// with it (the host takes a nonce only from its own edge). A real NATS server; the table's hub real;
// the station's proof real (station-proof.ts).
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { connect, type NatsConnection } from 'nats';
import type { RemoteStations } from '../stadium/remote-stations.js';
import { proofKeyOf, proveStation } from '../stadium/station-proof.js';
import { silent, testTable } from '../testing/table-kit.js';
import { EdgeBridge } from './edge-bridge.js';
import { startNatsServer } from './nats-server.js';
import { edgeInbox, tableSubjects } from './subjects.js';

const SECRET = 'a-secret-of-station-101-for-this-test-only';
const stations = {
  onChange: () => () => undefined,
  onRevoked: () => () => undefined,
  proofKeys: () => [{ station: 101, proofKey: proofKeyOf(SECRET) }],
  proofKey: (s: number) => (s === 101 ? proofKeyOf(SECRET) : null),
} as unknown as RemoteStations;
const utf8 = new TextEncoder();
const text = new TextDecoder();

describe("another edge's nonce", () => {
  const closing: (() => Promise<void>)[] = [];
  after(async () => {
    for (const c of closing.reverse()) await c();
  });

  it('is not spent by an edge it was not issued to: the station greeted with it is still attached', async () => {
    const server = await startNatsServer();
    closing.push(() => server.close());
    const t = testTable({ game: 'baccarat', config: { remoteStations: 3 } });
    closing.push(async () => t.close());
    const hostNc: NatsConnection = await connect({ servers: server.url });
    closing.push(() => hostNc.close());
    const bridge = await EdgeBridge.start({ hub: t.hub, stations, nc: hostNc, tableId: t.config.tableId, log: silent });
    closing.push(() => bridge.close());
    const s = tableSubjects(t.config.tableId);
    const nats = new Map<string, NatsConnection>();
    for (const name of ['edge-1', 'edge-2']) {
      const nc = await connect({ servers: server.url, inboxPrefix: edgeInbox(name) });
      closing.push(() => nc.close());
      nats.set(name, nc);
    }
    const ask = async (name: string, subject: string, body: object) => {
      const r = await nats.get(name)!.request(subject, utf8.encode(JSON.stringify(body)), { timeout: 3000 });
      return JSON.parse(text.decode(r.data)) as { ok?: boolean; nonces?: string[] };
    };
    const [nonce = ''] = (await ask('edge-1', s.challenge('edge-1'), { count: 16 })).nonces ?? [];
    // Edge-2 heard it as a station's connection would (edge-1's challenge) and tries it with a made-up proof.
    const refused = bridge.counters.refused;
    const foreign = await ask('edge-2', s.attach('edge-2'), { station: 101, nonce, proof: 'A'.repeat(86) });
    assert.equal(foreign.ok, false, "another edge's try is refused");
    assert.equal(bridge.counters.refused, refused + 1);
    // Edge-1 greets station 101 with it; the station proves itself on it.
    const own = await ask('edge-1', s.attach('edge-1'), { station: 101, nonce, proof: proveStation(SECRET, t.config.tableId, 101, nonce) });
    assert.equal(own.ok, true, 'the station greeted with the nonce is attached at its edge');
    assert.equal(bridge.holder(101), 'edge-1');
    // And spent there: once only.
    const again = await ask('edge-1', s.attach('edge-1'), { station: 101, nonce, proof: proveStation(SECRET, t.config.tableId, 101, nonce) });
    assert.equal(again.ok, false, 'a nonce attaches once');
  });
});
