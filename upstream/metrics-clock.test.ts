// The metrics' figures are read from the database at most once a second and shared by the scrape's
// metrics. That second is a span of time: with the wall clock stepped back an hour, every scrape
// of that hour would have been answered with the figures of before the step.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UpstreamMetrics } from './metrics.js';
import type { Sql } from './sql.js';

/** A database that answers no rows and counts the reads of the terminals' figures. */
function countingSql(): { sql: Sql; reads: () => number } {
  let reads = 0;
  const sql: Sql = {
    async query<T>(text: string) {
      if (/FROM terminals/i.test(text)) reads += 1;
      return { rows: [] as T[], rowCount: 0 };
    },
    async exec() {},
  };
  return { sql, reads: () => reads };
}

describe("UpstreamMetrics' own clock", () => {
  it('a wall clock set back an hour does not freeze the figures for an hour', async (t) => {
    const { sql, reads } = countingSql();
    t.mock.timers.enable({ apis: ['Date'], now: Date.UTC(2026, 11, 5, 8) });
    const metrics = new UpstreamMetrics(sql);
    await metrics.text();
    const first = reads();
    assert.ok(first > 0, 'the first scrape reads the figures');
    t.mock.timers.setTime(Date.UTC(2026, 11, 5, 7));
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await metrics.text();
    assert.ok(reads() > first, 'a scrape a second later reads them again');
  });
});
