// An edge's own asks for a held station's own part whole (after its reconnection to NATS, the
// host's new epoch, a patch that does not follow what it holds) are the edge's housekeeping, not
// the station's messages. They went on the station's command subject (`cmd.<edge>.<N>`, a
// `resync` of `own`), where the host counts the station's message rate: an edge asking 40 times
// (a NATS link that flaps, a run of patches lost) had the station's next bet refused
// `rate-limited`, though the station had sent nothing. Now the edge asks on a subject of its own
// (`resend.<edge>.<N>`), on a budget of its own per station at the host, and the station's rate is
// its own. A real NATS server, the table's hub, the bridge and the edge real.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { connect, type NatsConnection } from 'nats';
import { stationView } from '../../protocol/index.js';
import type { RemoteStations } from '../stadium/remote-stations.js';
import { silent, testTable } from '../testing/table-kit.js';
import { Edge } from './edge.js';
import { EdgeBridge } from './edge-bridge.js';
import { startNatsServer, type NatsServer } from './nats-server.js';
import { edgeInbox, tableSubjects } from './subjects.js';

const stations = { onChange: () => () => undefined, onRevoked: () => () => undefined, proofKeys: () => [] } as unknown as RemoteStations;

describe("an edge's own asks for a station's own part", () => {
  const closing: (() => Promise<void>)[] = [];
  after(async () => {
    for (const c of closing.reverse()) await c();
  });

  it("spend none of the station's message rate, and the host sends the part on a budget of the edge's own", async () => {
    const server: NatsServer = await startNatsServer();
    closing.push(() => server.close());
    const t = testTable({ game: 'baccarat', config: { remoteStations: 3 } });
    closing.push(async () => t.close());
    const hostNc: NatsConnection = await connect({ servers: server.url });
    closing.push(() => hostNc.close());
    const bridge = await EdgeBridge.start({ hub: t.hub, stations, nc: hostNc, tableId: t.config.tableId, log: silent });
    closing.push(() => bridge.close());
    bridge['hold'](101, 'edge-1');
    await hostNc.flush();
    const subjects = tableSubjects(t.config.tableId);
    const watcher = await connect({ servers: server.url });
    closing.push(() => watcher.close());
    let sent = 0;
    watcher.subscribe(subjects.own('edge-1', 101), { callback: () => void sent++ });
    await watcher.flush();
    const edgeNc = await connect({ servers: server.url, inboxPrefix: edgeInbox('edge-1') });
    closing.push(() => edgeNc.close());
    const edge = await Edge.start({ name: 'edge-1', tableId: t.config.tableId, nc: edgeNc, log: silent });
    closing.push(async () => edge.close());

    // More asks than the station's burst, as a flapping link's catch-ups or a run of lost patches make.
    for (let i = 0; i < 45; i++) edge['askOwn'](101);
    await edgeNc.flush();
    const view = stationView(101);
    const command = JSON.stringify({ type: 'command', id: 'c1', view, version: t.hub.version(view), command: { name: 'clear-bets' } });
    const answer = JSON.parse((await edge.forward(101, command, true)) ?? 'null') as { type: string; code?: string };
    assert.notEqual(answer.code, 'rate-limited', `the station's first command: ${JSON.stringify(answer)}`);
    await watcher.flush();
    assert.ok(sent >= 1, 'the own part sent whole');
    assert.ok(sent <= 8, `${sent} wholes for 45 asks at once: the edge's asks have a budget`);
  });
});
