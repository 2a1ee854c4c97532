import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ClientLogBudget, OTHER_CLIENTS } from './client-budget.js';

describe('the log budget of each client', () => {
  it('lets a burst through, then so many a minute; what it drops is counted by message, per client', () => {
    let now = 0;
    const b = new ClientLogBudget({ burst: 3, perMinute: 6, summaryMs: 1000, maxClients: 10, total: { burst: 1000, perMinute: 1000 } }, () => now);
    const flood = Array.from({ length: 10 }, (_, i) => b.admit('10.0.0.9', i % 2 ? 'a' : 'b'));
    assert.deepEqual(flood.slice(0, 3), [true, true, true]);
    assert.equal(flood.filter(Boolean).length, 3);
    assert.equal(b.admit('station/3', 'screen connected'), true, "another client's line passes");
    now += 10_000; // one line back (6 a minute)
    assert.equal(b.admit('10.0.0.9', 'b'), true);
    assert.equal(b.admit('10.0.0.9', 'b'), false);
    assert.deepEqual(b.drain(), { clients: [{ client: '10.0.0.9', dropped: 8, messages: { a: 4, b: 4 } }], total: 8, unlisted: 0 });
    assert.deepEqual(b.drain(), { clients: [], total: 0, unlisted: 0 }, 'counted once');
  });

  it('tracks at most maxClients; the others share one budget', () => {
    const b = new ClientLogBudget({ burst: 1, perMinute: 1, summaryMs: 1000, maxClients: 2, total: { burst: 1000, perMinute: 1000 } }, () => 0);
    assert.equal(b.admit('a', 'x'), true);
    assert.equal(b.admit('b', 'x'), true);
    assert.equal(b.admit('c', 'x'), true, "the shared budget's first line");
    assert.equal(b.admit('d', 'x'), false, 'the shared budget is spent');
    assert.equal(b.drain().clients[0]?.client, OTHER_CLIENTS);
  });
});

describe('the log budget of all clients together (issue 50)', () => {
  it('many clients each within their own budget are held to the total', () => {
    let now = 0;
    const b = new ClientLogBudget({ burst: 2, perMinute: 60, summaryMs: 1000, maxClients: 100, total: { burst: 5, perMinute: 6 } }, () => now);
    const first = Array.from({ length: 10 }, (_, i) => b.admit(`10.0.0.${i}`, 'screen disconnected'));
    assert.equal(first.filter(Boolean).length, 5, 'five lines of ten clients');
    now += 10_000; // one line back in the total (6 a minute)
    assert.deepEqual(
      Array.from({ length: 3 }, (_, i) => b.admit(`10.0.1.${i}`, 'x')),
      [true, false, false],
    );
    assert.equal(b.admit('station/3', 'screen connected', true), true, 'a client that said who it is spends its own budget only');
    assert.equal(b.drain().total, 7, 'the lines the total refused are counted against their clients');
  });
});
