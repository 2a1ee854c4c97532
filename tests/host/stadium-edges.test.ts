// Issue 55: a remote station through an edge on NATS. The host publishes each change once on the
// table's subjects; the edge holds the station's TLS connection, relays the station's proof of its
// secret on the host's nonce (checked against the published key, then by the host) and forwards its
// commands, which the host checks as a direct screen's. One station plays rounds through the edge (credited over its
// direct device link, as on the floor): its bets are acknowledged by the host, the rounds settle,
// and what it shows is the ledger's credit. A second edge that does not hold the station forges
// its commands and a proof it made up: the host refuses them all and the ledger does not move.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connect, type NatsConnection } from 'nats';
import pino from 'pino';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { startHost, type RunningHost } from '../../host/start-host.js';
import { DeviceClient } from '../../host/station-agent/device-client.js';
import { HeadlessStation } from '../../host/station-agent/headless-station.js';
import { pinnedAgent } from '../../host/station-agent/pinned-socket.js';
import { tableCertificate } from '../../host/stadium/table-certificate.js';
import type { EnrolmentFile } from '../../host/stadium/enrolment-file.js';
import { startNatsServer, type NatsServer } from '../../host/edges/nats-server.js';
import { natsCertificate, natsTls, type NatsCertificate } from '../../host/edges/nats-tls.js';
import { EdgeBridge } from '../../host/edges/edge-bridge.js';
import { Edge } from '../../host/edges/edge.js';
import { createEdgeServer } from '../../host/edges/edge-server.js';
import { edgeInbox } from '../../host/edges/subjects.js';
import { decodeHostMessage, type HostMessage, type StationState } from '../../protocol/index.js';

const STATION = 101;
const log = pino({ level: 'silent' });

