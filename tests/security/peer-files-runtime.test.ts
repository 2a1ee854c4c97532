// Issue 50 item 4, "checked at start and at every transfer": before, the peer files were read once
// at start, so `peer-credentials.json` or `peers.json` edited while the host ran changed nothing it
// noticed (the running host kept believing what it had read, and the edit waited, unseen, for the
// next start), and a peer removed from both files while the host was stopped was simply gone, with
// no fault. Here war-1 runs with one peer, bj-1 (the home of station 102); bj-1's side is a raw link
// holding the secret war-1 enrolled it with. Each attack edits war-1's files; the transfers with the
// peer concerned must stop at the next transfer (nothing credited, nothing sent) and the
// `peer-integrity` fault must be raised (journalled), never silently.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, afterEach, beforeEach, describe, it } from 'node:test';
import pino from 'pino';
import type WebSocket from 'ws';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { enrolFloor } from '../../host/peers/enrol-floor.js';
import { readPeers, writePeers } from '../../host/peers/peer-config.js';
import { PeerCredentials } from '../../host/peers/peer-credentials.js';
import { pinnedPeerAgent, pinnedPeerSocket } from '../../host/peers/peer-link.js';
import { PEER_PROTOCOL_VERSION } from '../../host/peers/peer-wire.js';
import { startHost, type RunningHost } from '../../host/start-host.js';
import { billCredit } from '../../ledger/fixtures.js';
import { entriesOfTypes, type EntryBody } from '../../ledger/index.js';
import { keyOf, TableId, type Transfer } from '../../terms/transfer-terms.js';
import { freePort } from '../../upstream/free-port.js';

const BJ = TableId.parse('bj-1');
const WAR = TableId.parse('war-1');
const EVIL = TableId.parse('evil-1');
/** Homed at bj-1: the station whose credit bj-1 may move to war-1. */
const AT_BJ = 102;
/** Homed at war-1: its credit may move to bj-1. */
const AT_WAR = 103;

