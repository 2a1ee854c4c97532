// Issue 50 item 4: peers are enrolled from an enrolment file, but nothing in the kiosk made one
// (only the floor set-up of the tests wrote `peers.json`). Here two live tables make each other's
// files in service mode (two people each, journalled, the file downloaded once by the session that
// asked) and enrol each other from them; a station's credit then moves from war-1 to bj-1. Before
// the honest file is taken, bj-1 is handed a forged, an altered and an expired file, and after it
// the same file again (a replay): each is refused with its reason, nothing journalled or written.
// Then war-1 withdraws bj-1's credential: bj-1's link into war-1 closes and does not come back.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { readPeers, writePeers } from '../../host/peers/peer-config.js';
import { PeerCredentials } from '../../host/peers/peer-credentials.js';
import { makePeerOffer, PeerOffer } from '../../host/peers/peer-offer.js';
import type { RunningHost } from '../../host/start-host.js';
import { readTableCertificate } from '../../host/stadium/table-certificate.js';
import { realTimers } from '../../host/table/timers.js';
import { billCredit } from '../../ledger/fixtures.js';
import { TableId } from '../../terms/transfer-terms.js';
import { freePort } from '../../upstream/free-port.js';
import { folderWithAccounts, journalled, removeFolder, serviceScreen, signIn, startServiceHost, SUP, TECH, type ServiceScreen } from './service-kit.js';

const WAR = TableId.parse('war-1');
const BJ = TableId.parse('bj-1');
/** Homed at war-1: its credit moves to bj-1. */
const AT_WAR = 103;
/** Homed at bj-1. */
const AT_BJ = 102;

const until = async (what: string, ok: () => boolean, ms = 15_000) => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

type Table = { dir: string; host: RunningHost; screen: ServiceScreen };

/** A two-person action on `screen`: the supervisor asks, the technician confirms on the same pad; the outcome's notice key. */
async function twoPerson(
  screen: ServiceScreen,
  action: Extract<Parameters<ServiceScreen['send']>[0], { name: 'service-action' }>['action'],
): Promise<string | undefined> {
  const started = await screen.act({ name: 'service-action', action }, `${action.kind} asked`);
  assert.ok(started.state?.confirm, `${action.kind} waits for a second person (${JSON.stringify(started.state?.notice)})`);
  const done = await screen.act({ name: 'service-confirm', staff: TECH.staff, pin: TECH.pin }, `${action.kind} confirmed`);
  return done.state?.notice?.key;
}

/** This table's enrolment file for `peer`, as its session downloads it with its export token. */
async function download(t: Table, peer: string): Promise<{ status: number; body: string }> {
  const token = t.screen.state()?.session?.exportToken;
  assert.ok(token, 'signed in');
  const res = await fetch(`${t.host.origin}/service/export/peer-enrolment/${peer}?t=${encodeURIComponent(token)}`);
  return { status: res.status, body: await res.text() };
}