async function until(what: string, ok: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    assert.ok(Date.now() < end, `${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('a remote station through an edge on NATS', { timeout: 120_000 }, () => {
  let dir: string;
  let nats: NatsServer;
  let natsCert: NatsCertificate;
  let running: RunningHost;
  const conns: NatsConnection[] = [];
  const closers: (() => unknown)[] = [];
  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'edges-'));
    // TLS only, as a table's (its certificate pinned by the host's and the edges' connections).
    natsCert = await natsCertificate(path.join(dir, 'nats-tls'), ['127.0.0.1']);
    nats = await startNatsServer({ tls: { certFile: natsCert.certFile, keyFile: natsCert.keyFile } });
    const config = TableConfig.parse({ ...simulatedTableConfig('baccarat'), remoteStations: 2 });
    running = await startHost({
      dataDir: path.join(dir, 'host'),
      rendererDir: path.join(dir, 'no-renderer'),
      config,
      logger: log,
      seed: 5,
      simulatedDealer: { dealMs: 5 },
      timings: { bettingMs: 1500, decisionMs: 1000, resultsMs: 100 },
    });
  });
  after(async () => {
    for (const c of closers.reverse()) await c();
    for (const c of conns) await c.close();
    await running?.close();
    await nats?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('plays rounds through one edge; a forged command from an edge that does not hold the station is refused', async () => {
    const tableId = running.table.state.params.tableId;
    const natsConn = async (edge?: string) => {
      const c = await connect({ servers: nats.url, tls: natsTls(natsCert), ...(edge ? { inboxPrefix: edgeInbox(edge) } : {}) });
      conns.push(c);
      return c;
    };
    const bridge = await EdgeBridge.start({ hub: running.screens.hub, stations: running.stadium.stations, nc: await natsConn(), tableId, log });
    closers.push(() => bridge.close());
    const enrolment = running.stadium.enrol(STATION, ['Ana Lei (1001)', 'Rui Sá (1002)']);

    const edge = await Edge.start({ name: 'edge-1', tableId, nc: await natsConn('edge-1'), log });
    closers.push(() => edge.close());
    const certificate = await tableCertificate(path.join(dir, 'edge-1'), 'edge-1', ['127.0.0.1']);
    const server = await createEdgeServer(edge, { log, certificate, host: '127.0.0.1', port: 0, caps: { perAddress: 256, total: 256 } });
    closers.push(() => server.close());
    const atEdge: EnrolmentFile = { ...enrolment, host: server.origin, certificate: certificate.cert, fingerprint: certificate.fingerprint, edge: true };

    // The acceptor stays a direct link to the table's host.
    const device = new DeviceClient(enrolment, pinnedAgent(enrolment));
    closers.push(() => device.close());
    await device.ready();
    assert.equal((await device.insert('note-1', 1000, 'MOP')).credited, true);

    const messages: HostMessage[] = [];
    const betOn = new Set<string>();
    let lastBet = '';
    const station: HeadlessStation = new HeadlessStation(atEdge, pinnedAgent(atEdge), {
      message: (m) => {
        messages.push(m);
        // The round's public part may reach the station before its own part's last change: the
        // host answers such a bet stale-version, and the station bets again on its next view.
        if ('type' in m && m.type === 'error' && m.code === 'stale-version') betOn.delete(lastBet);
      },
      view: (state) => {
        if (state.kind !== 'station' || !state.betting.open || !state.round || betOn.has(state.round.roundId)) return;
        const spot = state.betting.spots.find((s) => s.bet === 'banker');
        if (!spot || betOn.size >= 2) return;
        betOn.add((lastBet = state.round.roundId));
        station.command({ name: 'place-bet', spot: { bet: 'banker' }, amount: spot.min });
      },
    });
    closers.push(() => station.close());
    await station.connect();

    const settled = () =>
      running.ledger.rounds.recall({ tableId, limit: 50 }).filter((r) => r.status === 'settled' && r.lines.some((l) => l.station === STATION));
    await until('two rounds with the station’s bet settled', () => settled().length >= 2, 60_000).catch((e: unknown) => {
      throw new Error(
        `${String(e)}: ${JSON.stringify(messages.map((m) => ('type' in m ? m.type : m[0])).slice(0, 40))} ${JSON.stringify(messages.filter((m) => 'type' in m && m.type === 'error'))} held ${edge.stations().join()} ${JSON.stringify(edge.counters)} ${JSON.stringify(bridge.counters)}`,
      );
    });
    assert.equal(messages.filter((m) => m.type === 'ack').length, 2, 'both bets acknowledged by the host');
    assert.ok(messages.some((m) => m.type === 'welcome'));
    // What the station shows is the ledger's credit, once the round's settlement reached it.
    await until('the station shows the ledger’s credit', () => {
      const v = station.latest() as StationState | null;
      return v !== null && v.betting.bets.length === 0 && v.credit === running.ledger.credit(STATION);
    });
    assert.ok(
      messages.every((m) => !('view' in m) || m.view === `station/${STATION}`),
      'only its own view',
    );
    assert.equal(bridge.holder(STATION), 'edge-1');

    // A hostile edge: another NATS client publishing as `edge-2`, which holds no station.
    const hostile = await Edge.start({ name: 'edge-2', tableId, nc: await natsConn('edge-2'), log });
    closers.push(() => hostile.close());
    const credit = running.ledger.credit(STATION);
    const head = running.ledger.headOf().seq;
    const forged = JSON.stringify({
      type: 'command',
      id: 'f1',
      view: `station/${STATION}`,
      version: station.version(),
      command: { name: 'place-bet', spot: { bet: 'player' }, amount: 100 },
    });
    const answer = decodeHostMessage((await hostile.forward(STATION, forged, true)) ?? '');
    assert.ok(answer.ok && answer.message.type === 'error' && answer.message.code === 'unauthorized', JSON.stringify(answer));
    // Nor can it take the station over without its secret (the public key it reads cannot sign).
    const nonce = await hostile.challenge(STATION);
    assert.ok(nonce !== null, 'a nonce for the station');
    assert.equal(await hostile.attach(STATION, nonce, 'A'.repeat(86)), false);
    assert.equal(bridge.holder(STATION), 'edge-1');
    assert.ok(bridge.counters.refused >= 2);
    assert.equal(running.ledger.credit(STATION), credit);
    assert.ok(running.ledger.rounds.recall({ tableId, limit: 50 }).every((r) => r.lines.every((l) => l.station !== STATION || l.bet !== 'player')));
    assert.ok(running.ledger.headOf().seq >= head);
  });
});
