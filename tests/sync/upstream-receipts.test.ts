// Issue 29 item 4: the upstream as the kiosk's remote witness. Each acknowledgement carries the
// service's Ed25519 receipt over the head it now holds; the kiosk keeps the newest and every
// verification checks the journal against it; `etg ledger verify --upstream URL` asks the upstream
// itself. The attacker of tests/security (every file of the data folder, the ledger's own code)
// re-forges the journal: refused against the receipt kept, and against the upstream asked even
// once the kept receipt is deleted. A hostile upstream's receipt (another key, another head) is an
// alarm and is not kept. Failed on main: acknowledgements carried no receipt, and the re-forge verified.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { generateKeyPairSync, sign } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  credentialsFile,
  Ledger,
  openLedger,
  RECEIPT_FILE,
  receiptSigned,
  receiptStatement as kioskStatement,
  startLedgerSync,
  SyncClient,
  type Credentials,
} from '../../ledger/index.js';
import { billCredit, settledRound } from '../../ledger/fixtures.js';
import { enrolTerminal, receiptStatement as serviceStatement, startUpstream, type RunningUpstream } from '../../upstream/index.js';
import { dropNewest, reforge } from '../security/attacker-kit.js';

const root = mkdtempSync(path.join(tmpdir(), 'upstream-receipts-'));
let upstream: RunningUpstream;
before(async () => {
  upstream = await startUpstream({});
});
after(async () => {
  await upstream.close();
  rmSync(root, { recursive: true, force: true });
});

/** A kiosk's data folder enrolled at the upstream, with a journal synced up to its head. */
async function syncedFolder(terminal: string): Promise<{ dir: string; credentials: Credentials }> {
  const dir = path.join(root, terminal);
  const enrolled = await enrolTerminal(upstream.db, terminal);
  const credentials: Credentials = { ...enrolled, upstream: upstream.url };
  const ledger = openLedger(dir, terminal);
  writeFileSync(credentialsFile(dir), JSON.stringify(credentials), { mode: 0o600 });
  ledger.append({ type: 'bill.escrow', payload: { station: 3, device: 'ba-3', denomination: 10_000, currency: 'HKD' } });
  ledger.append(billCredit(3, 10_000, `${terminal}-note`));
  for (const s of [1, 2]) ledger.append(billCredit(s, 50_000, `${terminal}-note-${s}`));
  for (let i = 0; i < 3; i++) {
    const { bets, settle } = settledRound(`${terminal}-r${i}`, [1, 2, 3], 100, i);
    ledger.appendMany([...bets, settle]);
  }
  const sync = startLedgerSync({ ledger, terminalId: terminal, dataDir: dir, upstream: upstream.url });
  for (let i = 0; i < 200 && sync.status().lagEntries > 0; i++) await new Promise((r) => setTimeout(r, 25));
  assert.equal(sync.status().lagEntries, 0, 'synced');
  await sync.stop();
  ledger.close();
  return { dir, credentials };
}

function verify(dir: string, ...args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/etg.js', 'ledger', 'verify', '--data-dir', dir, ...args],
      { encoding: 'utf8', env: { ...process.env, ETG_WITNESS_SOCKET: '' } },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, out: stdout + stderr }),
    );
  });
}

const noteTo1000 = (e: { type: string }, p: Record<string, unknown>) =>
  (e.type === 'bill.escrow' || e.type === 'bill.credit') && p.denomination === 10_000 ? { ...p, denomination: 100_000 } : p;