describe('a table makes its enrolment file for a peer; the peer enrols it from it (issue 50 item 4)', { timeout: 120_000 }, () => {
  const tables = new Map<TableId, Table>();
  const get = (t: TableId) => tables.get(t) ?? assert.fail(`${t} is not running`);

  before(async () => {
    const ports = { [WAR]: await freePort(), [BJ]: await freePort() };
    for (const table of [WAR, BJ]) {
      // Two people only: fewer PIN hashes to make (each an scrypt).
      const dir = await folderWithAccounts([SUP, TECH]);
      // No peer yet, but transfers carried (a folder with no peers.json links an added peer only from its next start).
      writePeers(dir, { v: 1, peers: [], tickMs: 200 });
      const config = TableConfig.parse({ ...simulatedTableConfig('war'), tableId: table, remoteStations: 3, lan: { host: '127.0.0.1', port: ports[table] } });
      const host = await startServiceHost(dir, realTimers, config);
      const screen = await serviceScreen(host);
      await signIn(screen, SUP);
      tables.set(table, { dir, host, screen });
    }
  });
  after(async () => {
    for (const t of tables.values()) {
      await t.screen.close();
      await t.host.close();
      removeFolder(t.dir);
    }
  });

  let warFile = '';

  it('war-1 makes its file for bj-1: two people, journalled without the secret, downloaded once by the session that asked', async () => {
    const war = get(WAR);
    assert.equal(await twoPerson(war.screen, { kind: 'peer-issue', table: BJ }), 'service.done.peerIssue');
    const issued = journalled<{ table: string; action: string; by: string[]; credential?: string; digest?: string }>(war.host, 'peer.credential').at(-1);
    assert.equal(issued?.action, 'issue');
    assert.equal(issued?.table, BJ);
    assert.ok(issued?.by[0]?.includes(SUP.name) && issued.by[1]?.includes(TECH.name), JSON.stringify(issued));
    const got = await download(war, BJ);
    assert.equal(got.status, 200, got.body);
    warFile = got.body;
    const offer = PeerOffer.parse(JSON.parse(warFile));
    assert.equal(offer.table, WAR);
    assert.equal(offer.for, BJ);
    assert.equal(offer.terminal, war.host.ledger.terminalId);
    assert.equal(offer.credential, issued?.credential);
    assert.equal(offer.fingerprint, readTableCertificate(war.dir)?.fingerprint);
    assert.equal((await download(war, BJ)).status, 403, 'given once');
    // Kept only hashed: neither the journal nor any file of the folder holds the secret.
    assert.ok(PeerCredentials.inDataDir(war.dir).verify(BJ, offer.secret), 'war-1 lets bj-1 in with it');
    assert.ok(!readFileSync(war.host.ledger.file).toString('latin1').includes(offer.secret), 'never journalled');
    assert.ok(!readFileSync(path.join(war.dir, 'peer-credentials.json'), 'utf8').includes(offer.secret));
    assert.deepEqual(
      journalled<{ action: string }>(war.host, 'service.action')
        .map((a) => a.action)
        .filter((a) => a.startsWith('peer-file')),
      ['peer-file-download', 'peer-file-refused'],
    );
    assert.deepEqual(
      war.host.floor.tilts.list().filter((t) => t.kind === 'peer-integrity'),
      [],
      'the files are as journalled',
    );
  });

  it('bj-1 refuses a forged, an altered and an expired file with the reason, nothing journalled or written; then takes the real one once', async () => {
    const bj = get(BJ);
    const offer = PeerOffer.parse(JSON.parse(warFile));
    const peersBefore = readFileSync(path.join(bj.dir, 'peers.json'), 'utf8');
    const entriesBefore = journalled(bj.host, 'peer.credential').length;
    const warCert = readTableCertificate(get(WAR).dir) ?? assert.fail('no certificate');
    const attacks: [string, string, string][] = [
      // Forged: the older unsigned form, with an address and secret of the attacker's choosing.
      [
        'forged',
        JSON.stringify({ table: WAR, url: 'https://127.0.0.1:9', certificate: offer.certificate, fingerprint: offer.fingerprint, secret: 'A'.repeat(43) }),
        'not-a-file',
      ],
      // Altered: the address changed to the attacker's host, the signature kept.
      ['altered', JSON.stringify({ ...offer, url: 'https://127.0.0.1:9' }), 'signature'],
      // Expired: a file war-1's key made two days ago (kept too long on a USB key).
      [
        'expired',
        makePeerOffer({
          table: WAR,
          terminal: offer.terminal,
          for: BJ,
          url: offer.url,
          certificate: warCert,
          secret: randomBytes(32).toString('base64url'),
          credential: randomBytes(16).toString('hex'),
          issuedAt: new Date(Date.now() - 48 * 3600_000),
        }),
        'expired',
      ],
    ];
    for (const [what, text, reason] of attacks) {
      const key = await twoPerson(bj.screen, { kind: 'peer-add', enrolment: text, stations: [AT_WAR] });
      assert.equal(key, `service.peers.fileRefused.${reason}`, what);
    }
    assert.equal(journalled(bj.host, 'peer.credential').length, entriesBefore, 'nothing journalled');
    assert.equal(readFileSync(path.join(bj.dir, 'peers.json'), 'utf8'), peersBefore, 'nothing written');

    assert.equal(await twoPerson(bj.screen, { kind: 'peer-add', enrolment: warFile, stations: [AT_WAR] }), 'service.done.peerAdd');
    const enrolled = journalled<{ action: string; credential?: string }>(bj.host, 'peer.credential').at(-1);
    assert.equal(enrolled?.action, 'enrol');
    assert.equal(enrolled?.credential, offer.credential, "the same credential id as war-1's issue: the upstream pairs them");
    // bj-1 dials war-1 with the file's secret at once: war-1 sees its link in.
    await until("bj-1's link into war-1", () => get(WAR).host.transfers?.linkState(BJ).in === true);

    // The same file again (a replay): refused, nothing journalled.
    const count = journalled(bj.host, 'peer.credential').length;
    assert.equal(await twoPerson(bj.screen, { kind: 'peer-add', enrolment: warFile, stations: [AT_WAR] }), 'service.peers.fileRefused.replayed');
    assert.equal(journalled(bj.host, 'peer.credential').length, count);
  });

  it("bj-1 makes its file for war-1, war-1 enrols it, and a station's credit moves from war-1 to bj-1", async () => {
    const war = get(WAR);
    const bj = get(BJ);
    assert.equal(await twoPerson(bj.screen, { kind: 'peer-issue', table: WAR }), 'service.done.peerIssue');
    const bjFile = await download(bj, WAR);
    assert.equal(bjFile.status, 200);
    assert.equal(await twoPerson(war.screen, { kind: 'peer-add', enrolment: bjFile.body, stations: [AT_BJ] }), 'service.done.peerAdd');
    await until('both links up', () => war.host.transfers?.linkState(BJ).out === true && bj.host.transfers?.linkState(WAR).out === true);
    war.host.ledger.append(billCredit(AT_WAR, 500, 'note-peer-file'));
    const out = (war.host.transfers ?? assert.fail('no transfers')).command(AT_WAR, { name: 'move-credit', to: BJ, amount: 100 });
    assert.ok(out.ok, JSON.stringify(out));
    await until('the credit at bj-1', () => bj.host.ledger.credit(AT_WAR) === 100);
    assert.equal(war.host.ledger.credit(AT_WAR), 400);
    for (const t of [war, bj])
      assert.deepEqual(
        t.host.floor.tilts.list().filter((x) => x.kind === 'peer-integrity'),
        [],
      );
  });

  it("war-1 withdraws bj-1's credential: bj-1's link in closes at once and is not let in again; journalled", async () => {
    const war = get(WAR);
    assert.equal(await twoPerson(war.screen, { kind: 'peer-withdraw', table: BJ }), 'service.done.peerWithdraw');
    const withdrawn = journalled<{ action: string; by: string[] }>(war.host, 'peer.credential').at(-1);
    assert.equal(withdrawn?.action, 'withdraw');
    assert.equal(withdrawn?.by.length, 2);
    assert.equal(PeerCredentials.inDataDir(war.dir).secretSha256(BJ), null);
    await until("bj-1's link in closed", () => war.host.transfers?.linkState(BJ).in === false);
    // bj-1 keeps dialling with the old secret (its link redials): never let in again.
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(war.host.transfers?.linkState(BJ).in, false);
    assert.deepEqual(
      war.host.floor.tilts.list().filter((x) => x.kind === 'peer-integrity'),
      [],
      'the files are as journalled',
    );
    assert.deepEqual(
      readPeers(war.dir)?.peers.map((p) => p.enrolment.table),
      [BJ],
      "war-1's own link to bj-1 stays enrolled",
    );
  });
});
