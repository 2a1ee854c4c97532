// Issue 55, faults and credentials: a station whose edge is killed mid-coup reconnects to another
// edge and is whole again at once (its own part and the public round, from the edge's last values);
// NATS restarted under the host and the edges, the host publishes everything again and play goes
// on; money is conserved throughout. Each edge has its own NATS user: it can publish only under its
// own name and reads nothing of another table.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { accountFor } from '../../cli/soak/account.js';
import { DeviceClient } from '../../host/station-agent/device-client.js';
import { HeadlessStation } from '../../host/station-agent/headless-station.js';
import { pinnedAgent } from '../../host/station-agent/pinned-socket.js';
import type { EnrolmentFile } from '../../host/stadium/enrolment-file.js';
import { edgeInbox, tableSubjects } from '../../host/edges/subjects.js';
import { INCOMING_LIMITS } from '../../host/screens/screen-session.js';
import type { HostMessage, StationState } from '../../protocol/index.js';
import { startEdgeTable, type EdgeTable } from './edges-kit.js';

const STATION = 101;

async function until(what: string, ok: () => boolean, ms = 30_000): Promise<number> {
  const t0 = performance.now();
  while (!ok()) {
    assert.ok(performance.now() - t0 < ms, `${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return performance.now() - t0;
}

describe('edges: one killed mid-coup, NATS restarted, each edge its own credentials', { timeout: 180_000 }, () => {
  let t: EdgeTable;
  before(async () => {
    t = await startEdgeTable({ edges: ['edge-1', 'edge-2'], remote: 2 });
  });
  after(async () => {
    await t?.close();
  });

  it('moves a station to another edge mid-coup and plays on through a restart of NATS, money conserved', async () => {
    const { running, bridge, tableId } = t;
    const enrolment = running.stadium.enrol(STATION, ['Ana Lei (1001)', 'Rui Sá (1002)']);
    const device = new DeviceClient(enrolment, pinnedAgent(enrolment));
    await device.ready();
    assert.equal((await device.insert('note-1', 1000, 'MOP')).credited, true);
    const [e1, e2] = [await t.startEdge('edge-1'), await t.startEdge('edge-2')];

    const acks: string[] = [];
    const betOn = new Set<string>();
    const station = (e: EnrolmentFile) => {
      const s: HeadlessStation = new HeadlessStation(e, pinnedAgent(e), {
        message: (m: HostMessage) => 'type' in m && m.type === 'ack' && acks.push(m.ref),
        view: (state) => {
          if (state.kind !== 'station' || !state.betting.open || !state.round || betOn.has(state.round.roundId)) return;
          const spot = state.betting.spots.find((x) => x.bet === 'banker');
          if (!spot) return;
          betOn.add(state.round.roundId);
          s.command({ name: 'place-bet', spot: { bet: 'banker' }, amount: spot.min });
        },
      });
      return s;
    };
    const view = `station/${STATION}` as const;
    const whole = (s: HeadlessStation) => {
      const v = s.latest() as StationState | null;
      return v !== null && s.version() === running.screens.hub.version(view) && JSON.stringify(v.round) === JSON.stringify(running.table.reads.view());
    };
    const settled = () =>
      running.ledger.rounds.recall({ tableId, limit: 100 }).filter((r) => r.status === 'settled' && r.lines.some((l) => l.station === STATION)).length;

    const first = station(e1.at(enrolment));
    await first.connect();
    await until('a round settled through edge-1', () => settled() >= 1);
    // Mid-coup: the station's bet of this round acknowledged and the cards coming.
    const acked = acks.length;
    await until('a bet acknowledged and the betting closed', () => acks.length > acked && running.table.state.phase !== 'betting');
    await e1.kill();
    first.terminate();

    const second = station(e2.at(enrolment));
    const t0 = performance.now();
    await second.connect();
    await until('the station whole through edge-2', () => whole(second), 10_000);
    console.log(`edge killed mid-coup: the station whole through another edge ${(performance.now() - t0).toFixed(0)} ms after it dialled it`);
    const before = settled();
    await until('a round settled through edge-2', () => settled() > before && bridge.holder(STATION) === 'edge-2');

    await t.nats.restart();
    const acksBefore = acks.length;
    const settledBefore = settled();
    await until('a bet acknowledged and a round settled after NATS restarted', () => acks.length > acksBefore && settled() > settledBefore, 60_000);
    await until('the station whole after NATS restarted', () => whole(second) && running.table.state.phase === 'results');
    const v = second.latest() as StationState;
    assert.equal(v.credit, running.ledger.credit(STATION), 'the station shows the ledger’s credit');
    second.close();
    device.close();
    const account = accountFor(running.ledger);
    assert.equal(account.ledgerVerified, true, account.problems.join('; '));
    assert.equal(account.conserved, true, JSON.stringify(account));
  });

  it("lets an edge publish only under its own name and read nothing of another table's nor another edge's stations", async () => {
    const { tableId } = t;
    const hostNc = await t.natsAs('host');
    const seen: string[] = [];
    hostNc.subscribe(`etg.${tableId}.cmd.>`, { callback: (err, m) => err || seen.push(m.subject) });
    const edge = await t.natsAs('edge-1', edgeInbox('edge-1'));
    const refused: string[] = [];
    const watching = (async () => {
      for await (const s of edge.status()) if (s.type === 'error') refused.push(String(s.data));
    })();
    const data = new TextEncoder().encode('{}');
    edge.publish(`etg.${tableId}.cmd.edge-2.${STATION}`, data);
    edge.publish(`etg.other-table.cmd.edge-1.${STATION}`, data);
    edge.publish(`etg.${tableId}.pub.round`, data);
    edge.publish(`etg.${tableId}.cmd.edge-1.999`, data);
    // Reads on the subjects own parts really go to (host/edges/subjects.ts): another table's, under
    // this edge's own name too, and another edge's of this table; and the wildcards that would cover them.
    const mine = tableSubjects(tableId);
    const other = tableSubjects('other-table');
    const forbidden = [
      other.own('edge-1', STATION),
      other.edgeAll('edge-1'),
      'etg.other-table.>',
      'etg.*.edge.edge-1.>',
      mine.own('edge-2', STATION),
      mine.edgeAll('edge-2'),
    ];
    const read: string[] = [];
    const errors: string[] = [];
    for (const subject of forbidden) edge.subscribe(subject, { callback: (err, m) => (err ? errors.push(err.message) : read.push(m.subject)) });
    const allowed: string[] = [];
    edge.subscribe(mine.own('edge-1', STATION), { callback: (err, m) => err || allowed.push(m.subject) });
    await edge.flush();
    hostNc.publish(other.own('edge-1', STATION), data);
    hostNc.publish(mine.own('edge-2', STATION), data);
    hostNc.publish(mine.own('edge-1', STATION), data);
    await hostNc.flush();
    await until('the allowed command arrived', () => seen.length > 0, 5000);
    await until("the edge's own station's part arrived", () => allowed.length > 0, 5000);
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(seen, [`etg.${tableId}.cmd.edge-1.999`], 'only the command under its own name');
    assert.deepEqual(read, [], "nothing of another table's or another edge's stations");
    assert.ok(refused.length + errors.length >= forbidden.length, `the server refused each subscription: ${JSON.stringify([...refused, ...errors])}`);
    void watching;
  });
  it('answers an edge only on its own inbox: a reply subject naming the enrolment or a server API is not written to', async () => {
    const { tableId, bridge } = t;
    const s = tableSubjects(tableId);
    const hostNc = await t.natsAs('host');
    const onEnrol: string[] = [];
    hostNc.subscribe(s.enrol, { callback: (err, m) => err || onEnrol.push(new TextDecoder().decode(m.data)) });
    await hostNc.flush();
    const edge = await t.natsAs('edge-1', edgeInbox('edge-1'));
    const wrong = new TextEncoder().encode(JSON.stringify({ station: STATION, secret: 'x'.repeat(43) }));
    const command = new TextEncoder().encode(
      JSON.stringify({ type: 'command', id: 'c-1', view: `station/${STATION}`, version: 1, command: { name: 'clear-bets' } }),
    );
    const refused = bridge.counters.refused;
    // The edge lies in the one field its permissions do not bound: where the host is to answer.
    edge.publish(s.attach('edge-1'), wrong, { reply: s.enrol });
    edge.publish(s.attach('edge-1'), wrong, { reply: '$JS.API.STREAM.PURGE.ETG_SIM_BAC_01' });
    edge.publish(s.command('edge-1', STATION), command, { reply: '$JS.API.STREAM.DELETE.ETG_SIM_BAC_01' });
    await edge.flush();
    await until('the host took the three', () => bridge.counters.refused >= refused + 3, 5000);
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(onEnrol, [], 'nothing but the enrolment is published on the enrolment subject');
  });
  it("answers an edge's flood of wrong attachments at a screen's refusal rate, each one counted", async () => {
    const { tableId, bridge } = t;
    const s = tableSubjects(tableId);
    const edge = await t.natsAs('edge-2', edgeInbox('edge-2'));
    const inbox = `${edgeInbox('edge-2')}.flood`;
    let answers = 0;
    edge.subscribe(inbox, { callback: (err) => err || answers++ });
    const refused = bridge.counters.refused;
    const wrong = new TextEncoder().encode(JSON.stringify({ station: STATION, secret: 'y'.repeat(43) }));
    for (let i = 0; i < 300; i++) edge.publish(s.attach('edge-2'), wrong, { reply: inbox });
    edge.publish(s.attach('edge-2'), new Uint8Array(100_000).fill(0x20), { reply: inbox });
    await edge.flush();
    await until('the host took all of them', () => bridge.counters.refused >= refused + 301, 10_000);
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(answers > 0 && answers <= INCOMING_LIMITS.refused.burst + 5, `answered ${answers} of 301`);
    assert.equal(bridge.holder(STATION), 'edge-2', 'the station stays with the edge that holds it');
  });
});
