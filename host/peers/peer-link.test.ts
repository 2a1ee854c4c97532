import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import type WebSocket from 'ws';
import { billCredit } from '../../ledger/fixtures.js';
import { entriesOfTypes, Ledger } from '../../ledger/index.js';
import { TableId, type Transfer } from '../../terms/transfer-terms.js';
import { createLanServer } from '../server/lan-server.js';
import { tableCertificate, type TableCertificate } from '../stadium/table-certificate.js';
import { LedgerTransferJournal } from '../transfers/ledger-journal.js';
import { TransferHost } from '../transfers/transfer-host.js';
import type { PeerEnrolment } from './peer-config.js';
import { PeerCredentials } from './peer-credentials.js';
import { PEER_LIMITS, PeerListener } from './peer-listener.js';
import { PeerLink, pinnedPeerAgent, pinnedPeerSocket } from './peer-link.js';
import { PEER_PROTOCOL_VERSION } from './peer-wire.js';

// The link between two table hosts, attacked from the dialling side: every way a peer can lie
// about who it is or what it sends is refused at the link, logged, and reaches neither the
// transfers nor the ledger. The honest peer's offer, over the same listener, is credited once.

const WAR = TableId.parse('war');
const HOME = TableId.parse('home');
const BACCARAT = TableId.parse('baccarat');
const STATION = 101;