describe('the upstream as remote witness: receipts', { timeout: 120_000 }, () => {
  it('the service and the kiosk sign and check the same statement', () => {
    const h = 'ab'.repeat(32);
    assert.equal(kioskStatement('T', 7, h, '2026-01-01T00:00:00.000Z'), serviceStatement('T', 7, h, '2026-01-01T00:00:00.000Z'));
  });

  it('each acknowledgement carries a receipt of the head the upstream holds; the kiosk keeps the newest and verify checks against it', async () => {
    const { dir, credentials } = await syncedFolder('RC-1');
    const kept = JSON.parse(readFileSync(path.join(dir, RECEIPT_FILE), 'utf8')) as { seq: number; hash: string; at: string; signature: string };
    const l = Ledger.open({ dataDir: dir, terminalId: 'RC-1', tailCheck: false });
    assert.equal(kept.seq, l.headOf().seq);
    assert.equal(kept.hash, l.headOf().hash);
    l.close();
    assert.ok(credentials.receiptKey && receiptSigned(credentials.receiptKey, 'RC-1', kept), 'signed by the key the enrolment gave');
    assert.ok(!receiptSigned(credentials.receiptKey, 'RC-2', kept), "not another terminal's");
    for (const args of [[], ['--upstream', upstream.url]]) {
      const r = await verify(dir, ...args);
      assert.equal(r.code, 0, r.out);
      assert.match(r.out, /checked: the journal against the upstream's receipt/, r.out);
    }
  });

  it('a re-forged journal is refused against the receipt kept, and against the upstream asked (even with the receipt deleted)', async () => {
    const { dir } = await syncedFolder('RC-3');
    reforge(dir, noteTo1000);
    const kept = await verify(dir);
    assert.equal(kept.code, 1, kept.out);
    assert.match(kept.out, /MISMATCH: upstream receipt \(kept here\): entry \d+ of the journal is not the one the upstream acknowledged/, kept.out);
    rmSync(path.join(dir, RECEIPT_FILE));
    assert.equal((await verify(dir)).code, 0, 'the receipt deleted and no witness: the data folder alone no longer shows it (docs/security.md)');
    const asked = await verify(dir, '--upstream', upstream.url);
    assert.equal(asked.code, 1, asked.out);
    assert.match(asked.out, /MISMATCH: upstream receipt \(asked of http:\/\/127\.0\.0\.1:\d+\): entry \d+ of the journal is not the one/, asked.out);
  });

  it('entries the upstream acknowledged, gone from the journal: refused', async () => {
    const { dir } = await syncedFolder('RC-4');
    dropNewest(dir, 3);
    for (const args of [[], ['--upstream', upstream.url]]) {
      const r = await verify(dir, ...args);
      assert.equal(r.code, 1, r.out);
      assert.match(r.out, /upstream receipt .*: the journal ends at entry \d+, but the upstream acknowledged entry \d+/, r.out);
    }
  });

  it('an unanswered upstream is a failure of verify --upstream, not a pass', async () => {
    const { dir } = await syncedFolder('RC-5');
    const r = await verify(dir, '--upstream', 'http://127.0.0.1:9');
    assert.equal(r.code, 1, r.out);
    assert.match(r.out, /upstream: .*the journal was not checked against it/, r.out);
  });

  it("a hostile upstream's receipt (another key, another head) is an alarm and is not kept; the acknowledgement still counts", async () => {
    const enrolled = await enrolTerminal(upstream.db, 'RC-6');
    const dir = path.join(root, 'RC-6');
    const ledger = openLedger(dir, 'RC-6');
    const other = generateKeyPairSync('ed25519').privateKey;
    for (const kind of ['another key', 'another head'] as const) {
      ledger.append(billCredit(1, 10_000, `rc6-${kind.replace(' ', '-')}`));
      const head = ledger.headOf();
      const at = new Date().toISOString();
      const seq = kind === 'another head' ? head.seq - 1 : head.seq;
      const receipt = { seq, hash: head.hash, at, signature: sign(null, Buffer.from(kioskStatement('RC-6', seq, head.hash, at)), other).toString('base64') };
      const alarms: string[] = [];
      const fake: typeof fetch = async () =>
        new Response(JSON.stringify({ ackedSeq: head.seq, headHash: head.hash, inserted: 1, duplicates: 0, receipt }), { status: 200 });
      const c = new SyncClient(ledger, {
        url: 'http://127.0.0.1:1',
        credentials: enrolled,
        fetch: fake,
        receiptsDir: dir,
        onAlarm: (a) => alarms.push(`${a.kind}: ${a.message}`),
      });
      assert.equal(await c.syncOnce(), 'sent');
      assert.equal(c.status().ackedSeq, head.seq, 'the acknowledgement is recorded');
      assert.equal(alarms.length, 1, alarms.join());
      assert.match(alarms[0] ?? '', /^bad-receipt: /);
      assert.equal(existsSync(path.join(dir, RECEIPT_FILE)), false, 'nothing kept');
      await c.stop();
    }
    ledger.close();
  });
});
