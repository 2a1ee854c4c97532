// A transfer between two table hosts over their real peer links (issue 34, docs/stadium.md
// "Transfers between tables"): each host's TransferHost over its own SQLite ledger, its LAN
// listener (TLS, its own certificate) taking the other's pinned link, as the table hosts run it.
// Timed from the station's `move-credit` (the debit journalled) to the sender's completion (the
// offer across, the credit journalled, "taken" back, the completion journalled), beside a bare
// round trip of a frame of the same size over the same kind of link (a TLS WebSocket on loopback
// with the same certificate pinned, echoed at once) in the same run.
//   npm run bench -- transfers-link
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { WebSocketServer } from 'ws';
import { createServer as createHttpsServer } from 'node:https';
import { billCredit } from '../ledger/fixtures.js';
import { Ledger } from '../ledger/index.js';
import { TableId } from '../terms/transfer-terms.js';
import { enrolFloor } from '../host/peers/enrol-floor.js';
import { HostTransfers } from '../host/peers/host-transfers.js';
import { readPeers } from '../host/peers/peer-config.js';
import { PeerCredentials } from '../host/peers/peer-credentials.js';
import { pinnedPeerAgent, pinnedPeerSocket } from '../host/peers/peer-link.js';
import { createLanServer } from '../host/server/lan-server.js';
import { tableCertificate } from '../host/stadium/table-certificate.js';
import { LedgerTransferJournal } from '../host/transfers/ledger-journal.js';
import { outgoingTransfers } from '../host/transfers/state.js';
import { bareCommits } from '../ledger/testing/bare-commits.js';
import { figure, QUICK, times } from './report.js';

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createNetServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
const until = async (ok: () => boolean) => {
  while (!ok()) await new Promise((r) => setImmediate(r));
};

