// Issue 50 item 8: receipts and acknowledgements. Before: with credentials that carry no receipt key
// (an older enrolment), `ledger/sync-client.ts keep()` kept a receipt signed by any key; once the real
// key came back in the credentials, the start and `etg ledger verify` failed until someone deleted
// upstream-receipt.json. And an upstream that acknowledged a lower entry than before was followed
// silently, with no alarm. A hostile upstream (or whatever answers at its address) plays both here.
import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { billCredit } from '../../ledger/fixtures.js';
import { Ledger, SyncClient, syncAnchor, verifyLedger } from '../../ledger/index.js';
import { RECEIPT_FILE, receiptStatement, type Receipt } from '../../ledger/receipts.js';

const root = mkdtempSync(path.join(tmpdir(), 'receipts-acks-'));
after(() => rmSync(root, { recursive: true, force: true }));
const KEY = Buffer.alloc(32, 7).toString('base64');
const TERMINAL = 'R1';

function keyPair(): { publicKey: string; sign: (terminal: string, seq: number, hash: string, at: string) => string } {
  const k = generateKeyPairSync('ed25519');
  return {
    publicKey: k.publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
    sign: (terminal, seq, hash, at) => sign(null, Buffer.from(receiptStatement(terminal, seq, hash, at), 'utf8'), k.privateKey).toString('base64'),
  };
}
const upstreamKey = keyPair();
const attackerKey = keyPair();

/** A data folder with a ledger of `n` notes credited, and its upstream credentials (with or without the receipt key). */
function folder(name: string, n: number): { dir: string; ledger: Ledger } {
  const dir = path.join(root, name);
  const ledger = Ledger.open({ dataDir: dir, terminalId: TERMINAL });
  for (let i = 1; i <= n; i++) ledger.append(billCredit(1 + (i % 7), 10_000, `${name}-${i}`));
  return { dir, ledger };
}

function credentials(dir: string, receiptKey?: string): void {
  writeFileSync(path.join(dir, 'upstream-credentials.json'), JSON.stringify({ terminalId: TERMINAL, key: KEY, ...(receiptKey ? { receiptKey } : {}) }), {
    mode: 0o600,
  });
}

/**
 * An upstream that acknowledges what `ack` says for each batch, with a receipt signed by `signer`
 * (or none), or answers 409 `gap` at a head of its choosing.
 */
function upstream(
  ledger: Ledger,
  answer: (n: number, last: number) => { ackedSeq: number; signer?: ReturnType<typeof keyPair> } | { gapAt: number },
): typeof fetch {
  let n = 0;
  return async (_url, init) => {
    const body = JSON.parse(String(init?.body)) as { entries: { seq: number }[] };
    const last = body.entries[body.entries.length - 1]?.seq ?? 0;
    const a = answer(n++, last);
    if ('gapAt' in a) {
      return new Response(JSON.stringify({ error: 'gap', ackedSeq: a.gapAt, headHash: ledger.entry(a.gapAt)?.hash }), { status: 409 });
    }
    const headHash = ledger.entry(a.ackedSeq)?.hash as string;
    const at = new Date().toISOString();
    const receipt: Receipt | undefined = a.signer
      ? { seq: a.ackedSeq, hash: headHash, at, signature: a.signer.sign(TERMINAL, a.ackedSeq, headHash, at) }
      : undefined;
    return new Response(JSON.stringify({ ackedSeq: a.ackedSeq, headHash, ...(receipt ? { receipt } : {}) }), { status: 200 });
  };
}

