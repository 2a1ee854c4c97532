// A table whose key leaked names meters no ledger writes: the ingest takes any meter name (a newer
// table's meters are stored as they come, upstream/ingest/report-fields.ts), and the table's page
// answered every name the table ever sent, per station and currency (25,000 names in one entry made
// the page's answer megabytes, sent again on every refresh). The page shows six meters per station
// (backoffice/src/table-page.ts): the upstream answers those, and the table's own scope those too.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TABLE_PAGE_METERS as SHOWN } from '../../backoffice/src/table-page.js';
import { TABLE_PAGE_METERS } from '../../upstream/backoffice/table-detail.js';
import { kitOfSuite } from './backoffice-kit.js';
import { lyingTable, type LyingEntry } from './lying-journal-kit.js';

const NAMES = Array.from({ length: 5_000 }, (_, i) => `junk${i}`);
const WIDE: LyingEntry = {
  type: 'bill.credit',
  ts: '2026-11-26T02:00:00.000Z',
  payload: { station: 1, amount: 100, currency: 'MOP' },
  meters: [
    ['table', 'totalIn', 100],
    ['station:1', 'totalIn', 100],
    ['table', 'totalBillsIn', 100],
    ...NAMES.flatMap((n) => [
      ['table', n, 1],
      ['station:1', n, 1],
    ]),
  ],
};

describe("a table's page and the meter names a hostile table sends", () => {
  const suite = kitOfSuite('viewer');

  it('the upstream answers the meters the page shows, as the page names them', () => {
    assert.deepEqual([...TABLE_PAGE_METERS], [...SHOWN]);
  });

  it('answers only the meters the page shows, their values as the ingest took them', async () => {
    const { kit, who } = suite;
    const liar = await lyingTable(kit.app, kit.db, 'T7');
    const sent = await liar.send([WIDE]);
    assert.equal(sent.statusCode, 200, sent.body.slice(0, 300));
    const r = await kit.app.inject({ method: 'GET', url: '/backoffice/api/tables/T7', headers: { cookie: who.cookie } });
    assert.equal(r.statusCode, 200, r.body.slice(0, 300));
    const d = r.json() as { table: { meters: Record<string, number> }[]; stations: { station: number; meters: { meters: Record<string, number> }[] }[] };
    const station = d.stations.find((s) => s.station === 1);
    assert.deepEqual(
      station?.meters.map((g) => g.meters),
      [{ totalIn: 100 }],
    );
    assert.deepEqual(
      d.table.map((g) => g.meters),
      [{ totalIn: 100 }],
    );
    assert.ok(r.body.length < 10_000, `the page's answer is ${r.body.length} bytes`);
  });
});
