// Issue 50 item 4, "a two-person service action adds or removes a peer table": before, peers were
// enrolled only by writing `peers.json` and `peer-credentials.json` (the floor set-up, or whoever
// can write the data folder), adopted as found. Now a supervisor asks in service mode and a second
// person confirms; the change is journalled (`peer.credential`, both names, a digest, never a
// secret) before the files are written, and the files then pass the check at every transfer and at
// the next start (no `peer-integrity` fault). A removed peer's link is refused at once; an added
// one is dialled at once (before: from the next start), and both show on the service screen's Peers page.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { describe, it } from 'node:test';
import type WebSocket from 'ws';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { enrolFloor } from '../../host/peers/enrol-floor.js';
import { readPeers, type PeerEnrolment } from '../../host/peers/peer-config.js';
import { PeerCredentials } from '../../host/peers/peer-credentials.js';
import { makePeerOffer } from '../../host/peers/peer-offer.js';
import { readTableCertificate } from '../../host/stadium/table-certificate.js';
import { pinnedPeerAgent, pinnedPeerSocket } from '../../host/peers/peer-link.js';
import { PEER_PROTOCOL_VERSION } from '../../host/peers/peer-wire.js';
import type { RunningHost } from '../../host/start-host.js';
import { TableId } from '../../terms/transfer-terms.js';
import { realTimers } from '../../host/table/timers.js';
import { freePort } from '../../upstream/free-port.js';
import { folderWithAccounts, journalled, removeFolder, serviceScreen, signIn, startServiceHost, SUP, TECH, twoPerson } from './service-kit.js';

const BJ = TableId.parse('bj-1');
const WAR = TableId.parse('war-1');

/** Whether `table` dialling war-1 with `secret` is welcomed. */
async function welcomed(toWar: PeerEnrolment, table: TableId, secret: string): Promise<boolean> {
  const ws: WebSocket = pinnedPeerSocket(toWar, pinnedPeerAgent(toWar));
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
  const a = await answer;
  ws.terminate();
  return a;
}

