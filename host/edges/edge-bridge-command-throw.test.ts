// A station's command through an edge whose handling throws (a handpay cash-out journalled
// synchronously, refused by a full disk: SQLITE_FULL). The bridge handles it inside a NATS
// subscription callback: nats.js catches a throw there and stops reading the host's connection
// without closing it, so every edge went deaf (no commands, nonces, attachments) until the ping
// check reconnected minutes later. The command is answered `internal`, the throw logged, and the
// connection reads on. A real NATS server; the table's hub real, its submit made to throw once.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { connect, type NatsConnection } from 'nats';
import type { RemoteStations } from '../stadium/remote-stations.js';
import { testTable } from '../testing/table-kit.js';
import { EdgeBridge } from './edge-bridge.js';
import { startNatsServer, type NatsServer } from './nats-server.js';
import { edgeInbox, tableSubjects } from './subjects.js';

const stations = { onChange: () => () => undefined, onRevoked: () => () => undefined, proofKeys: () => [] } as unknown as RemoteStations;
const utf8 = new TextEncoder();
const text = new TextDecoder();

describe('a command through an edge whose handling throws', () => {
  const closing: (() => Promise<void>)[] = [];
  after(async () => {
    for (const c of closing.reverse()) await c();
  });

  it('is answered as refused (internal), logged, and the host reads its NATS connection on', async () => {
    const server: NatsServer = await startNatsServer();
    closing.push(() => server.close());
    const t = testTable({ game: 'baccarat', config: { remoteStations: 3 } });
    closing.push(async () => t.close());
    const errors: string[] = [];
    const log = { error: (_f: object, m: string) => void errors.push(m), warn: () => undefined, info: () => undefined, debug: () => undefined } as never;
    let calls = 0;
    t.hub.commands.submit = (() => {
      calls++;
      if (calls === 1) throw new Error('SQLITE_FULL: database or disk is full');
      return { ok: true, version: 7 };
    }) as typeof t.hub.commands.submit;
    const hostNc: NatsConnection = await connect({ servers: server.url });
    closing.push(() => hostNc.close());
    const bridge = await EdgeBridge.start({ hub: t.hub, stations, nc: hostNc, tableId: t.config.tableId, log });
    closing.push(() => bridge.close());
    bridge['hold'](101, 'edge-1');
    await hostNc.flush();
    const edgeNc = await connect({ servers: server.url, inboxPrefix: edgeInbox('edge-1') });
    closing.push(() => edgeNc.close());
    const subject = tableSubjects(t.config.tableId).command('edge-1', 101);
    const ask = async (id: string) => {
      const m = await edgeNc.request(
        subject,
        utf8.encode(JSON.stringify({ type: 'command', id, view: 'station/101', version: 1, command: { name: 'clear-bets' } })),
        {
          timeout: 3000,
        },
      );
      return JSON.parse(text.decode(m.data)) as { type: string; code?: string; ref?: string };
    };
    const first = await ask('c1');
    assert.equal(first.type, 'error');
    assert.equal(first.code, 'internal');
    assert.equal(first.ref, 'c1');
    assert.equal(errors.length, 1, JSON.stringify(errors));
    // The connection still reads: the next command is handled and acknowledged.
    const second = await ask('c2');
    assert.deepEqual([second.type, second.ref], ['ack', 'c2']);
  });
});
