// The station a command's subject names (`cmd.<edge>.<N>`), as an edge publishes it: its NATS
// permissions end in `*`, so it may put any token there. The bridge read it with `Number`: `0x65`,
// `101e0`, `0101` and `+101` were taken as station 101's commands, and a token naming nothing
// became NaN. Now the token is read as a station's number in its plain decimal form, and anything
// else is refused with a log line naming it. A real NATS server; the table's hub real.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { connect, type NatsConnection } from 'nats';
import { stationView } from '../../protocol/index.js';
import type { RemoteStations } from '../stadium/remote-stations.js';
import { testTable } from '../testing/table-kit.js';
import { EdgeBridge } from './edge-bridge.js';
import { startNatsServer, type NatsServer } from './nats-server.js';
import { edgeInbox, stationInSubject, tableSubjects } from './subjects.js';

const stations = { onChange: () => () => undefined, onRevoked: () => () => undefined, proofKeys: () => [] } as unknown as RemoteStations;
const utf8 = new TextEncoder();
const text = new TextDecoder();

describe("a subject's station", () => {
  const closing: (() => Promise<void>)[] = [];
  after(async () => {
    for (const c of closing.reverse()) await c();
  });

  it('is a station in its plain decimal form, nothing else', () => {
    assert.deepEqual(['1', '7', '101', '2100'].map(stationInSubject), [1, 7, 101, 2100]);
    for (const token of ['0x65', '101.0', '0101', '+101', '1e2', ' 101', '', 'abc', '0', '8', '100', '2101', '9999999', undefined])
      assert.equal(stationInSubject(token), null, `${token}`);
  });

  it("is refused, logged, when a command's subject names none, though Number would read station 101 in it", async () => {
    const server: NatsServer = await startNatsServer();
    closing.push(() => server.close());
    const t = testTable({ game: 'baccarat', config: { remoteStations: 3 } });
    closing.push(async () => t.close());
    const warned: { station?: unknown; line: string }[] = [];
    const log = {
      error: () => undefined,
      warn: (f: { station?: unknown }, line: string) => void warned.push({ station: f.station, line }),
      info: () => undefined,
      debug: () => undefined,
    } as never;
    const hostNc: NatsConnection = await connect({ servers: server.url });
    closing.push(() => hostNc.close());
    const bridge = await EdgeBridge.start({ hub: t.hub, stations, nc: hostNc, tableId: t.config.tableId, log });
    closing.push(() => bridge.close());
    bridge['hold'](101, 'edge-1');
    await hostNc.flush();
    const edgeNc = await connect({ servers: server.url, inboxPrefix: edgeInbox('edge-1') });
    closing.push(() => edgeNc.close());
    const root = tableSubjects(t.config.tableId).root;
    const view = stationView(101);
    const ask = async (token: string) => {
      const command = { type: 'command', id: token, view, version: t.hub.version(view), command: { name: 'clear-bets' } };
      const m = await edgeNc.request(`${root}.cmd.edge-1.${token}`, utf8.encode(JSON.stringify(command)), { timeout: 3000 });
      return JSON.parse(text.decode(m.data)) as { type: string; code?: string };
    };
    for (const token of ['0x65', '101e0', '0101', '+101', 'abc']) {
      const answer = await ask(token).catch((e: unknown) => assert.fail(`${token}: ${String(e)}`));
      assert.equal(answer.code, 'unauthorized', `${token}: ${JSON.stringify(answer)}`);
      assert.ok(
        warned.some((w) => w.station === token),
        `${token} logged: ${JSON.stringify(warned)}`,
      );
    }
    assert.notEqual((await ask('101')).code, 'unauthorized', 'station 101 itself is taken');
  });
});
