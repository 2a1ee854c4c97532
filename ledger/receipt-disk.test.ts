// The upstream's receipt when the data folder will not take it (a full disk; here the temporary
// file's path is a folder, so the write fails with EISDIR). Before: `keep()` ran inside the sync's
// try, after the acknowledgement was recorded, so a receipt not written turned every acknowledged
// batch into a failed sync (a failure counted, backoff, `onError` with reason 'other', an error
// noted in the sync state) against its own "a receipt never stops the sync", and the catch wrote
// it a second time. Now it is said once (an alarm, `receipt-unwritten`) until a receipt is kept
// again, and the sync stays what the upstream made it. And a receipt the start finds empty or cut
// short (`keepReceipt` did not flush before its rename) is named as such, with what to do.
import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { billCredit } from './fixtures.js';
import { Ledger, readReceipt, SyncClient, syncAnchor, verifyLedger } from './index.js';
import { RECEIPT_FILE, receiptStatement } from './receipts.js';

const KEY = Buffer.alloc(32, 7).toString('base64');
const T = 'R1';

describe("the upstream's receipt and the data folder's disk", () => {
  it('a receipt that cannot be written is said once and never fails an acknowledged sync', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'receipt-disk-'));
    const ledger = Ledger.open({ dataDir: dir, terminalId: T });
    try {
      const k = generateKeyPairSync('ed25519');
      const receiptKey = k.publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
      for (let i = 1; i <= 3; i++) ledger.append(billCredit(1, 10_000, `n${i}`));
      const errors: string[] = [];
      const alarms: string[] = [];
      const c = new SyncClient(ledger, {
        url: 'http://127.0.0.1:1',
        credentials: { terminalId: T, key: KEY, receiptKey },
        fetch: (async (_u: unknown, init?: RequestInit) => {
          const body = JSON.parse(String(init?.body)) as { entries: { seq: number }[] };
          const last = body.entries.at(-1)?.seq ?? 0;
          const headHash = ledger.entry(last)?.hash ?? '';
          const at = new Date().toISOString();
          const signature = sign(null, Buffer.from(receiptStatement(T, last, headHash, at), 'utf8'), k.privateKey).toString('base64');
          return new Response(JSON.stringify({ ackedSeq: last, headHash, receipt: { seq: last, hash: headHash, at, signature } }), { status: 200 });
        }) as typeof fetch,
        receiptsDir: dir,
        onError: (m) => errors.push(m),
        onAlarm: (a) => alarms.push(a.kind),
      });
      const blocked = path.join(dir, `${RECEIPT_FILE}.${process.pid}.tmp`);
      mkdirSync(blocked);
      const results = [await c.syncOnce()];
      ledger.append(billCredit(1, 10_000, 'n4'));
      results.push(await c.syncOnce());
      const seen = {
        results,
        acked: syncAnchor(ledger).ackedSeq === ledger.headOf().seq,
        errors,
        lastError: syncAnchor(ledger).lastError,
        alarms,
      };
      assert.deepEqual(seen, { results: ['sent', 'sent'], acked: true, errors: [], lastError: null, alarms: ['receipt-unwritten'] });
      // The disk freed: the next acknowledgement's receipt is kept, and a later failure is said again.
      rmSync(blocked, { recursive: true });
      ledger.append(billCredit(1, 10_000, 'n5'));
      assert.equal(await c.syncOnce(), 'sent');
      assert.equal(readReceipt(dir)?.seq, ledger.headOf().seq);
      mkdirSync(blocked);
      ledger.append(billCredit(1, 10_000, 'n6'));
      assert.equal(await c.syncOnce(), 'sent');
      assert.deepEqual(alarms, ['receipt-unwritten', 'receipt-unwritten']);
    } finally {
      ledger.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a receipt left empty or cut short is named at start: the file, what it is, what to do', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'receipt-torn-'));
    const ledger = Ledger.open({ dataDir: dir, terminalId: T });
    try {
      ledger.append(billCredit(1, 10_000, 'n1'));
      for (const torn of ['', '{"seq":1,"hash":"ab']) {
        writeFileSync(path.join(dir, RECEIPT_FILE), torn);
        const problems = verifyLedger(ledger).problems.filter((p) => p.includes('receipt'));
        assert.equal(problems.length, 1, JSON.stringify(problems));
        assert.match(problems[0] ?? '', /upstream-receipt\.json/);
        assert.match(problems[0] ?? '', torn === '' ? /empty/ : /cut short|not a receipt/);
        assert.match(problems[0] ?? '', /--upstream/, 'says how to check the journal without it');
      }
    } finally {
      ledger.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
