// Issue 55, a hostile edge. An edge is a machine of its own on the casino network: whoever holds
// it sees every byte its stations send and everything its NATS user may read. Here it is the test:
// (1) a station connecting through it never sends its secret, and what it does send (a proof on
// one nonce the host issued to that edge) cannot be used again, nor by another edge, nor on another
// nonce; (2) it reads the own parts of the stations attached through it only: another edge's
// station's parts are refused it on every subject, and JetStream's API is refused it; (3) nothing it
// may publish has the server write on a subject the host or another edge trusts (its reply subject).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { WebSocketServer, type WebSocket } from 'ws';
import { DeviceClient } from '../../host/station-agent/device-client.js';
import { HeadlessStation } from '../../host/station-agent/headless-station.js';
import { pinnedAgent } from '../../host/station-agent/pinned-socket.js';
import { tableCertificate } from '../../host/stadium/table-certificate.js';
import { proveStation } from '../../host/stadium/station-proof.js';
import { Edge } from '../../host/edges/edge.js';
import { decodeUpdate, edgeInbox, edgePermissions, PublishedEnrolment, tableSubjects } from '../../host/edges/subjects.js';
import type { StationState } from '../../protocol/index.js';
import { log, startEdgeTable, type EdgeTable } from './edges-kit.js';

