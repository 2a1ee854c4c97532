// A hostile peer table (issue 34). A table host of the floor holds the secret another table
// enrolled it with; whoever holds it speaks the peer link exactly as that host does, and the
// transfer messages let it name any station, any amount, any currency, any id of its own. Here
// war-1 is a live table host with two peers: bac-1, the home of station 101, and bj-1, the home
// of station 102, which lies. Stations 103 and 104 are homed at war-1 itself. bj-1 may move
// credit for 102 (its own station) to war-1, and send home to war-1 the credit of a war-1
// station war-1 sent it; every other offer is a peer minting credit at war-1 for a station that
// is not its to move. Before: war-1 credited 101, 103, an unknown station and a seated number
// from bj-1's word alone, took a wrong currency without an alarm, and left an amount its ledger
// cannot hold unanswered (the append threw) for ever. Now each is refused (journalled, answered
// "never took it", so an honest sender reverses its debit) and raised as a security event
// (`transfer.alarm`, logged as the host's other peer alarms are).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import type WebSocket from 'ws';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { enrolFloor } from '../../host/peers/enrol-floor.js';
import { readPeers } from '../../host/peers/peer-config.js';
import { PeerCredentials } from '../../host/peers/peer-credentials.js';
import { pinnedPeerAgent, pinnedPeerSocket } from '../../host/peers/peer-link.js';
import { PeerListener } from '../../host/peers/peer-listener.js';
import { PEER_PROTOCOL_VERSION } from '../../host/peers/peer-wire.js';
import { createLanServer } from '../../host/server/lan-server.js';
import { tableCertificate } from '../../host/stadium/table-certificate.js';
import { startHost, type RunningHost } from '../../host/start-host.js';
import { billCredit } from '../../ledger/fixtures.js';
import { entriesOfTypes, verifyLedger, type EntryBody } from '../../ledger/index.js';
import { keyOf, TableId, type Transfer, type TransferId } from '../../terms/transfer-terms.js';
import { freePort } from '../../upstream/free-port.js';

const BAC = TableId.parse('bac-1');
const BJ = TableId.parse('bj-1');
const WAR = TableId.parse('war-1');
/** Homed at bac-1, the honest peer. */
const AT_BAC = 101;
/** Homed at bj-1, the liar: the only station whose credit bj-1 may move to war-1. */
const AT_BJ = 102;
/** Homed at war-1, never sent to bj-1. */
const AT_WAR = 103;
/** Homed at war-1, sent to bj-1 (so bj-1 may send it home). */
const SENT = 104;