const until = async (what: string, ok: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

/** Dials war-1 as `table` with `secret`; the link, once welcomed, or null when refused. */
async function dial(bjDir: string, table: TableId, secret: string): Promise<WebSocket | null> {
  const toWar = readPeers(bjDir)?.peers.find((p) => p.enrolment.table === WAR)?.enrolment ?? assert.fail('bj-1 has no enrolment at war-1');
  const ws = pinnedPeerSocket(toWar, pinnedPeerAgent(toWar));
  ws.on('error', () => undefined);
  await new Promise<void>((r, j) => {
    ws.once('open', () => r());
    ws.once('error', j);
  });
  const answer = new Promise<boolean>((r) => {
    ws.once('message', (d) => r(String(d).includes('peer-welcome')));
    ws.once('close', () => r(false));
  });
  ws.send(JSON.stringify({ type: 'hello-peer', protocol: PEER_PROTOCOL_VERSION, table, secret }));
  if (await answer) return ws;
  ws.terminate();
  return null;
}

describe('peer files edited while the host runs, or removed while it is stopped (issue 50 item 4)', { timeout: 120_000 }, () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'peer-files-'));
  let n = 0;
  let dirs: { bj: string; war: string };
  let war: RunningHost | null = null;
  let link: WebSocket | null = null;
  let serial = 0;
  let start: () => Promise<RunningHost>;

  beforeEach(async () => {
    n++;
    const ports = { bj: await freePort(), war: await freePort() };
    dirs = { bj: path.join(root, `${n}`, BJ), war: path.join(root, `${n}`, WAR) };
    await enrolFloor(
      [
        { table: BJ, dataDir: dirs.bj, url: `https://127.0.0.1:${ports.bj}`, stations: [AT_BJ] },
        { table: WAR, dataDir: dirs.war, url: `https://127.0.0.1:${ports.war}`, stations: [AT_WAR] },
      ],
      // The tick out of the way: each check here is the transfer's own, not the tick's.
      { tickMs: 60_000, recallAfterSeconds: 3600 },
    );
    const config = TableConfig.parse({ ...simulatedTableConfig('war'), tableId: WAR, remoteStations: 3, lan: { host: '127.0.0.1', port: ports.war } });
    start = () => startHost({ dataDir: dirs.war, rendererDir: path.join(root, 'none'), config, logger: pino({ level: 'silent' }), simulatedDealer: false });
    war = await start();
    war.ledger.append(billCredit(AT_WAR, 500, `note-${n}`));
  });

  afterEach(async () => {
    link?.terminate();
    link = null;
    await war?.close();
    war = null;
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const host = () => war ?? assert.fail('war-1 is not running');
  const bjSecret = () => readPeers(dirs.bj)?.peers.find((p) => p.enrolment.table === WAR)?.enrolment.secret ?? assert.fail('no secret');
  const offer = (station: number, amount: number): Transfer => ({ id: { origin: BJ, serial: ++serial }, currency: 'MOP', station, from: BJ, to: WAR, amount });
  const credited = (t: Transfer) =>
    [...entriesOfTypes(host().ledger, ['transfer.in'])].some(
      (e) => keyOf(((JSON.parse(e.body) as EntryBody).payload as { transfer: Transfer }).transfer.id) === keyOf(t.id),
    );
  const decided = (t: Transfer) =>
    [...entriesOfTypes(host().ledger, ['transfer.in', 'transfer.refuse'])].some((e) => {
      const p = (JSON.parse(e.body) as EntryBody).payload as { transfer?: Transfer; id?: Transfer['id'] };
      return keyOf(p.transfer?.id ?? p.id ?? { origin: WAR, serial: 0 }) === keyOf(t.id);
    });
  const faulted = () =>
    host()
      .floor.tilts.list()
      .some((t) => t.kind === 'peer-integrity');
  const faultJournalled = () =>
    [...entriesOfTypes(host().ledger, ['tilt.raise'])].some((e) => ((JSON.parse(e.body) as EntryBody).payload as { kind: string }).kind === 'peer-integrity');
  const send = (t: Transfer) => (link ?? assert.fail('no link')).send(JSON.stringify({ type: 'transfer', message: { kind: 'offer', transfer: t } }));
  const moveToBj = () => (host().transfers ?? assert.fail('no transfers')).command(AT_WAR, { name: 'move-credit', to: BJ, amount: 100 });

  /** bj-1 links in and moves 100 of station 102's credit to war-1: taken (the control). */
  async function control(): Promise<void> {
    link = await dial(dirs.bj, BJ, bjSecret());
    assert.ok(link, 'bj-1 is welcomed with its own secret');
    const t = offer(AT_BJ, 100);
    send(t);
    await until('the control offer taken', () => credited(t));
    assert.equal(faulted(), false, 'no fault before the edit');
  }

  /** After the edit: bj-1's next offer is neither credited nor refused (not journalled at all), war-1 sends it nothing, and the fault is raised and journalled. */
  async function transfersStopped(what: string): Promise<void> {
    const t = offer(AT_BJ, 100);
    send(t);
    await until(`${what}: the peer-integrity fault`, faulted);
    assert.ok(faultJournalled(), `${what}: the fault journalled (tilt.raise)`);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(decided(t), false, `${what}: the offer over the old link is not journalled, so nothing is credited`);
    const out = moveToBj();
    assert.equal(out.ok, false, `${what}: a station's credit no longer moves to bj-1`);
    assert.equal(host().ledger.credit(AT_WAR), 500, `${what}: nothing debited`);
  }

  it('a credential swapped in peer-credentials.json while the host runs stops transfers with that peer at the next one, with a fault', async () => {
    await control();
    const swapped = PeerCredentials.inDataDir(dirs.war).enrol(BJ);
    await transfersStopped('bj-1 swapped');
    assert.equal(await dial(dirs.bj, BJ, swapped), null, 'the swapped secret is not let in');
  });

  it("a peer's address or certificate swapped in peers.json while the host runs stops transfers with it, with a fault", async () => {
    await control();
    const file = readPeers(dirs.war) ?? assert.fail('no peers.json');
    writePeers(dirs.war, { ...file, peers: file.peers.map((p) => ({ ...p, enrolment: { ...p.enrolment, url: 'https://10.66.6.6:8443' } })) });
    await transfersStopped('bj-1 re-addressed');
  });

  it('a peer added to both files with a chosen secret while the host runs is refused, and raised as a fault', async () => {
    await control();
    const evilSecret = PeerCredentials.inDataDir(dirs.war).enrol(EVIL);
    const file = readPeers(dirs.war) ?? assert.fail('no peers.json');
    const bj = file.peers[0] ?? assert.fail('no peer');
    writePeers(dirs.war, { ...file, peers: [...file.peers, { enrolment: { ...bj.enrolment, table: EVIL }, stations: [101] }] });
    assert.equal(await dial(dirs.bj, EVIL, evilSecret), null, 'evil-1 is not let in');
    await until('the peer-integrity fault', faulted);
    assert.ok(faultJournalled(), 'journalled');
    // bj-1 itself is as journalled: its transfers go on.
    const t = offer(AT_BJ, 100);
    send(t);
    await until("bj-1's offer taken", () => credited(t));
  });

  it('a peer removed from both files while the host runs stops transfers with it, with a fault', async () => {
    await control();
    const file = readPeers(dirs.war) ?? assert.fail('no peers.json');
    writePeers(dirs.war, { ...file, peers: [] });
    PeerCredentials.inDataDir(dirs.war).revoke(BJ);
    await transfersStopped('bj-1 removed');
  });

  it('a peer removed from both files while the host is stopped is a fault at the next start', async () => {
    await control();
    link?.terminate();
    link = null;
    await host().close();
    war = null;
    const file = readPeers(dirs.war) ?? assert.fail('no peers.json');
    writePeers(dirs.war, { ...file, peers: [] });
    PeerCredentials.inDataDir(dirs.war).revoke(BJ);
    war = await start();
    assert.ok(faulted(), 'the peer-integrity fault at start');
    assert.ok(faultJournalled(), 'journalled');
  });
});