describe('peer tables added and removed by two people in service mode (issue 50 item 4)', { timeout: 120_000 }, () => {
  it('removes bj-1 (its hello refused at once), adds it back from its enrolment file, journalled with both names and a digest; the next start raises no fault', async () => {
    const dir = await folderWithAccounts();
    const bjDir = path.join(dir, 'bj');
    const ports = { bj: await freePort(), war: await freePort() };
    await enrolFloor([
      { table: BJ, dataDir: bjDir, url: `https://127.0.0.1:${ports.bj}`, stations: [102] },
      { table: WAR, dataDir: dir, url: `https://127.0.0.1:${ports.war}`, stations: [103] },
    ]);
    const config = TableConfig.parse({ ...simulatedTableConfig('war'), tableId: WAR, remoteStations: 3, lan: { host: '127.0.0.1', port: ports.war } });
    const toWar = readPeers(bjDir)?.peers.find((p) => p.enrolment.table === WAR)?.enrolment ?? assert.fail('bj-1 has no enrolment at war-1');
    // What bj-1's host handed war-1 (its address, certificate, the secret it knows war-1 by), and the
    // enrolment file bj-1's service mode makes of it: signed with bj-1's key, for war-1 (host/peers/peer-offer.ts).
    const bjFile = readPeers(dir)?.peers.find((p) => p.enrolment.table === BJ)?.enrolment ?? assert.fail('war-1 has no enrolment of bj-1');
    const bjSigned = makePeerOffer({
      table: BJ,
      terminal: 'BJ-1',
      for: WAR,
      url: bjFile.url,
      certificate: readTableCertificate(bjDir) ?? assert.fail('bj-1 has no certificate'),
      secret: bjFile.secret,
      credential: randomBytes(16).toString('hex'),
      issuedAt: new Date(),
    });
    // bj-1's address, taken so war-1's dial can be seen arriving (bj-1's host does not run in this test).
    const bjPort = createServer();
    await new Promise<void>((r) => bjPort.listen(ports.bj, '127.0.0.1', r));
    let running: RunningHost | null = await startServiceHost(dir, realTimers, config);
    const faults = () => (running ?? assert.fail('stopped')).floor.tilts.list().filter((t) => t.kind === 'peer-integrity');
    const screen = await serviceScreen(running);
    try {
      assert.ok(await welcomed(toWar, BJ, toWar.secret), 'bj-1 is welcomed before');
      await signIn(screen, SUP);

      // One person cannot: the supervisor's own PIN as the second person is refused, nothing journalled.
      await screen.act({ name: 'service-action', action: { kind: 'peer-revoke', table: BJ } }, 'asked');
      const alone = await screen.act({ name: 'service-confirm', staff: SUP.staff, pin: SUP.pin }, 'confirmed by the same person');
      assert.notEqual(alone.state?.notice?.key, 'service.done.peerRevoke');
      await screen.send({ name: 'service-cancel' });
      assert.deepEqual(
        journalled(running, 'peer.credential').map((p) => p.action),
        ['adopt'],
      );

      assert.equal(await twoPerson(screen, { name: 'service-action', action: { kind: 'peer-revoke', table: BJ } }), 'service.done.peerRevoke');
      const revoked = journalled<{ table: string; action: string; by: string[] }>(running, 'peer.credential').at(-1);
      assert.equal(revoked?.action, 'revoke');
      assert.equal(revoked?.table, BJ);
      assert.ok(revoked?.by.length === 2 && revoked.by[0]?.includes(SUP.name) && revoked.by[1]?.includes(TECH.name), JSON.stringify(revoked));
      assert.equal(readPeers(dir)?.peers.length, 0, 'gone from peers.json');
      assert.equal(PeerCredentials.inDataDir(dir).secretSha256(BJ), null, 'gone from peer-credentials.json');
      assert.equal(await welcomed(toWar, BJ, toWar.secret), false, "bj-1's hello is refused at once");
      assert.equal(running.transfers?.links.has(BJ), false, 'war-1 no longer dials bj-1');
      assert.equal(running.transfers?.homeOf(102), WAR, "bj-1's station 102 is homed here once bj-1 is gone, as at a start without it");
      assert.deepEqual(faults(), [], 'files and journal agree: no fault');
      // The Peers page: bj-1 is gone from it.
      assert.equal((await screen.press({ name: 'service-page', page: 'peers' })).type, 'ack');
      await screen.until((x) => x.page?.page === 'peers' && x.page.transfers && x.page.peers.length === 0, 'the peers page without bj-1');

      // A file that is not an enrolment, an unsigned one, or one made by this table is refused: nothing journalled, nothing written
      // (host/peers/peer-offer.test.ts and tests/security/peer-enrolment-file.test.ts attack the signed file).
      const journalledBefore = journalled(running, 'peer.credential').length;
      for (const [enrolment, reason] of [
        ['{"table":"bj-1"}', 'not-a-file'],
        [JSON.stringify(bjFile), 'not-a-file'],
        [JSON.stringify({ ...JSON.parse(bjSigned), table: WAR }), 'certificate'],
      ] as const) {
        const key = await twoPerson(screen, { name: 'service-action', action: { kind: 'peer-add', enrolment, stations: [102] } });
        assert.equal(key, `service.peers.fileRefused.${reason}`, `refused: ${enrolment.slice(0, 40)}`);
      }
      assert.equal(readPeers(dir)?.peers.length, 0);
      assert.equal(journalled(running, 'peer.credential').length, journalledBefore);

      // bj-1's host is not running: whatever answers at its address sees war-1 dial at once.
      const dialled = new Promise<void>((r) => bjPort.once('connection', (socket) => (socket.destroy(), r())));
      const added = await twoPerson(screen, { name: 'service-action', action: { kind: 'peer-add', enrolment: bjSigned, stations: [102] } });
      assert.equal(added, 'service.done.peerAdd');
      // Dialled at once (before: only from the next start), station 102 homed there again.
      assert.equal(running.transfers?.links.has(BJ), true, 'war-1 dials bj-1 at once');
      await dialled;
      assert.equal(running.transfers?.homeOf(102), BJ);
      const listed = await screen.until((x) => x.page?.page === 'peers' && x.page.peers.some((p) => p.table === BJ), 'bj-1 on the peers page');
      assert.deepEqual(listed.page?.page === 'peers' ? listed.page.peers : null, [
        { table: BJ, url: bjFile.url, fingerprint: bjFile.fingerprint, stations: [102], dialsIn: false, linkOut: false, linkIn: false, problem: null },
      ]);
      const enrolled = journalled<{ table: string; action: string; by: string[]; digest?: string }>(running, 'peer.credential').at(-1);
      assert.equal(enrolled?.action, 'enrol');
      assert.match(enrolled?.digest ?? '', /^[0-9a-f]{64}$/);
      assert.equal(enrolled?.by.length, 2);
      assert.deepEqual(
        readPeers(dir)?.peers.map((p) => [p.enrolment.table, p.stations]),
        [[BJ, [102]]],
      );
      const ledgerText = readFileSync(running.ledger.file).toString('latin1');
      assert.ok(!ledgerText.includes(bjFile.secret), 'the secret is never journalled');
      assert.deepEqual(faults(), [], 'no fault while it runs');
    } finally {
      await screen.close();
      await running?.close();
      bjPort.close();
    }
    // The next start: the files are what the two people journalled; bj-1 is dialled, nothing raised.
    running = await startServiceHost(dir, realTimers, config);
    try {
      assert.deepEqual(faults(), [], 'no peer-integrity fault at the next start');
      assert.equal(running.transfers?.links.has(BJ), true, 'bj-1 dialled again');
    } finally {
      await running.close();
      removeFolder(dir);
    }
  });
});
