// Issue 55, faults between live edges: a station moved from one live edge to another (the old
// edge told by the host and its connection closed; the old edge can no longer act for it; the
// station whole at the new one, its money right), and a slow edge (its link to NATS stalled) that
// does not slow the station of another edge: that one bets and sees its rounds settle meanwhile,
// and the slow edge's station is whole again once its edge catches up. Money conserved after.
import assert from 'node:assert/strict';
import { createServer, connect as tcpConnect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { accountFor } from '../../cli/soak/account.js';
import { DeviceClient } from '../../host/station-agent/device-client.js';
import { HeadlessStation } from '../../host/station-agent/headless-station.js';
import { pinnedAgent } from '../../host/station-agent/pinned-socket.js';
import type { EnrolmentFile } from '../../host/stadium/enrolment-file.js';
import { decodeHostMessage, type StationState } from '../../protocol/index.js';
import { startEdgeTable, type EdgeTable } from './edges-kit.js';

async function until(what: string, ok: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    assert.ok(Date.now() < end, `${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A station that bets the banker's minimum once a round (again after a stale-version), and counts its acks. */
function bettor(e: EnrolmentFile) {
  const betOn = new Set<string>();
  let last = '';
  const seen = { acks: 0, closed: false };
  const s: HeadlessStation = new HeadlessStation(e, pinnedAgent(e), {
    message: (m) => {
      if ('type' in m && m.type === 'ack') seen.acks++;
      if ('type' in m && m.type === 'error' && m.code === 'stale-version') betOn.delete(last);
    },
    view: (state) => {
      if (state.kind !== 'station' || !state.betting.open || !state.round || betOn.has(state.round.roundId)) return;
      const spot = state.betting.spots.find((x) => x.bet === 'banker');
      if (!spot || state.credit < spot.min) return;
      betOn.add((last = state.round.roundId));
      s.command({ name: 'place-bet', spot: { bet: 'banker' }, amount: spot.min });
    },
    closed: () => (seen.closed = true),
  });
  return { s, seen };
}

/** A TCP proxy to NATS whose way back to the client can be stalled (a slow edge's link). */
async function stallableProxy(port: number) {
  const pairs: { client: Socket; upstream: Socket }[] = [];
  let stalled = false;
  const server = createServer((client) => {
    const upstream = tcpConnect(port, '127.0.0.1');
    pairs.push({ client, upstream });
    client.pipe(upstream);
    upstream.on('data', (d: Buffer) => {
      if (!client.write(d) || stalled) upstream.pause();
    });
    client.on('drain', () => !stalled && upstream.resume());
    const end = () => (client.destroy(), upstream.destroy());
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  assert.ok(typeof address === 'object' && address !== null);
  return {
    url: `nats://127.0.0.1:${address.port}`,
    stall: () => {
      stalled = true;
      for (const p of pairs) p.upstream.pause();
    },
    resume: () => {
      stalled = false;
      for (const p of pairs) p.upstream.resume();
    },
    close: async () => {
      for (const p of pairs) p.client.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

describe('edges: a station moved between live edges, a slow edge', { timeout: 180_000 }, () => {
  let t: EdgeTable;
  before(async () => {
    t = await startEdgeTable({ edges: ['edge-1', 'edge-2', 'edge-3'], remote: 3 });
  });
  after(async () => {
    await t?.close();
  });

  it('moves a station from one live edge to another: the old edge’s connection closed and its commands refused, the money right', async () => {
    const { running, bridge, tableId } = t;
    const enrolment = running.stadium.enrol(101, ['Ana Lei (1001)', 'Rui Sá (1002)']);
    const device = new DeviceClient(enrolment, pinnedAgent(enrolment));
    await device.ready();
    assert.equal((await device.insert('note-m', 1000, 'MOP')).credited, true);
    const [e1, e2] = [await t.startEdge('edge-1'), await t.startEdge('edge-2')];
    const settled = () =>
      running.ledger.rounds.recall({ tableId, limit: 100 }).filter((r) => r.status === 'settled' && r.lines.some((l) => l.station === 101)).length;
    const first = bettor(e1.at(enrolment));
    await first.s.connect();
    await until('a round settled through edge-1', () => settled() >= 1 && first.seen.acks >= 1);
    // The station's machine dials edge-2 while edge-1 is alive and still holds it.
    const second = bettor(e2.at(enrolment));
    await second.s.connect();
    await until('edge-1’s connection closed by the move', () => first.seen.closed);
    assert.equal(bridge.holder(101), 'edge-2');
    assert.deepEqual(e1.edge.stations(), [], 'edge-1 holds the station no more');
    await until('the station whole through edge-2', () => second.s.version() === running.screens.hub.version('station/101'));
    const before = settled();
    await until('a round settled through edge-2', () => settled() > before && second.seen.acks >= 1);
    // Edge-1 acting for the station after the move: refused by the host.
    const forged = JSON.stringify({ type: 'command', id: 'f', view: 'station/101', version: second.s.version(), command: { name: 'clear-bets' } });
    const answer = decodeHostMessage((await e1.edge.forward(101, forged, true)) ?? '');
    assert.ok(answer.ok && answer.message.type === 'error' && answer.message.code === 'unauthorized', JSON.stringify(answer));
    await until('the station shows the ledger’s credit', () => (second.s.latest() as StationState | null)?.credit === running.ledger.credit(101));
    second.s.close();
    device.close();
    const account = accountFor(running.ledger);
    assert.equal(account.ledgerVerified, true, account.problems.join('; '));
    assert.equal(account.conserved, true, JSON.stringify(account));
  });

  it('a slow edge does not slow another edge’s station, and its own is whole once it catches up', async () => {
    const { running, tableId } = t;
    const proxy = await stallableProxy(Number(new URL(t.nats.url).port));
    try {
      const slowEnrol = running.stadium.enrol(102, ['Ana Lei (1001)', 'Rui Sá (1002)']);
      const fastEnrol = running.stadium.enrol(103, ['Ana Lei (1001)', 'Rui Sá (1002)']);
      const device = new DeviceClient(fastEnrol, pinnedAgent(fastEnrol));
      await device.ready();
      assert.equal((await device.insert('note-f', 1000, 'MOP')).credited, true);
      const slow = await t.startEdge('edge-3', proxy.url);
      const fast = await t.startEdge('edge-2');
      const onSlow = bettor(slow.at(slowEnrol));
      const onFast = bettor(fast.at(fastEnrol));
      await onSlow.s.connect();
      await onFast.s.connect();
      await until('both stations whole', () => onSlow.s.version() === running.screens.hub.version('station/102') && onFast.s.latest() !== null);
      const roundOf = (s: HeadlessStation) => (s.latest() as StationState | null)?.round?.roundId;
      proxy.stall();
      const stalledAt = roundOf(onSlow.s);
      const settledFast = () =>
        running.ledger.rounds.recall({ tableId, limit: 100 }).filter((r) => r.status === 'settled' && r.lines.some((l) => l.station === 103)).length;
      const acks = onFast.seen.acks;
      const before = settledFast();
      // Meanwhile the other edge's station bets, is acknowledged and sees its rounds settle.
      await until('the fast edge’s station bets and a round settles with the slow edge stalled', () => onFast.seen.acks > acks && settledFast() > before);
      await until(
        'the fast station sees the next round',
        () => running.table.reads.view().roundId !== stalledAt && roundOf(onFast.s) === running.table.reads.view().roundId,
      );
      assert.equal(roundOf(onSlow.s), stalledAt, 'the slow edge’s station saw nothing meanwhile (the stall was real)');
      proxy.resume();
      await until(
        'the slow edge’s station whole once its edge caught up',
        () => roundOf(onSlow.s) === running.table.reads.view().roundId && onSlow.s.version() === running.screens.hub.version('station/102'),
      );
      onSlow.s.close();
      onFast.s.close();
      device.close();
      const account = accountFor(running.ledger);
      assert.equal(account.conserved, true, JSON.stringify(account));
    } finally {
      await proxy.close();
    }
  });
});
