// A station moved between edges and back (a review of the edges, 6 December): the host's `gone`
// to the edge that held it before was an empty message, so that edge could not tell a `gone` for
// its old connections from one that ended an attachment it had under way: it forgot the station
// whatever was under way, and a connection the host attached there after the move was closed
// 'attached at another edge' as it subscribed. Now each attachment the host takes is numbered (its
// answer's `hold`) and a `gone` names the hold it ended (the edge's side: edge-catch-up.test.ts).
// A real NATS server; the table's hub real; the stations' proofs real (station-proof.ts).
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { connect, type Msg, type NatsConnection } from 'nats';
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

describe("the host's holds of a station at its edges, numbered", () => {
  const closing: (() => Promise<void>)[] = [];
  after(async () => {
    for (const c of closing.reverse()) await c();
  });

  it('answers each attachment with a larger hold, and its `gone` names the hold it ended', async () => {
    const server = await startNatsServer();
    closing.push(() => server.close());
    const t = testTable({ game: 'baccarat', config: { remoteStations: 3 } });
    closing.push(async () => t.close());
    const hostNc: NatsConnection = await connect({ servers: server.url });
    closing.push(() => hostNc.close());
    const bridge = await EdgeBridge.start({ hub: t.hub, stations, nc: hostNc, tableId: t.config.tableId, log: silent });
    closing.push(() => bridge.close());
    const s = tableSubjects(t.config.tableId);
    const edges = new Map<string, { nc: NatsConnection; gone: string[] }>();
    for (const name of ['edge-1', 'edge-2']) {
      const nc = await connect({ servers: server.url, inboxPrefix: edgeInbox(name) });
      closing.push(() => nc.close());
      const gone: string[] = [];
      nc.subscribe(s.gone(name, 101), { callback: (_e: Error | null, m: Msg) => void gone.push(text.decode(m.data)) });
      await nc.flush();
      edges.set(name, { nc, gone });
    }
    const attach = async (name: string) => {
      const nc = edges.get(name)!.nc;
      const asked = await nc.request(s.challenge(name), utf8.encode(JSON.stringify({ count: 1 })), { timeout: 3000 });
      const [nonce = ''] = (JSON.parse(text.decode(asked.data)) as { nonces: string[] }).nonces;
      const proof = proveStation(SECRET, t.config.tableId, 101, nonce);
      const r = await nc.request(s.attach(name), utf8.encode(JSON.stringify({ station: 101, nonce, proof })), { timeout: 3000 });
      return JSON.parse(text.decode(r.data)) as { ok: boolean; hold?: number };
    };
    const first = await attach('edge-1');
    const second = await attach('edge-2');
    const third = await attach('edge-1');
    assert.equal(first.ok && second.ok && third.ok, true);
    assert.ok(typeof first.hold === 'number' && typeof second.hold === 'number' && typeof third.hold === 'number', JSON.stringify([first, second, third]));
    assert.ok(first.hold < second.hold && second.hold < third.hold);
    for (const e of edges.values()) await e.nc.flush();
    assert.deepEqual(edges.get('edge-1')!.gone, [JSON.stringify({ hold: first.hold })]);
    assert.deepEqual(edges.get('edge-2')!.gone, [JSON.stringify({ hold: second.hold })]);
    assert.equal(bridge.holder(101), 'edge-1');
  });
});
