// A table whose key leaked sends meter deltas on scopes no ledger writes (a review of the
// upstream, F4): the gaming day's report has a line per table, scope and currency, and ingest took
// any scope name up to 128 characters, any number of them. 7 entries of 25,000 scopes each made
// the all-tables report 62 MB, 175,001 lines, 2.7 s, of any past day too. A ledger writes a meter
// of the table (`table`) and of a station (`station:N`, ledger/derive.ts), N one of the table's
// stations (1 to MAX_STATION, engine/table/vocabulary.ts): ingest refuses the batch of any other
// (422, nothing stored, as for every figure the reports read), and the report leaves out such rows
// an earlier upstream stored.
// The cases share one back office (an upstream each cost a second of set-up, all of each case but
// the last): each its own terminal, so what it counts is its own.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_STATION } from '../../engine/table/vocabulary.js';
import { MAX_METER_STATION } from '../../upstream/ingest/report-fields.js';
import { MeterScope } from '../../terms/stations.js';
import { GamingDayReport } from '../../backoffice/src/report-model.js';
import { kitOfSuite } from './backoffice-kit.js';
import { lyingBody, lyingTable, type LyingEntry } from './lying-journal-kit.js';

const DAY = '2026-11-26';
const TS = '2026-11-26T02:00:00.000Z'; // 10:00 in Macau, inside the gaming day from 06:00
const notes = (scopes: string[]): LyingEntry => ({
  type: 'bill.credit',
  ts: TS,
  payload: { station: 1, amount: 100, currency: 'MOP' },
  meters: [['table', 'totalBillsIn', 100], ...scopes.map((s) => [s, 'totalBillsIn', 100])],
});
/** The review's attack, one entry of it: 25,000 scopes no ledger writes. */
const WIDE = notes(Array.from({ length: 25_000 }, (_, i) => `s${i}`));

describe('meter scopes no ledger writes', () => {
  const suite = kitOfSuite('accounting');
  it('the stations a meter may name are the engine’s', () => {
    assert.equal(MAX_METER_STATION, MAX_STATION);
  });

  for (const [k, scope] of ['s0', 'station:0', 'station:01', `station:${MAX_STATION + 1}`, 'station:1:credit', 'station: 1', 'Table'].entries()) {
    it(`a meter of scope ${JSON.stringify(scope)}: refused at ingest, nothing stored`, async () => {
      const { kit } = suite;
      const liar = await lyingTable(kit.app, kit.db, `T9-${k}`);
      const r = await liar.send([notes([scope])]);
      assert.equal(r.statusCode, 422, r.body.slice(0, 300));
      assert.match(r.body, /bad-entry/);
      const stored = await kit.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM journal WHERE terminal_id = $1`, [`T9-${k}`]);
      assert.equal(stored.rows[0]?.n, 0);
      assert.equal((await liar.send([notes(['station:1', `station:${MAX_STATION}`])])).statusCode, 200, 'a ledger’s scopes are taken');
    });
  }

  it('25,000 scopes in one entry: refused; stored by an earlier upstream, the report holds only the ledger’s scopes', async () => {
    const { kit, who } = suite;
    const liar = await lyingTable(kit.app, kit.db, 'T9');
    const r = await liar.send([WIDE]);
    assert.equal(r.statusCode, 422, r.body.slice(0, 300));
    // As the version before stored it.
    // And one of a few such scopes (an entry of more deltas than MAX_ENTRY_METERS counts for nothing whatever its scopes).
    for (const [seq, e] of [WIDE, notes(['s1', 'station:0', 'Table', `station:${MAX_STATION + 1}`])].entries()) {
      const doc = lyingBody('T9', seq + 1, e);
      await kit.db.query(
        `INSERT INTO journal (terminal_id, seq, type, ts, content_hash, prev_hash, hash, body, doc) VALUES ('T9', $1, $2, $3, 'c', 'p', 'h', $4, $5::jsonb)`,
        [seq + 1, e.type, e.ts, doc, doc],
      );
    }
    const t0 = performance.now();
    const got = await kit.app.inject({ method: 'GET', url: `/backoffice/api/reports/gaming-day?date=${DAY}`, headers: { cookie: who.cookie } });
    const ms = performance.now() - t0;
    assert.equal(got.statusCode, 200, got.body.slice(0, 300));
    const report = GamingDayReport.parse(got.json());
    console.log(`25,000 scopes stored: report ${report.lines.length} lines, ${got.body.length} bytes, ${Math.round(ms)} ms`);
    // T9's one line, of the small entry's table meter; the day also holds the lines of the cases before (their ledger scopes), none other.
    assert.deepEqual(
      report.lines.filter((l) => l.terminalId === 'T9').map((l) => [l.terminalId, l.scope, l.drop]),
      [['T9', 'table', 100]],
    );
    assert.deepEqual(
      report.lines.filter((l) => !MeterScope.safeParse(l.scope).success),
      [],
    );
  });
});
