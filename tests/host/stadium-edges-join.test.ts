// Issue 55: a station's own part goes to its edge as the patch alone once the edge holds the
// version before, so the edge makes the whole itself for a connection that needs one. A station
// plays through an edge; mid-round (its bet acknowledged, the betting closed) a second screen of
// the same station joins at the same edge: it is whole at once from what the edge made (the
// host's own view of the station, deep-equal, at the host's version), and both follow the round to
// its settlement with the ledger's credit. The host sent the own part as patches alone meanwhile.
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { accountFor } from '../../cli/soak/account.js';
import { DeviceClient } from '../../host/station-agent/device-client.js';
import { HeadlessStation } from '../../host/station-agent/headless-station.js';
import { pinnedAgent } from '../../host/station-agent/pinned-socket.js';
import type { EnrolmentFile } from '../../host/stadium/enrolment-file.js';
import type { HostMessage, StationState } from '../../protocol/index.js';
import { startEdgeTable, type EdgeTable } from './edges-kit.js';

async function until(what: string, ok: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    assert.ok(Date.now() < end, `${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('edges: a station joining mid-round through its edge', { timeout: 120_000 }, () => {
  let t: EdgeTable;
  before(async () => {
    t = await startEdgeTable({ edges: ['edge-1'], remote: 2 });
  });
  after(async () => {
    await t?.close();
  });

  it('is whole at once from the whole the edge made of the host’s patches, and follows the round to its settlement', async () => {
    const { running, bridge, tableId } = t;
    const view = 'station/101' as const;
    const enrolment = running.stadium.enrol(101, ['Ana Lei (1001)', 'Rui Sá (1002)']);
    const device = new DeviceClient(enrolment, pinnedAgent(enrolment));
    await device.ready();
    assert.equal((await device.insert('note-j', 1000, 'MOP')).credited, true);
    const e1 = await t.startEdge('edge-1');
    const at: EnrolmentFile = e1.at(enrolment);
    const acks: string[] = [];
    const betOn = new Set<string>();
    const first: HeadlessStation = new HeadlessStation(at, pinnedAgent(at), {
      message: (m: HostMessage) => 'type' in m && m.type === 'ack' && acks.push(m.ref),
      view: (state) => {
        if (state.kind !== 'station' || !state.betting.open || !state.round || betOn.has(state.round.roundId)) return;
        const spot = state.betting.spots.find((x) => x.bet === 'banker');
        if (!spot) return;
        betOn.add(state.round.roundId);
        first.command({ name: 'place-bet', spot: { bet: 'banker' }, amount: spot.min });
      },
    });
    await first.connect();
    const settled = () =>
      running.ledger.rounds.recall({ tableId, limit: 100 }).filter((r) => r.status === 'settled' && r.lines.some((l) => l.station === 101)).length;
    await until('a round settled through the edge', () => settled() >= 1);
    // Mid-round: the station's bet of this round acknowledged, the betting closed, the round not settled.
    const acked = acks.length;
    await until('a bet acknowledged and the betting closed', () => acks.length > acked && running.table.state.phase !== 'betting');
    assert.ok(bridge.counters.ownPatches > 0, `the host sent the own part as patches alone (${JSON.stringify(bridge.counters)})`);
    assert.ok(e1.edge.counters.chained > 0, 'the edge chained them');
    const made = e1.edge.counters.made;

    const hostView = () => {
      const { recall: _recall, ...withoutRecall } = running.screens.hub.state(view) as StationState;
      return withoutRecall;
    };
    const whole = (s: HeadlessStation) => s.version() === running.screens.hub.version(view) && isDeepStrictEqual(s.latest(), hostView());
    // The station's own part (its view without the public parts) at each of the host's versions from now on.
    const own = (v: StationState) => {
      const { round: _round, roads: _roads, history: _history, recall: _recall, ...rest } = v;
      return rest;
    };
    const hostOwn = new Map<number, object>([[running.screens.hub.version(view), own(running.screens.hub.state(view) as StationState)]]);
    const stop = running.screens.hub.onChange(
      (v) => v === view && hostOwn.set(running.screens.hub.version(view), own(running.screens.hub.state(view) as StationState)),
    );
    const second = new HeadlessStation(at, pinnedAgent(at), {});
    await second.connect();
    await until('the joining screen shows its view', () => second.version() >= 0 && second.latest() !== null, 10_000);
    stop();
    // Its first view, the whole the edge made from the host's patches, is the host's own part at that version.
    assert.deepEqual(own(second.latest() as StationState), hostOwn.get(second.version()), `its first view, at version ${second.version()}`);
    await until('the joining screen whole at the host’s version', () => whole(second), 10_000);
    assert.ok(e1.edge.counters.made > made, 'its own part was the whole the edge made from the patches');
    assert.equal(bridge.holder(101), 'edge-1');

    // Both follow the round to its settlement, each with the ledger's credit.
    const before = settled();
    await until('the round settled', () => settled() > before);
    await until('both screens whole after the settlement, showing the ledger’s credit', () => {
      const credit = running.ledger.credit(101);
      return [first, second].every((s) => whole(s) && (s.latest() as StationState).credit === credit);
    });
    first.close();
    second.close();
    device.close();
    const account = accountFor(running.ledger);
    assert.equal(account.ledgerVerified, true, account.problems.join('; '));
    assert.equal(account.conserved, true, JSON.stringify(account));
  });
});
