// The floor's /metrics reads each table's meters at every scrape (at most once a second) and gives
// six of them to counters. It read every table-scope meter the table ever named: the ingest takes
// any name a table writes (up to 128 characters), so a table whose key leaked could name thousands,
// and every scrape of the whole floor read them all. Now a scrape reads the six names it counts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Sql } from '../../upstream/index.js';
import { terminalFigures } from '../../upstream/queries.js';
import { METER_COUNTERS } from '../../upstream/metrics.js';
import { backofficeKit, type BackofficeKit } from './backoffice-kit.js';
import { lyingTable } from './lying-journal-kit.js';

const TS = '2026-11-26T08:00:00.000Z';

describe("the metrics' read of a table that names many meters", () => {
  let kit: BackofficeKit;
  before(async () => {
    kit = await backofficeKit();
  });
  after(() => kit.close());

  it('reads the counted meters only', async () => {
    const t = await lyingTable(kit.app, kit.db, 'N1');
    const meters = Array.from({ length: 2_000 }, (_, i) => ['table', `made-up-${'x'.repeat(100)}-${i}`, 1]);
    assert.equal((await t.send([{ type: 'note', ts: TS, meters: [...meters, ['table', 'creditsWagered', 500]] }])).statusCode, 200);
    let read = 0;
    const counting: Sql = {
      async query<T>(text: string, params?: unknown[]) {
        const r = await kit.db.query<T>(text, params);
        read += JSON.stringify(r.rows).length;
        return r;
      },
      exec: (text) => kit.db.exec(text),
    };
    const figures = await terminalFigures(
      counting,
      METER_COUNTERS.map((c) => c.meter),
    );
    assert.equal(figures.find((f) => f.terminalId === 'N1')?.meters[0]?.values.creditsWagered, 500);
    assert.ok(read < 20_000, `a scrape read ${read} bytes`);
  });
});
