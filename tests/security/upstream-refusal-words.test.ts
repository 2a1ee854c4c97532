// An upstream (or whatever answers at its address) refuses with a body as long as the answer's
// bound allows (4 MiB): its `error` and `message` went whole into the failure's text, which the
// host logs at each new text (ledger sync failed) and, for a 4xx, at every retry as an alarm
// (upstream sync alarm): some 8 MiB a retry, so a few minutes of refusals pushed the host log's
// 100 MiB of history (every fault, every start) out of its rotation. The text is cut instead.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { billCredit } from '../../ledger/fixtures.js';
import { Ledger, SyncClient, syncAnchor } from '../../ledger/index.js';

const KEY = Buffer.alloc(32, 7).toString('base64');

describe("an upstream's refusal of any length", () => {
  for (const status of [403, 500]) {
    it(`${status} with a 1 MiB error and a 2 MiB message: the failure's text and its alarm are cut, the sync holds`, async () => {
      const ledger = Ledger.open({ file: ':memory:', terminalId: 'W1' });
      for (let i = 1; i <= 3; i++) ledger.append(billCredit(i, 10_000, `w-${i}`));
      const errors: string[] = [];
      const alarms: string[] = [];
      let n = 0;
      const c = new SyncClient(ledger, {
        url: 'http://127.0.0.1:1',
        credentials: { terminalId: 'W1', key: KEY },
        onError: (m) => errors.push(m),
        onAlarm: (a) => alarms.push(a.message),
        fetch: async () => {
          n++;
          const body = JSON.stringify({ error: `e${n}`.padEnd(1024 * 1024, 'x'), message: `m${n}`.padEnd(2 * 1024 * 1024, 'y') });
          return new Response(body, { status });
        },
      });
      assert.equal(await c.syncOnce(), 'failed');
      assert.equal(await c.syncOnce(), 'failed');
      assert.equal(syncAnchor(ledger).ackedSeq, 0);
      assert.equal(errors.length, 2);
      for (const m of [...errors, ...alarms]) assert.ok(m.length <= 1000, `a failure's text of ${m.length} characters`);
      assert.match(errors[0]!, new RegExp(`^upstream answered ${status}: e1x`));
      assert.equal(alarms.length, status === 403 ? 2 : 0);
      assert.ok(c.status().lastError!.length <= 500);
      ledger.close();
    });
  }
});
