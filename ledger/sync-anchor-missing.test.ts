// The sync resumes after the entry the upstream last acknowledged (the ledger's sync_state). A
// journal that no longer holds that entry (its tail cut from the file, the head mark rewritten to
// match, on a cabinet without witness or receipts) made every sync throw before it was tried: no
// alarm, no error recorded, the loop backing off in silence until the limits stopped new bets.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { billCredit } from './fixtures.js';
import { connectionOf, Ledger } from './ledger.js';
import { SyncClient } from './sync-client.js';

describe('the sync against a journal that lost the entry it resumes after', () => {
  it('is a failed sync with an alarm and its error recorded, not a throw', async () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'SA1' });
    for (let i = 1; i <= 3; i++) ledger.append(billCredit(1, 10_000, `a${i}`));
    connectionOf(ledger)
      .prepare("INSERT INTO sync_state (id, acked_seq, acked_hash, updated_at) VALUES (1, 9, ?, '2026-01-01T00:00:00.000Z')")
      .run('b'.repeat(64));
    const alarms: string[] = [];
    const c = new SyncClient(ledger, {
      url: 'http://127.0.0.1:1',
      credentials: { terminalId: 'SA1', key: Buffer.alloc(32, 7).toString('base64') },
      fetch: () => Promise.reject(new Error('nothing may be sent')),
      onAlarm: (a) => alarms.push(a.kind),
    });
    try {
      assert.equal(await c.syncOnce(), 'failed');
      assert.deepEqual(alarms, ['ack-mismatch']);
      assert.match(c.status().lastError ?? '', /entry 9/);
      assert.deepEqual(c.status().lastErrorReason, { reason: 'ackMismatch' });
    } finally {
      ledger.close();
    }
  });
});
