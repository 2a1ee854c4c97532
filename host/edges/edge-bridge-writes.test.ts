// Issue 55: how the host's publisher hands one change of the hub to NATS. A card's round is
// written when its change ends (the settlement's durable commit comes after, in the same task);
// a settlement's round and panel are written together, before its stations' own parts are made,
// and the own parts together at the change's end. The table and hub are real; the NATS
// connection records each publish and each write of what it holds (the client's `flushPending`).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { NatsConnection } from 'nats';
import type { RemoteStations } from '../stadium/remote-stations.js';
import { credit, silent, stepTwoBettors, testTable } from '../testing/table-kit.js';
import { EdgeBridge } from './edge-bridge.js';

/** A NATS connection that writes nothing: `log` has `pub <subject>` per publish, `write` per write of what it held. */
function recordingNats(log: string[]): NatsConnection {
  const nc = {
    subscribe: () => ({ unsubscribe: () => undefined }),
    status: () => (async function* () {})(),
    publish: (subject: string) => log.push(`pub ${subject}`),
    protocol: { pendingLimit: 32 * 1024, flushPending: () => log.push('write') },
  };
  return nc as unknown as NatsConnection;
}

const stations = { onChange: () => () => undefined, onRevoked: () => () => undefined, proofKeys: () => [] } as unknown as RemoteStations;

describe("the edges' publisher's writes to NATS (issue 55)", () => {
  it('a change in two writes at most: its public parts together before its own parts, the own parts at its end', async () => {
    const t = testTable({ game: 'baccarat', config: { remoteStations: 3 } });
    const log: string[] = [];
    const nc = recordingNats(log);
    const bridge = await EdgeBridge.start({ hub: t.hub, stations, nc, tableId: t.config.tableId, log: silent });
    try {
      assert.ok((nc as unknown as { protocol: { pendingLimit: number } }).protocol.pendingLimit >= 1 << 20, 'the client holds a whole change');
      // The edge holds these two (as if attached with their proofs): their own parts go to it.
      for (const station of [101, 102]) bridge['hold'](station, 'edge-1');
      for (const station of [101, 102]) credit(t.ledger, station, 100_000);
      t.table.shoe.onNewShoe();
      let cards = 0;
      let settlements = 0;
      for (let i = 0; i < 80; i++) {
        log.length = 0;
        stepTwoBettors(t, i);
        const steps = log.join(', ');
        // Nothing published is left for the end of the task.
        if (log.length > 0) assert.equal(log.at(-1), 'write', steps);
        // Within each write: the public parts first, then own parts, never a public part after an own part.
        for (const piece of steps.split('write')) assert.doesNotMatch(piece, /\.own.*pub\.(round|panel)/, steps);
        const own = log.filter((l) => l.endsWith('.own')).length;
        const firstOwn = log.findIndex((l) => l.endsWith('.own'));
        const lastPublic = log.findLastIndex((l) => /\.pub\.(round|panel)$/.test(l));
        if (own === 0 && lastPublic >= 0) {
          // A card's round alone: one write, right after it.
          cards++;
          assert.equal(log.filter((l) => l === 'write').length, 1, steps);
        }
        if (own >= 2 && lastPublic >= 0 && lastPublic < firstOwn) {
          // A change of the round and both stations' own parts: the public parts written before the own parts are published.
          settlements++;
          assert.ok(log.slice(lastPublic, firstOwn).includes('write'), steps);
          assert.equal(log.slice(firstOwn).filter((l) => l === 'write').length, 1, `the own parts in one write: ${steps}`);
        }
      }
      assert.ok(cards >= 3, `cards: ${cards}`);
      assert.ok(settlements >= 2, `changes of the round with own parts: ${settlements}`);
    } finally {
      await bridge.close();
      t.close();
    }
  });
});
