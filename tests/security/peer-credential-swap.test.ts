// Issue 50 item 4, "Peers enrolled like stations": `peers.json` and `peer-credentials.json` in the
// kiosk-writable data folder enrolled the tables a station's credit can move to, and nothing
// journalled them: a peer added to both files with a chosen secret while the host was stopped was
// welcomed at the next start (and had 1,000,000 credited to a station), and a swapped credential
// went unnoticed. Here war-1's files are edited while it is stopped (a peer added, bj-1's
// credential swapped for one the attacker chose); at its next start both are refused at the link
// and raised as a fault.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import pino from 'pino';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { enrolFloor } from '../../host/peers/enrol-floor.js';
import { readPeers, writePeers } from '../../host/peers/peer-config.js';
import { PeerCredentials } from '../../host/peers/peer-credentials.js';
import { pinnedPeerAgent, pinnedPeerSocket } from '../../host/peers/peer-link.js';
import { PEER_PROTOCOL_VERSION } from '../../host/peers/peer-wire.js';
import { startHost } from '../../host/start-host.js';
import { entriesOfTypes, type EntryBody } from '../../ledger/index.js';
import { TableId } from '../../terms/transfer-terms.js';
import { freePort } from '../../upstream/free-port.js';

const BJ = TableId.parse('bj-1');
const WAR = TableId.parse('war-1');
const EVIL = TableId.parse('evil-1');

/** Dials war-1 as `table` with `secret`: whether it is welcomed. */
async function dial(dirs: { bj: string }, table: TableId, secret: string): Promise<'welcome' | 'refused'> {
  const toWar = readPeers(dirs.bj)?.peers.find((p) => p.enrolment.table === WAR)?.enrolment ?? assert.fail('bj-1 has no enrolment at war-1');
  const ws = pinnedPeerSocket(toWar, pinnedPeerAgent(toWar));
  ws.on('error', () => undefined);
  await new Promise<void>((r, j) => {
    ws.once('open', () => r());
    ws.once('error', j);
  });
  const answer = new Promise<'welcome' | 'refused'>((r) => {
    ws.once('message', (d) => r(String(d).includes('peer-welcome') ? 'welcome' : 'refused'));
    ws.once('close', () => r('refused'));
  });
  ws.send(JSON.stringify({ type: 'hello-peer', protocol: PEER_PROTOCOL_VERSION, table, secret }));
  const a = await answer;
  ws.terminate();
  return a;
}

describe('peer tables enrolled like stations (issue 50 item 4)', { timeout: 120_000 }, () => {
  it('a peer added or a credential swapped in the files while the host is stopped is refused at its next start, and a fault', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'peer-swap-'));
    const ports = { bj: await freePort(), war: await freePort() };
    const dirs = { bj: path.join(root, BJ), war: path.join(root, WAR) };
    await enrolFloor(
      [
        { table: BJ, dataDir: dirs.bj, url: `https://127.0.0.1:${ports.bj}`, stations: [101] },
        { table: WAR, dataDir: dirs.war, url: `https://127.0.0.1:${ports.war}`, stations: [102] },
      ],
      { tickMs: 60_000, recallAfterSeconds: 3600 },
    );
    const config = TableConfig.parse({ ...simulatedTableConfig('war'), tableId: WAR, remoteStations: 2, lan: { host: '127.0.0.1', port: ports.war } });
    const start = () =>
      startHost({ dataDir: dirs.war, rendererDir: path.join(root, 'none'), config, logger: pino({ level: 'silent' }), simulatedDealer: false });
    const bjSecret = readPeers(dirs.bj)?.peers.find((p) => p.enrolment.table === WAR)?.enrolment.secret ?? assert.fail('no secret');
    try {
      // The first start adopts the files as found, journalled; bj-1 is welcomed with its own secret.
      let war = await start();
      assert.equal(await dial(dirs, BJ, bjSecret), 'welcome');
      const adopted = [...entriesOfTypes(war.ledger, ['peer.credential'])].map(
        (e) => (JSON.parse(e.body) as EntryBody).payload as { table: string; action: string },
      );
      assert.deepEqual(
        adopted.map((p) => [p.table, p.action]),
        [[BJ, 'adopt']],
      );
      await war.close();

      // Stopped: the attacker enrols a table of its own, with a secret it chose, in both files…
      const credentials = PeerCredentials.inDataDir(dirs.war);
      const evilSecret = credentials.enrol(EVIL);
      const file = readPeers(dirs.war) ?? assert.fail('no peers.json');
      const bjPeer = file.peers[0] ?? assert.fail('no peer');
      writePeers(dirs.war, { ...file, peers: [...file.peers, { enrolment: { ...bjPeer.enrolment, table: EVIL }, stations: [103] }] });
      // …and swaps bj-1's credential for one it knows.
      const swapped = credentials.enrol(BJ);

      war = await start();
      try {
        assert.equal(await dial(dirs, EVIL, evilSecret), 'refused', 'a peer the journal does not know is not let in');
        assert.equal(await dial(dirs, BJ, swapped), 'refused', 'a swapped credential is not let in');
        assert.ok(
          war.floor.tilts.list().some((t) => t.kind === 'peer-integrity'),
          'raised as a fault',
        );
        assert.ok(!war.transfers?.links.has(EVIL), 'the added peer is not dialled');
      } finally {
        await war.close();
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
