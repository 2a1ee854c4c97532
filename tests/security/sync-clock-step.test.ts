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

  // docs/security.md named it a limit: a clock set back while the host was stopped made the entries
  // that waited across the stop young again, the new run's clock having seen none of their wait. The
  // newest entry waiting was journalled on the clock before the stop: the oldest has waited at least
  // as long as the two lie apart, whatever the clock says at the start.
  it('a clock set back while the host was stopped: the entries that waited across the stop are at least as old as the newest of them was journalled after the oldest', async () => {
    let wall = Date.parse('2026-03-01T12:00:00Z');
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'SC2', clock: () => new Date(wall) });
    const client = (mono: () => number, signals: boolean[]) =>
      new SyncClient(ledger, {
        url: 'http://127.0.0.1:1',
        credentials: { terminalId: 'SC2', key: Buffer.alloc(32, 7).toString('base64') },
        fetch: () => Promise.reject(new TypeError('fetch failed')),
        now: () => new Date(wall),
        idleMs: 5,
        backoffBaseMs: 1,
        backoffCapMs: 5,
        limits: { maxUnsyncedSeconds: 3600, monotonic: mono },
        onStopNewBets: (stop) => signals.push(stop),
      });
    try {
      // The first run: the upstream gone two hours, an entry at either end of them.
      ledger.append(billCredit(1, 10_000, 'first'));
      wall += 2 * HOUR;
      ledger.append(billCredit(2, 10_000, 'two-hours-later'));
      // Stopped; the clock set back two hours (a technician, NTP at boot); a new run, its own clock.
      wall -= 2 * HOUR;
      const signals: boolean[] = [];
      const c = client(() => 5, signals);
      try {
        c.start();
        ledger.append(billCredit(3, 10_000, 'the-new-run'));
        const s = c.status();
        assert.equal(s.lagEntries, 3);
        assert.ok(s.lagSeconds >= 7200, `the oldest waited two hours before the stop: ${s.lagSeconds} s`);
        assert.equal(s.stopNewBets, true);
      } finally {
        await c.stop();
      }
    } finally {
      ledger.close();
    }
  });
});