describe("the upstream's receipts and acknowledgements, from a hostile upstream", () => {
  it('credentials without a receipt key: a receipt signed by any key is not kept (an alarm); the real key back, the start and verify still pass', async () => {
    const { dir, ledger } = folder('unchecked', 5);
    credentials(dir);
    const alarms: { kind: string; message: string }[] = [];
    const c = new SyncClient(ledger, {
      url: 'http://127.0.0.1:1',
      credentials: { terminalId: TERMINAL, key: KEY },
      fetch: upstream(ledger, (_n, last) => ({ ackedSeq: last, signer: attackerKey })),
      receiptsDir: dir,
      onAlarm: (a) => alarms.push(a),
    });
    assert.equal(await c.syncOnce(), 'sent');
    assert.equal(syncAnchor(ledger).ackedSeq, 5, 'the acknowledgement itself counts');
    assert.equal(existsSync(path.join(dir, RECEIPT_FILE)), false, 'a receipt nobody could check is not kept');
    assert.ok(
      alarms.some((a) => a.kind === 'bad-receipt' && /no receipt key/.test(a.message)),
      JSON.stringify(alarms),
    );
    // Re-enrolled: the credentials carry the upstream's real key. Nothing kept blocks the start.
    credentials(dir, upstreamKey.publicKey);
    const r = verifyLedger(ledger, { from: 'checkpoint' });
    assert.equal(r.ok, true, r.problems.join('\n'));
    // And receipts from the real upstream are kept from then on.
    const real = new SyncClient(ledger, {
      url: 'http://127.0.0.1:1',
      credentials: { terminalId: TERMINAL, key: KEY, receiptKey: upstreamKey.publicKey },
      fetch: upstream(ledger, (_n, last) => ({ ackedSeq: last, signer: upstreamKey })),
      receiptsDir: dir,
    });
    ledger.append(billCredit(1, 10_000, 'unchecked-6'));
    assert.equal(await real.syncOnce(), 'sent');
    assert.equal(existsSync(path.join(dir, RECEIPT_FILE)), true);
    assert.equal(verifyLedger(ledger, { from: 'checkpoint' }).ok, true);
    ledger.close();
  });

  it('an acknowledgement lower than before (in a 200 or in a 409 gap) raises an alarm, and the entries are sent again', async () => {
    const { dir, ledger } = folder('backwards', 8);
    const alarms: { kind: string; message: string }[] = [];
    let plan: (n: number, last: number) => { ackedSeq: number } | { gapAt: number } = (_n, last) => ({ ackedSeq: last });
    const c = new SyncClient(ledger, {
      url: 'http://127.0.0.1:1',
      credentials: { terminalId: TERMINAL, key: KEY },
      fetch: upstream(ledger, (n, last) => plan(n, last)),
      receiptsDir: dir,
      onAlarm: (a) => alarms.push(a),
    });
    assert.equal(await c.syncOnce(), 'sent');
    assert.equal(syncAnchor(ledger).ackedSeq, 8);
    assert.equal(alarms.length, 0, `an honest acknowledgement raises nothing: ${JSON.stringify(alarms)}`);
    // The next batch is acknowledged at entry 3: the upstream lost entries 4–9 it had acknowledged.
    ledger.append(billCredit(1, 10_000, 'backwards-9'));
    plan = () => ({ ackedSeq: 3 });
    await c.syncOnce();
    assert.ok(
      alarms.some((a) => a.kind === 'ack-backwards' && /entry 3.*entry 8/.test(a.message)),
      JSON.stringify(alarms),
    );
    assert.equal(syncAnchor(ledger).ackedSeq, 3, 'the entries it no longer holds are queued again');
    // The same through a 409 gap.
    plan = (_n, last) => ({ ackedSeq: last });
    await c.syncOnce();
    assert.equal(syncAnchor(ledger).ackedSeq, 9);
    alarms.length = 0;
    ledger.append(billCredit(1, 10_000, 'backwards-10'));
    plan = () => ({ gapAt: 2 });
    await c.syncOnce();
    assert.ok(
      alarms.some((a) => a.kind === 'ack-backwards' && /entry 2.*entry 9/.test(a.message)),
      JSON.stringify(alarms),
    );
    ledger.close();
  });
});