async function until(what: string, ok: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    assert.ok(Date.now() < end, `${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The JetStream stream the host kept the last values in until 5 December (the edges read it through JetStream's API). */
const STREAM = 'ETG_SIM_BAC_01';

describe('a hostile edge', { timeout: 120_000 }, () => {
  let t: EdgeTable;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'edges-attacks-'));
    t = await startEdgeTable({ edges: ['edge-1', 'edge-2'], remote: 3 });
  });
  after(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('never hears a station’s secret, and cannot use what it heard to attach the station again', async () => {
    const { running, bridge } = t;
    const enrolment = running.stadium.enrol(103, ['Ana Lei (1001)', 'Rui Sá (1002)']);
    running.stadium.enrol(101, ['Ana Lei (1001)', 'Rui Sá (1002)']);
    const secretHash = createHash('sha256').update(enrolment.secret).digest('hex');
    // The hostile edge: a TLS listener the station pins (its operator's certificate) that keeps every frame.
    const certificate = await tableCertificate(path.join(dir, 'hostile'), 'edge-2', ['127.0.0.1']);
    const heard: string[] = [];
    const https = createServer({ key: certificate.key, cert: certificate.cert });
    const wss = new WebSocketServer({ server: https });
    const nats = await t.natsAs('edge-2', edgeInbox('edge-2'));
    const edge = await Edge.start({ name: 'edge-2', tableId: t.tableId, nc: nats, log });
    let captured: { nonce: string; proof: string } | null = null;
    wss.on('connection', (ws: WebSocket) => {
      // It greets the connection with a nonce of its own from the host, as an edge does.
      void edge.challenge(103).then((nonce) => ws.send(JSON.stringify({ type: 'challenge', nonce })));
      ws.on('message', (data) => {
        const frame = String(data);
        heard.push(frame);
        const m = JSON.parse(frame) as { type?: string; id?: string; nonce?: string; proof?: string };
        if (m.type === 'hello-station' && m.nonce !== undefined && m.proof !== undefined) captured = { nonce: m.nonce, proof: m.proof };
      });
    });
    await new Promise<void>((r) => https.listen(0, '127.0.0.1', r));
    const address = https.address();
    assert.ok(typeof address === 'object' && address !== null);
    const atHostile = {
      ...enrolment,
      host: `https://127.0.0.1:${address.port}`,
      certificate: certificate.cert,
      fingerprint: certificate.fingerprint,
      edge: true as const,
    };
    const station = new HeadlessStation(atHostile, pinnedAgent(atHostile));
    try {
      await station.connect();
      await until('the station proved its secret to the hostile edge', () => captured !== null);
      const proof: { nonce: string; proof: string } = captured ?? assert.fail('no proof');
      assert.equal(heard.length >= 2, true);
      for (const frame of heard) {
        assert.ok(!frame.includes(enrolment.secret), `the secret in ${frame}`);
        assert.ok(!frame.includes(secretHash), `the secret's hash in ${frame}`);
      }
      const first = JSON.parse(heard[0] ?? '{}') as object;
      assert.deepEqual(
        Object.keys(first).sort(),
        ['id', 'nonce', 'proof', 'protocol', 'station', 'type'],
        'the first frame: the proof on the greeting’s nonce, no secret',
      );
      // Nor does anything the edge may read on NATS hold it: the enrolment (the last, as an edge asks for it) carries public keys.
      const s = tableSubjects(t.tableId);
      const enrol = nats.subscribe(s.edgeEnrol('edge-2'), { max: 1 });
      await nats.request(s.last('edge-2'), new Uint8Array(0), { timeout: 5000 });
      const published = await (async () => {
        for await (const m of enrol) return new TextDecoder().decode(m.data);
        return '';
      })();
      assert.ok(published.includes('"station":103') && !published.includes(secretHash) && !published.includes(enrolment.secret), published);

      // What it heard, used elsewhere: another edge can neither use the nonce (issued to edge-2) nor
      // spend it (a nonce is no secret: spent by another edge's try, the station greeted with it was refused).
      const other = await Edge.start({ name: 'edge-1', tableId: t.tableId, nc: await t.natsAs('edge-1', edgeInbox('edge-1')), log });
      const refused = bridge.counters.refused;
      assert.equal(await other.attach(103, proof.nonce, proof.proof), false, 'another edge with the proof');
      assert.equal(bridge.holder(103), null);
      // Edge-2 relaying it now, while the station is there, is what an edge is for; the nonce is spent then.
      assert.equal(await edge.attach(103, proof.nonce, proof.proof), true, 'the station’s own edge relays its proof');
      assert.equal(bridge.holder(103), 'edge-2');
      assert.equal(await edge.attach(103, proof.nonce, proof.proof), false, 'the nonce spent: the proof is good once');
      // On a nonce of its own, later: the old proof is for the old nonce.
      const fresh = (await edge.challenge(103)) ?? assert.fail('no nonce');
      assert.equal(await edge.attach(103, fresh, proof.proof), false, 'an old proof on a new nonce');
      // Nor a made-up station; and a nonce spent on another station (a wrong proof for 101) is spent
      // for every station: the station's own proof on it, had the edge one, is refused too.
      assert.equal(await edge.challenge(150), null, 'no nonce for a station not enrolled');
      const n101 = (await edge.challenge(101)) ?? assert.fail('no nonce for 101');
      assert.equal(await edge.attach(101, n101, 'A'.repeat(86)), false, 'a made-up proof for 101');
      assert.equal(await edge.attach(103, n101, proveStation(enrolment.secret, t.tableId, 103, n101)), false, 'a nonce spent on another station');
      assert.equal(bridge.holder(103), 'edge-2', 'none of these moved the station');
      assert.equal(bridge.holder(101), null);
      assert.ok(bridge.counters.refused >= refused + 4);
      other.close();
    } finally {
      station.terminate();
      edge.close();
      wss.close();
      await new Promise<void>((r) => https.close(() => r()));
    }
  });

  it('reads the own parts of the stations attached through it only', async () => {
    const { running, tableId } = t;
    const s = tableSubjects(tableId);
    const [e1, e2] = [await t.startEdge('edge-1'), await t.startEdge('edge-2')];
    const a = running.stadium.enrol(101, ['Ana Lei (1001)', 'Rui Sá (1002)']);
    const b = running.stadium.enrol(102, ['Ana Lei (1001)', 'Rui Sá (1002)']);
    const onEdge1 = new HeadlessStation(e1.at(a), pinnedAgent(e1.at(a)));
    const onEdge2 = new HeadlessStation(e2.at(b), pinnedAgent(e2.at(b)));
    const device = new DeviceClient(a, pinnedAgent(a));
    // The hostile edge-2's own user, listening wherever it can.
    const hostile = await t.natsAs('edge-2', edgeInbox('edge-2'));
    const errors: string[] = [];
    const watching = (async () => {
      for await (const st of hostile.status()) if (st.type === 'error') errors.push(String(st.data));
    })();
    const read: string[] = [];
    for (const subject of [s.edgeAll('edge-1'), `${s.root}.st.>`, `${s.root}.>`, '>'])
      hostile.subscribe(subject, { callback: (err, m) => (err ? errors.push(err.message) : read.push(m.subject)) });
    const mine: string[] = [];
    hostile.subscribe(s.edgeAll('edge-2'), { callback: (err, m) => err || mine.push(m.subject) });
    try {
      await onEdge1.connect();
      await onEdge2.connect();
      await until('both stations whole through their edges', () => onEdge1.latest() !== null && onEdge2.latest() !== null);
      // A change of station 101's own part (its credit) goes to edge-1 alone.
      await device.ready();
      assert.equal((await device.insert('note-x', 500, 'MOP')).credited, true);
      await until('station 101 shows its credit', () => (onEdge1.latest() as StationState | null)?.credit === running.ledger.credit(101));
      await hostile.flush();
      await new Promise((r) => setTimeout(r, 300));
      assert.deepEqual(read, [], 'nothing read on another edge’s subjects, nor on the table’s, nor on all');
      assert.ok(errors.length >= 4, `the server refused the subscriptions: ${errors.join('; ')}`);
      assert.ok(mine.length > 0 && mine.every((x) => x.startsWith(`${s.root}.edge.edge-2.st.102.`)), mine.join());
      // Nor through JetStream's API, which it may not ask (nor is station 101's part in any stream).
      const jsm = await hostile.jetstreamManager({ checkAPI: false });
      for (const subject of [s.own('edge-1', 101), `${s.root}.st.101.own`]) {
        const got = await jsm.streams.getMessage(STREAM, { last_by_subj: subject }).then(
          (m) => new TextDecoder().decode(m.data),
          () => null,
        );
        assert.equal(got, null, `the stream gave ${subject}`);
      }
    } finally {
      onEdge1.terminate();
      onEdge2.terminate();
      device.close();
      void watching;
    }
  });
  it('cannot have the server write on the table’s or another edge’s subjects by the reply subject of what it may publish', async () => {
    const { running, tableId } = t;
    const s = tableSubjects(tableId);
    const a = running.stadium.enrol(102, ['Ana Lei (1001)', 'Rui Sá (1002)']);
    // Every message on the subjects the edges believe to be the host's, as a watcher with every permission sees it.
    const host = await t.natsAs('host');
    const forged: string[] = [];
    const td = new TextDecoder();
    const watch = (subject: string, hosts: (data: Uint8Array, subject: string) => boolean) =>
      host.subscribe(subject, { callback: (err, m) => err || hosts(m.data, m.subject) || forged.push(`${m.subject}: ${td.decode(m.data).slice(0, 120)}`) });
    const isUpdate = (data: Uint8Array, subject: string) => subject.endsWith('.gone') || decodeUpdate(data.slice()) !== null;
    watch(s.enrol, (data) => PublishedEnrolment.safeParse(JSON.parse(td.decode(data))).success);
    watch(s.publicAll, isUpdate);
    watch(s.edgeAll('edge-1'), isUpdate);
    watch(`${s.root}.cmd.edge-1.>`, () => false);
    await host.flush();
    // The hostile edge-2 publishes on each subject its user may (and on the stream's API, which it
    // may or may not), each time naming as its reply a subject the edges and the host trust.
    const hostile = await t.natsAs('edge-2', edgeInbox('edge-2'));
    const mayPublish = edgePermissions(tableId, 'edge-2').publish.map((p) => p.replace(/\*$/, '102'));
    const asks = [...new Set([...mayPublish, `$JS.API.STREAM.MSG.GET.${STREAM}`, `$JS.API.DIRECT.GET.${STREAM}`])];
    const targets = [s.enrol, s.publicPart('round'), s.command('edge-1', 102), s.own('edge-1', 102)];
    const body = new TextEncoder().encode(JSON.stringify({ last_by_subj: s.publicPart('round') }));
    for (const subject of asks) for (const reply of targets) hostile.publish(subject, body, { reply });
    await hostile.flush();
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(forged, [], 'nothing but the host’s own messages on the subjects it owns');
    // An edge started after the lies is whole: it knows station 102 and lets it in.
    const late = await t.startEdge('edge-1');
    const station = new HeadlessStation(late.at(a), pinnedAgent(late.at(a)));
    try {
      await station.connect();
      await until('station 102 whole through the edge started after', () => station.latest() !== null);
    } finally {
      station.terminate();
      await late.kill();
    }
  });
});
