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

// 4,000 names on two scopes: within MAX_ENTRY_METERS, so the entry's ledger meters count (upstream-meter-names.test.ts).
const NAMES = Array.from({ length: 4_000 }, (_, i) => `junk${i}`);
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

// The same page's rounds, jackpots, hand pays and transfers: each entry's payload was answered
// whole, and the ingest checks no field of a `transfer.complete`, a `jackpot.settle` or a
// `round.void` (nor a settlement's cards): 90 entries of a 100 kB junk field made every view of the
// table's page 9 MB. The page shows an entry's amount and a round's id and cards: those are answered.
describe("a table's page and the payloads a hostile table journals", () => {
  const suite = kitOfSuite('viewer');
  const JUNK = 'x'.repeat(100_000);

  it('answers of each entry what the page shows, not its payload whole', async () => {
    const { kit, who } = suite;
    const liar = await lyingTable(kit.app, kit.db, 'T8');
    const ts = '2026-11-26T02:00:00.000Z';
    const entries: LyingEntry[] = [
      ...Array.from({ length: 20 }, (_, i) => ({ type: 'transfer.complete', ts, payload: { transfer: { amount: 500 + i }, junk: JUNK } })),
      ...Array.from({ length: 10 }, () => ({ type: 'jackpot.settle', ts, payload: { amount: 7000, junk: JUNK } })),
      { type: 'round.void', ts, payload: { roundId: 'R1', cards: [{ card: 'AS', to: 'player' }], junk: JUNK } },
      { type: 'round.void', ts, payload: { roundId: 'R2', cards: [{ card: JUNK, to: 'player' }] } },
    ];
    for (let i = 0; i < entries.length; i += 8) assert.equal((await liar.send(entries.slice(i, i + 8))).statusCode, 200);
    const r = await kit.app.inject({ method: 'GET', url: '/backoffice/api/tables/T8', headers: { cookie: who.cookie } });
    assert.equal(r.statusCode, 200, r.body.slice(0, 300));
    assert.ok(r.body.length < 50_000, `the page's answer is ${r.body.length} bytes`);
    const d = r.json() as {
      transfers: { payload: { transfer?: { amount?: unknown } } }[];
      jackpots: { payload: { amount?: unknown } }[];
      rounds: { round: { roundId?: unknown; cards?: unknown } | null }[];
    };
    assert.deepEqual(
      d.transfers.map((e) => e.payload.transfer?.amount),
      Array.from({ length: 20 }, (_, i) => 519 - i),
    );
    assert.deepEqual(
      d.jackpots.map((e) => e.payload.amount),
      Array<number>(10).fill(7000),
    );
    assert.deepEqual(
      d.rounds.map((x) => x.round),
      [{ roundId: 'R2' }, { roundId: 'R1', cards: [{ card: 'AS', to: 'player' }] }],
    );
  });
});
