// The sync's age limit (`maxUnsyncedSeconds`: new bets stop when the oldest entry the upstream has
// not acknowledged is older) read the wall clock against the entries' journalled times. A clock set
// back (NTP at boot, a technician) made every waiting entry young again: with the upstream gone,
// new bets went on for as long as the step, the entry count alone bounding them. The witness link,
// the tilt manager and the others count on the monotonic clock (docs/security.md); the sync now
// does too, for the entries it has seen this run.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { billCredit } from '../../ledger/fixtures.js';
import { Ledger } from '../../ledger/ledger.js';
import { SyncClient } from '../../ledger/sync-client.js';

const HOUR = 3_600_000;

describe('the sync age limit and a wall clock set back', () => {
  it('an upstream gone two hours stops new bets past a one-hour limit, though the clock was set back two hours', async () => {
    let wall = Date.parse('2026-03-01T12:00:00Z');
    let mono = 1_000;
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'SC1', clock: () => new Date(wall) });
    ledger.append(billCredit(1, 10_000, 'before-start'));
    const signals: boolean[] = [];
    const c = new SyncClient(ledger, {
      url: 'http://127.0.0.1:1',
      credentials: { terminalId: 'SC1', key: Buffer.alloc(32, 7).toString('base64') },
      fetch: () => Promise.reject(new TypeError('fetch failed')),
      now: () => new Date(wall),
      idleMs: 5,
      backoffBaseMs: 1,
      backoffCapMs: 5,
      limits: { maxUnsyncedSeconds: 3600, monotonic: () => mono },
      onStopNewBets: (stop) => signals.push(stop),
    });
    try {
      c.start();
      ledger.append(billCredit(2, 10_000, 'after-start'));
      // Set back two hours; two hours pass.
      wall -= 2 * HOUR;
      mono += 2 * HOUR;
      wall += 2 * HOUR;
      ledger.append(billCredit(3, 10_000, 'after-the-step'));
      const s = c.status();
      assert.equal(s.lagEntries, 3);
      assert.ok(s.lagSeconds >= 7200, `the oldest waits two hours: ${s.lagSeconds} s`);
      assert.equal(s.stopNewBets, true);
    } finally {
      await c.stop();
      ledger.close();
    }
  });
});