const BAC = TableId.parse('bac-1');
const WAR = TableId.parse('war-1');
const STATION = 101;
const N = QUICK ? 30 : 400;
const log = pino({ level: 'silent' });
const dir = mkdtempSync(path.join(os.tmpdir(), 'transfers-link-bench-'));
console.log(`load average ${load()}`);
const closers: (() => Promise<void> | void)[] = [];
try {
  const tables = [
    { table: BAC, port: await freePort(), stations: [STATION] },
    { table: WAR, port: await freePort(), stations: [] },
  ];
  await enrolFloor(tables.map((t) => ({ table: t.table, dataDir: path.join(dir, t.table), url: `https://127.0.0.1:${t.port}`, stations: t.stations })));
  const hosts = new Map<TableId, { transfers: HostTransfers; ledger: Ledger }>();
  for (const t of tables) {
    const dataDir = path.join(dir, t.table);
    const ledger = Ledger.open({ dataDir, terminalId: t.table });
    ledger.append(billCredit(STATION, 100_000_000, `${t.table}-opening`));
    const peers = readPeers(dataDir);
    if (!peers) throw new Error('no peers.json');
    const transfers = new HostTransfers({
      self: t.table,
      currency: 'MOP',
      journal: new LedgerTransferJournal(ledger),
      peers,
      stations: [STATION],
      credentials: PeerCredentials.inDataDir(dataDir),
      log,
      betsInPlay: () => false,
      onAlarm: (a) => {
        throw new Error(`alarm ${a.reason}`);
      },
    });
    const certificate = await tableCertificate(dataDir, t.table, ['127.0.0.1']);
    const lan = await createLanServer(
      {
        log,
        openSession: () => {
          throw new Error('no screens');
        },
        openDevice: () => {
          throw new Error('no devices');
        },
        openPeer: (send, close) => transfers.listener.open(send, close),
        certificate,
        connections: { helloMs: 5_000, perAddress: 16, total: 16 },
      },
      '127.0.0.1',
      t.port,
    );
    transfers.start();
    closers.push(
      () => transfers.stop(),
      () => lan.close(),
      () => ledger.close(),
    );
    hosts.set(t.table, { transfers, ledger });
  }
  const bac = hosts.get(BAC);
  const war = hosts.get(WAR);
  if (!bac || !war) throw new Error('hosts');
  await until(() => [...bac.transfers.links.values(), ...war.transfers.links.values()].every((l) => l.connected()));

  // The transfer: bac → war, every one closed before the next.
  const latency: number[] = [];
  let frameBytes = 0;
  for (let i = 0; i < N; i++) {
    const t = performance.now();
    const r = bac.transfers.command(STATION, { name: 'move-credit', to: WAR, amount: 100 });
    if (!r.ok) throw new Error(r.reason);
    const serial = bac.transfers.host.state.lastSerial;
    await until(() => outgoingTransfers(bac.transfers.host.state).find((o) => o.transfer.id.serial === serial)?.phase === 'completed');
    latency.push(performance.now() - t);
    if (i === 0) {
      const offer = outgoingTransfers(bac.transfers.host.state)[0];
      frameBytes = JSON.stringify({ type: 'transfer', message: { kind: 'offer', transfer: offer?.transfer } }).length;
    }
  }

  // The baseline: a frame of the same size echoed over a TLS WebSocket on loopback, its certificate pinned.
  const certificate = await tableCertificate(path.join(dir, 'echo'), TableId.parse('echo'), ['127.0.0.1']);
  const https = createHttpsServer({ key: certificate.key, cert: certificate.cert, minVersion: 'TLSv1.2' });
  const wss = new WebSocketServer({ server: https, path: '/peer', perMessageDeflate: false });
  wss.on('connection', (ws) => ws.on('message', (d) => ws.send(String(d))));
  const echoPort = await freePort();
  await new Promise<void>((r) => https.listen(echoPort, '127.0.0.1', r));
  closers.push(
    () => new Promise<void>((r) => https.close(() => r())),
    () => wss.close(),
  );
  const enrolment = {
    table: TableId.parse('echo'),
    url: `https://127.0.0.1:${echoPort}`,
    certificate: certificate.cert,
    fingerprint: certificate.fingerprint,
    secret: 'x'.repeat(43),
  };
  const ws = pinnedPeerSocket(enrolment, pinnedPeerAgent(enrolment));
  await new Promise<void>((r, j) => {
    ws.once('open', () => r());
    ws.once('error', j);
  });
  closers.push(() => ws.terminate());
  const frame = 'x'.repeat(frameBytes);
  const bare: number[] = [];
  for (let i = 0; i < N; i++) {
    const t = performance.now();
    await new Promise<void>((r) => {
      ws.once('message', () => r());
      ws.send(frame);
    });
    // A transfer's messages make one round trip (the offer across, "taken" back), as this echo does.
    bare.push(performance.now() - t);
  }
  for (const p of [50, 99]) {
    const r = figure({
      name: `transfer between two table hosts over their TLS peer links (debit, offer, credit, taken, completion), p${p}`,
      unit: 'ms',
      value: pct(latency, p),
      better: 'lower',
      baseline: { name: `bare round trip of a ${frameBytes}-byte frame over a pinned TLS WebSocket on loopback, p${p}`, value: pct(bare, p) },
      note: 'baseline: the same kind of link, the same frame size, echoed at once: no ledger, no transfer code',
    });
    console.log(`${r.name}: ${r.value.toFixed(2)} ms; baseline ${pct(bare, p).toFixed(3)} ms; ${times(r)} (n=${N}, frame ${frameBytes} B)`);
  }
  // What the transfer also waits for: the three durable commits (debit, credit, completion) on this disk.
  const commits = bareCommits(path.join(dir, 'raw.sqlite'), 3 * N);
  const triples: number[] = [];
  for (let i = 0; i + 2 < commits.times.length; i += 3) triples.push((commits.times[i] ?? 0) + (commits.times[i + 1] ?? 0) + (commits.times[i + 2] ?? 0));
  for (const p of [50, 99]) {
    const link = pct(bare, p);
    const disk = pct(triples, p);
    console.log(
      `  beside: three bare one-row SQLite commits (WAL+FULL, same disk), p${p} ${disk.toFixed(2)} ms; with the bare round trip ${(disk + link).toFixed(2)} ms; the transfer ${(pct(latency, p) / (disk + link)).toFixed(2)}× that`,
    );
  }
} finally {
  for (const c of closers.reverse()) await c();
  rmSync(dir, { recursive: true, force: true });
}
console.log(`load average ${load()}`);