const until = async (what: string, ok: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('a hostile peer table offers credit for stations that are not its to move', { timeout: 120_000 }, () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'peer-transfer-lies-'));
  const logs: { msg: string; reason?: string; link?: string }[] = [];
  let war: RunningHost;
  /** bj-1's side: war-1's answers, as they reach the listener bj-1 runs for war-1's link. */
  const answers: { kind: string; id?: TransferId; transfer?: Transfer; reason?: string }[] = [];
  let bjServer: Awaited<ReturnType<typeof createLanServer>>;
  let liar: WebSocket;
  let serial = 0;

  before(async () => {
    const ports = { bac: await freePort(), bj: await freePort(), war: await freePort() };
    const dirs = { bac: path.join(root, BAC), bj: path.join(root, BJ), war: path.join(root, WAR) };
    await enrolFloor(
      [
        { table: BAC, dataDir: dirs.bac, url: `https://127.0.0.1:${ports.bac}`, stations: [AT_BAC] },
        { table: BJ, dataDir: dirs.bj, url: `https://127.0.0.1:${ports.bj}`, stations: [AT_BJ] },
        { table: WAR, dataDir: dirs.war, url: `https://127.0.0.1:${ports.war}`, stations: [AT_WAR, SENT] },
      ],
      // A tick a minute: the alarm budget (20 a link between ticks) stays out of the way, and no open transfer is recalled.
      { tickMs: 60_000, recallAfterSeconds: 3600 },
    );
    const config = TableConfig.parse({ ...simulatedTableConfig('war'), tableId: WAR, remoteStations: 4, lan: { host: '127.0.0.1', port: ports.war } });
    war = await startHost({
      dataDir: dirs.war,
      rendererDir: path.join(root, 'no-renderer'),
      config,
      logger: pino({ level: 'warn' }, { write: (line: string) => void logs.push(JSON.parse(line)) }),
      simulatedDealer: false,
    });
    war.ledger.append(billCredit(SENT, 500, 'war-note-104'));

    // bj-1 as the liar runs it: its own listener (its certificate, the secret war-1 was enrolled with at bj-1), to hear war-1's answers…
    const bjListener = new PeerListener({
      self: BJ,
      credentials: PeerCredentials.inDataDir(dirs.bj),
      log: pino({ level: 'silent' }),
      onMessage: (_link, message) => answers.push(message as (typeof answers)[number]),
    });
    bjServer = await createLanServer(
      {
        log: pino({ level: 'silent' }),
        openSession: () => assert.fail('no screen here'),
        openDevice: () => assert.fail('no device here'),
        openPeer: (send, close) => bjListener.open(send, close),
        certificate: await tableCertificate(dirs.bj, BJ, ['127.0.0.1']),
        connections: { helloMs: 3_000, perAddress: 50, total: 100 },
      },
      '127.0.0.1',
      ports.bj,
    );
    // …and its link into war-1, with the secret war-1 enrolled bj-1 with, saying whatever the test makes it say.
    const toWar = readPeers(dirs.bj)?.peers.find((p) => p.enrolment.table === WAR)?.enrolment ?? assert.fail('bj-1 has no enrolment at war-1');
    liar = pinnedPeerSocket(toWar, pinnedPeerAgent(toWar));
    const welcomed = new Promise<void>((r) => liar.once('message', () => r()));
    liar.on('error', () => undefined);
    await new Promise<void>((r, j) => {
      liar.once('open', () => r());
      liar.once('error', j);
    });
    liar.send(JSON.stringify({ type: 'hello-peer', protocol: PEER_PROTOCOL_VERSION, table: BJ, secret: toWar.secret }));
    await welcomed;
    const transfers = war.transfers ?? assert.fail('war-1 runs no transfers');
    await until("war-1's link to bj-1 up", () => transfers.links.get(BJ)?.connected() === true);
  });

  after(async () => {
    liar?.terminate();
    await war?.close();
    await bjServer?.close();
    rmSync(root, { recursive: true, force: true });
  });

  const say = (message: unknown) => liar.send(JSON.stringify({ type: 'transfer', message }));
  const terms = (station: number, amount: number, over: Partial<Transfer> = {}): Transfer => ({
    id: { origin: BJ, serial: ++serial },
    currency: 'MOP',
    station,
    from: BJ,
    to: WAR,
    amount,
    ...over,
  });
  const payloads = (type: 'transfer.in' | 'transfer.refuse' | 'transfer.alarm') =>
    [...entriesOfTypes(war.ledger, [type])].map((e) => (JSON.parse(e.body) as EntryBody).payload as Record<string, unknown>);
  const refusalOf = (id: TransferId) => payloads('transfer.refuse').find((p) => keyOf(p.id as TransferId) === keyOf(id))?.reason;
  const alarmsAt = (id: TransferId) => payloads('transfer.alarm').filter((p) => p.link === BJ && p.id !== undefined && keyOf(p.id as TransferId) === keyOf(id));
  const logged = (reason: string) => logs.some((l) => l.msg.startsWith('transfer alarm') && l.reason === reason && l.link === BJ);

  // The first offer, taken: every lie is followed by it again, and war-1's answer to it (nothing journalled) says the lie before was handled.
  let honest: Transfer;
  const handled = async () => {
    const n = answers.length;
    say({ kind: 'offer', transfer: honest });
    await until('war-1 answered the sync offer', () =>
      answers.slice(n).some((a) => a.kind === 'taken' && keyOf(a.transfer?.id ?? honest.id) === keyOf(honest.id)),
    );
  };
  const answerTo = (id: TransferId) => answers.find((a) => keyOf(a.id ?? a.transfer?.id ?? { origin: WAR, serial: 1 }) === keyOf(id));

  /** What an offer war-1 must not take leaves: no credit, the refusal journalled and answered, a security event journalled and logged. */
  async function refusedAndAlarmed(t: Transfer, reason: string, what: string) {
    const credit = war.ledger.credit(t.station);
    say({ kind: 'offer', transfer: t });
    await handled();
    assert.equal(war.ledger.credit(t.station), credit, `${what}: nothing credited`);
    assert.equal(
      payloads('transfer.in').some((p) => keyOf((p.transfer as Transfer).id) === keyOf(t.id)),
      false,
      `${what}: no transfer.in`,
    );
    assert.equal(refusalOf(t.id), reason, `${what}: the refusal journalled (${JSON.stringify(payloads('transfer.refuse'))})`);
    assert.deepEqual(answerTo(t.id), { kind: 'refused', id: t.id, reason }, `${what}: answered "never took it"`);
    assert.deepEqual(
      alarmsAt(t.id).map((a) => a.reason),
      [reason],
      `${what}: one security event (${JSON.stringify(payloads('transfer.alarm'))})`,
    );
    assert.ok(logged(reason), `${what}: the alarm logged`);
  }

  it("takes bj-1's offer of its own station's credit (the control)", async () => {
    honest = terms(AT_BJ, 500);
    say({ kind: 'offer', transfer: honest });
    await until('the control taken', () => answers.some((a) => a.kind === 'taken'));
    assert.equal(war.ledger.credit(AT_BJ), 500);
  });

  it('refuses credit for a station homed at another peer', async () => {
    await refusedAndAlarmed(terms(AT_BAC, 1_000_000), 'homed-elsewhere', 'station 101, homed at bac-1');
  });

  it('refuses credit for a station homed here whose credit never went to bj-1 (a return of what it never had)', async () => {
    await refusedAndAlarmed(terms(AT_WAR, 1_000_000), 'never-sent-there', 'station 103, homed at war-1');
  });

  it('refuses credit for a station no table of the floor knows, and for a seated station (its number is every table’s own)', async () => {
    await refusedAndAlarmed(terms(349, 1_000_000), 'unknown-station', 'remote station 349, enrolled nowhere');
    await refusedAndAlarmed(terms(9999, 1_000_000), 'unknown-station', 'station 9999');
    await refusedAndAlarmed(terms(3, 1_000_000), 'unknown-station', 'seated station 3');
  });

  it('refuses a transfer in another currency, with an alarm', async () => {
    await refusedAndAlarmed(terms(AT_BJ, 500, { currency: 'HKD' }), 'wrong-currency', 'HKD on a MOP table');
  });

  it('refuses an amount the station’s credit cannot hold (past the largest safe integer), instead of failing the append for ever', async () => {
    await refusedAndAlarmed(terms(AT_BJ, Number.MAX_SAFE_INTEGER), 'over-limit', 'MAX_SAFE_INTEGER on a credit of 500');
  });

  it('credits nothing for a negative, zero, fractional, string or unsafe amount: malformed, an alarm, no decision', async () => {
    for (const amount of [-500, 0, 1.5, '500', 2 ** 53, null]) {
      const t = terms(AT_BJ, 1);
      const credit = war.ledger.credit(AT_BJ);
      const alarms = payloads('transfer.alarm').length;
      say({ kind: 'offer', transfer: { ...t, amount } });
      await handled();
      assert.equal(war.ledger.credit(AT_BJ), credit, `amount ${String(amount)}: nothing credited`);
      assert.equal(refusalOf(t.id), undefined, `amount ${String(amount)}: no decision journalled`);
      const raised = payloads('transfer.alarm').slice(alarms);
      assert.deepEqual(
        raised.map((a) => [a.link, a.reason]),
        [[BJ, 'malformed']],
        `amount ${String(amount)}`,
      );
    }
  });

  it('answers a taken id replayed for more with the terms taken, credits nothing more, and raises an alarm', async () => {
    const credit = war.ledger.credit(AT_BJ);
    say({ kind: 'offer', transfer: { ...honest, amount: 50_000 } });
    await handled();
    assert.equal(war.ledger.credit(AT_BJ), credit);
    assert.deepEqual(
      alarmsAt(honest.id).map((a) => a.reason),
      ['terms-changed'],
    );
  });

  it('answers a refused id replayed on other terms (the right currency now) with the refusal, credits nothing, and raises an alarm', async () => {
    const hkd = terms(AT_BJ, 700, { currency: 'HKD' });
    say({ kind: 'offer', transfer: hkd });
    await handled();
    const credit = war.ledger.credit(AT_BJ);
    const n = answers.length;
    say({ kind: 'offer', transfer: { ...hkd, currency: 'MOP', amount: 70_000 } });
    await handled();
    assert.equal(war.ledger.credit(AT_BJ), credit, 'nothing credited');
    assert.deepEqual(
      answers.slice(n).find((a) => a.kind === 'refused'),
      { kind: 'refused', id: hkd.id, reason: 'wrong-currency' },
    );
    assert.deepEqual(
      alarmsAt(hkd.id).map((a) => a.reason),
      ['wrong-currency', 'terms-changed'],
    );
  });

  it('a recall of an id it never offered spends the id and moves no money; a "never took it" for a transfer war-1 never sent is an alarm', async () => {
    // A recall whose offer never arrived is what an honest sender sends after a long cut: war-1
    // cannot tell the two apart, so it refuses the id for ever (journalled) and credits nothing.
    const never = terms(AT_BJ, 900);
    const credit = war.ledger.credit(AT_BJ);
    say({ kind: 'recall', id: never.id });
    await handled();
    assert.equal(refusalOf(never.id), 'recalled');
    say({ kind: 'offer', transfer: never });
    await handled();
    assert.equal(war.ledger.credit(AT_BJ), credit, 'the offer after the recall is refused');
    // The reverse way: bj-1 says it never took a transfer war-1 never sent it.
    const forged: TransferId = { origin: WAR, serial: 41 };
    say({ kind: 'refused', id: forged, reason: 'recalled' });
    await handled();
    assert.deepEqual(
      payloads('transfer.alarm')
        .filter((a) => a.id !== undefined && keyOf(a.id as TransferId) === keyOf(forged))
        .map((a) => a.reason),
      ['unknown-transfer'],
    );
    assert.equal(war.ledger.credit(AT_BJ), credit);
  });

  it('takes the credit of a war-1 station coming home from bj-1, once war-1 sent it there (the return stays open)', async () => {
    const transfers = war.transfers ?? assert.fail('no transfers');
    assert.equal(transfers.command(SENT, { name: 'move-credit', to: BJ, amount: 300 }).ok, true);
    await until('war-1 offered it to bj-1', () => answers.some((a) => a.kind === 'offer' && a.transfer?.station === SENT));
    const sent = answers.find((a) => a.kind === 'offer' && a.transfer?.station === SENT)?.transfer ?? assert.fail('no offer');
    say({ kind: 'taken', transfer: sent });
    const home = terms(SENT, 450);
    say({ kind: 'offer', transfer: home });
    await handled();
    assert.deepEqual(answerTo(home.id), { kind: 'taken', transfer: home });
    assert.equal(war.ledger.credit(SENT), 500 - 300 + 450);
    assert.deepEqual(alarmsAt(home.id), []);
  });

  it("war-1's ledger verifies, and bac-1 (honest, silent) was never named in an alarm", () => {
    assert.deepEqual(verifyLedger(war.ledger).problems, []);
    assert.deepEqual(
      payloads('transfer.alarm').filter((a) => a.link !== BJ),
      [],
    );
  });
});
