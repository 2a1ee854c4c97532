// A terminal's budget of journal a minute fills with time passed, not with the wall clock's date:
// a clock stepped forward must not refill it at once, nor one stepped back leave it empty
// (tests/security/ingest-budget.test.ts drives the budget through the real route).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IngestBudget } from './ingest-budget.js';

const LIMITS = { entriesPerMinute: 100, bytesPerMinute: 1_000_000 };

describe("IngestBudget's own clock", () => {
  it('a wall clock set forward an hour refills nothing', (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: Date.UTC(2026, 11, 5, 8) });
    const budget = new IngestBudget(LIMITS);
    assert.equal(budget.take('T1', 100, 10), 0);
    t.mock.timers.setTime(Date.UTC(2026, 11, 5, 9));
    assert.ok(budget.take('T1', 100, 10) > 0, 'the minute has not passed');
  });

  it('a wall clock set back a day does not leave the budget empty for a day', (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: Date.UTC(2026, 11, 5, 8) });
    const budget = new IngestBudget(LIMITS);
    assert.equal(budget.take('T1', 100, 10), 0);
    t.mock.timers.setTime(Date.UTC(2026, 11, 4, 8));
    const wait = budget.take('T1', 100, 10);
    assert.ok(wait > 0 && wait <= 60_000, `told to wait ${wait} ms`);
  });
});