const until = async (what: string, ok: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('the link between two table hosts (issue 34)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'peer-link-'));
  const logs: { msg: string; refused?: string; peer?: string }[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
  let ledger: Ledger;
  let host: TransferHost;
  let listener: PeerListener;
  let certificate: TableCertificate;
  let lan: Awaited<ReturnType<typeof createLanServer>>;
  let other: Awaited<ReturnType<typeof createLanServer>>;
  const credentials = new PeerCredentials(path.join(dir, 'peer-credentials.json'));
  const secrets = new Map<TableId, string>();
  const received: { link: TableId; message: unknown }[] = [];
  let enrolment: PeerEnrolment;

  const serve = (self: TableId, l: PeerListener) =>
    createLanServer(
      {
        log,
        openSession: () => assert.fail('no screen here'),
        openDevice: () => assert.fail('no device here'),
        openPeer: (send, close) => l.open(send, close),
        certificate,
        connections: { helloMs: 3_000, perAddress: 50, total: 100 },
      },
      '127.0.0.1',
      0,
    );

  before(async () => {
    ledger = Ledger.open({ dataDir: path.join(dir, 'war'), terminalId: 'war' });
    ledger.append(billCredit(STATION, 100, 'war-b1'));
    host = new TransferHost({
      self: WAR,
      currency: 'MOP',
      homes: { [STATION]: HOME },
      journal: new LedgerTransferJournal(ledger),
      send: () => undefined,
      alarm: () => undefined,
    });
    listener = new PeerListener({
      self: WAR,
      credentials,
      log,
      // A table whose files are not the journal's: refused before its secret is looked at.
      admits: (table) => table !== 'blackjack',
      onMessage: (link, message) => {
        received.push({ link, message });
        host.receive(link, message);
      },
    });
    secrets.set(HOME, credentials.enrol(HOME));
    secrets.set(BACCARAT, credentials.enrol(BACCARAT));
    certificate = await tableCertificate(path.join(dir, 'war'), WAR, ['127.0.0.1']);
    lan = await serve(WAR, listener);
    // The same certificate, but a host that says it is another table.
    other = await serve(BACCARAT, new PeerListener({ self: BACCARAT, credentials, log, onMessage: () => assert.fail('nothing reaches it') }));
    enrolment = {
      table: WAR,
      url: `https://127.0.0.1:${lan.port}`,
      certificate: certificate.cert,
      fingerprint: certificate.fingerprint,
      secret: secrets.get(HOME) ?? '',
    };
  });

  after(async () => {
    await lan.close();
    await other.close();
    ledger.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const offer = (amount: number, serial: number): { kind: 'offer'; transfer: Transfer } => ({
    kind: 'offer',
    transfer: { id: { origin: HOME, serial }, currency: 'MOP', station: STATION, from: HOME, to: WAR, amount },
  });
  const transferEntries = () => [...entriesOfTypes(ledger, ['transfer.in', 'transfer.refuse', 'transfer.alarm', 'transfer.out'])].length;

  /** A raw socket to war's listener (its certificate pinned), that says whatever the test makes it say. */
  const raw = async (): Promise<{ ws: WebSocket; closed: Promise<number>; reason: Promise<string>; frames: string[] }> => {
    const ws = pinnedPeerSocket(enrolment, pinnedPeerAgent(enrolment));
    const frames: string[] = [];
    ws.on('message', (d) => frames.push(String(d)));
    const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
    const reason = new Promise<string>((r) => ws.on('close', (_code, why) => r(String(why))));
    ws.on('error', () => undefined);
    await new Promise<void>((r, j) => {
      ws.once('open', () => r());
      ws.once('error', j);
    });
    return { ws, closed, reason, frames };
  };
  const refusedCount = (why: string) => listener.refused.get(why as never) ?? 0;

  it("carries an honest peer's offer to the transfers, which credit the station once", async () => {
    const link = new PeerLink({ self: HOME, peer: enrolment, log });
    link.start();
    await until('the link up', () => link.connected());
    const credit = ledger.credit(STATION);
    for (let i = 0; i < 3; i++) assert.equal(link.send(offer(2_500, 1)), true);
    await until('the offer taken', () => received.length === 3);
    assert.deepEqual(
      received.map((r) => r.link),
      [HOME, HOME, HOME],
    );
    assert.equal(ledger.credit(STATION), credit + 2_500);
    link.stop();
  });

  it('refuses a peer with a wrong secret, one claiming another table, one whose files are refused, and one claiming to be this table', async () => {
    const before = { entries: transferEntries(), credit: ledger.credit(STATION), received: received.length };
    for (const [table, secret, why] of [
      [HOME, randomBytes(32).toString('base64url'), 'wrong-secret'],
      // Home's own secret, naming baccarat: a secret is one table's.
      [BACCARAT, secrets.get(HOME), 'wrong-secret'],
      [TableId.parse('blackjack'), secrets.get(HOME), 'not-journalled'],
      [WAR, secrets.get(HOME), 'is-self'],
    ] as const) {
      const was = refusedCount(why);
      const { ws, closed, reason } = await raw();
      ws.send(JSON.stringify({ type: 'hello-peer', protocol: PEER_PROTOCOL_VERSION, table, secret }));
      ws.send(JSON.stringify({ type: 'transfer', message: offer(9_000, 2) }));
      assert.equal(await closed, 4401);
      // One word on the wire for every refused hello: a stranger does not learn which tables this host refuses (a review).
      assert.equal(await reason, 'unauthorized', why);
      assert.equal(refusedCount(why), was + 1, why);
    }
    assert.ok(logs.some((l) => l.msg === 'peer link refused' && l.refused === 'wrong-secret'));
    assert.deepEqual({ entries: transferEntries(), credit: ledger.credit(STATION), received: received.length }, before);
  });

  it('refuses malformed frames before and after the hello, and a second hello', async () => {
    const before = { entries: transferEntries(), credit: ledger.credit(STATION), received: received.length };
    const hello = JSON.stringify({ type: 'hello-peer', protocol: PEER_PROTOCOL_VERSION, table: HOME, secret: secrets.get(HOME) });
    const cases: [string, string[], string | Buffer, string][] = [
      ['a transfer before any hello', [], JSON.stringify({ type: 'transfer', message: offer(9_000, 3) }), 'not-hello'],
      ['not JSON', [], '{"type":"hello-peer",', 'not-hello'],
      [
        'a hello with an extra field',
        [],
        JSON.stringify({ type: 'hello-peer', protocol: PEER_PROTOCOL_VERSION, table: HOME, secret: secrets.get(HOME), as: 'war' }),
        'not-hello',
      ],
      [
        'a hello of a later protocol',
        [],
        JSON.stringify({ type: 'hello-peer', protocol: PEER_PROTOCOL_VERSION + 1, table: HOME, secret: secrets.get(HOME) }),
        'wrong-protocol',
      ],
      // A table of the build before the credit limit reads a `credit-limit` refusal as malformed and
      // never reverses its debit (a review of 2 December): it is not linked at all.
      [
        'a table that does not know the credit-limit refusal (protocol 1)',
        [],
        JSON.stringify({ type: 'hello-peer', protocol: 1, table: HOME, secret: secrets.get(HOME) }),
        'wrong-protocol',
      ],
      ['a binary frame', [hello], Buffer.from(JSON.stringify({ type: 'transfer', message: offer(9_000, 3) })), 'binary'],
      ['an unknown frame', [hello], JSON.stringify({ type: 'credit', station: STATION, amount: 9_000 }), 'malformed'],
      ['a frame over the size limit', [hello], JSON.stringify({ type: 'transfer', message: offer(9_000, 3), pad: 'x'.repeat(20_000) }), 'malformed'],
      ['a second hello', [hello], hello, 'malformed'],
    ];
    for (const [what, first, frame, why] of cases) {
      const was = refusedCount(why);
      const { ws, closed, frames } = await raw();
      for (const f of first) ws.send(f);
      if (first.length) await until(`the welcome (${what})`, () => frames.length === 1);
      ws.send(frame);
      ws.send(JSON.stringify({ type: 'transfer', message: offer(9_000, 4) }));
      const code = await closed;
      assert.ok(code === 1008 || code === 1003 || code === 1009, `${what}: closed ${code}`);
      if (code !== 1009) assert.equal(refusedCount(why), was + 1, what);
    }
    assert.deepEqual({ entries: transferEntries(), credit: ledger.credit(STATION), received: received.length }, before);
  });

  it('closes a flood at its rate and journals nothing of it', async () => {
    const before = { entries: transferEntries(), credit: ledger.credit(STATION) };
    const was = refusedCount('rate');
    const { ws, closed, frames } = await raw();
    ws.send(JSON.stringify({ type: 'hello-peer', protocol: PEER_PROTOCOL_VERSION, table: HOME, secret: secrets.get(HOME) }));
    await until('the welcome', () => frames.length === 1);
    const receivedBefore = received.length;
    // An offer already taken, asked again and again: answered from the journal, nothing journalled.
    const frame = JSON.stringify({ type: 'transfer', message: offer(2_500, 1) });
    const start = performance.now();
    for (let i = 0; i < PEER_LIMITS.burst * 3; i++) ws.send(frame);
    await closed;
    const seconds = (performance.now() - start) / 1000;
    assert.equal(refusedCount('rate'), was + 1);
    // The burst, and what the bucket refilled while the frames came in: never the whole flood.
    const passed = received.length - receivedBefore;
    assert.ok(passed <= PEER_LIMITS.burst + PEER_LIMITS.perSecond * seconds + 1, `${passed} messages passed in ${seconds} s`);
    assert.ok(passed < PEER_LIMITS.burst * 2, `${passed} messages passed`);
    assert.deepEqual({ entries: transferEntries(), credit: ledger.credit(STATION) }, before);
  });

  it('never links to a host whose certificate is not the pinned one, nor one that says it is another table', async () => {
    const stranger = await tableCertificate(path.join(dir, 'stranger'), BACCARAT, ['127.0.0.1']);
    const forged = new PeerLink({ self: HOME, peer: { ...enrolment, certificate: stranger.cert, fingerprint: stranger.fingerprint }, log });
    const wrongName = new PeerLink({ self: HOME, peer: { ...enrolment, url: `https://127.0.0.1:${other.port}` }, log });
    forged.start();
    wrongName.start();
    await until('both dialled twice', () => forged.counts.dials >= 2 && wrongName.counts.dials >= 2);
    assert.equal(forged.connected(), false);
    assert.equal(wrongName.connected(), false);
    assert.equal(forged.send(offer(1, 9)), false);
    assert.equal(wrongName.send(offer(1, 9)), false);
    assert.ok(logs.some((l) => l.msg === 'a peer table answered otherwise than its enrolment: link dropped'));
    forged.stop();
    wrongName.stop();
  });

  it('dials again after a cut, and a new link from the same table replaces the old one', async () => {
    const link = new PeerLink({ self: HOME, peer: enrolment, log });
    link.start();
    await until('the link up', () => link.connected());
    link.cut();
    await until('the link down', () => !link.connected());
    await until('the link up again', () => link.connected());
    assert.ok(listener.connected(HOME));
    const second = new PeerLink({ self: HOME, peer: enrolment, log });
    second.start();
    await until('the second up', () => second.connected());
    // The first was closed as replaced; it dials again and in turn replaces the second.
    await until('the first up again', () => link.connected() && link.counts.dials >= 3);
    link.stop();
    second.stop();
  });
});
