// A table whose credentials leaked syncs meter deltas an honest ledger never writes: a meter below
// zero (deltas that take more than was ever added), one summed past 2^53. The upstream's /metrics
// reads each table's meters from the projection of every table's deltas, for the casino's
// monitoring of the whole floor. What one table says must never cost the floor its metrics.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildServer, openUpstreamDb, type Db } from '../../upstream/index.js';
import { lyingTable } from './lying-journal-kit.js';

type App = Awaited<ReturnType<typeof buildServer>>;
const ADMIN = 'a'.repeat(32);
const TS = '2026-11-26T02:00:00.000Z';

async function scrape(app: App): Promise<{ statusCode: number; body: string }> {
  return app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${ADMIN}` } });
}

/** One sample's value from Prometheus text, by its exact series (name and labels). */
function sample(text: string, series: string): string | null {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? line.slice(series.length + 1) : null;
}

describe("the upstream's /metrics against a table's meters that no ledger writes", () => {
  let db: Db;
  let app: App;
  before(async () => {
    db = await openUpstreamDb({});
    app = await buildServer({ db, tokens: { admin: ADMIN } });
    const honest = await lyingTable(app, db, 'HONEST-1');
    const r = await honest.send([{ type: 'bill.credit', ts: TS, meters: [['table', 'creditsWagered', 12_345]] }]);
    assert.equal(r.statusCode, 200, r.body);
  });
  after(async () => {
    await app.close();
    await db.close();
  });

  it('a meter taken below zero: the floor is scraped, the honest table read', async () => {
    const liar = await lyingTable(app, db, 'LIAR-NEG');
    await liar.send([{ type: 'bill.credit', ts: TS, meters: [['table', 'creditsWagered', -5]] }]);
    const res = await scrape(app);
    assert.equal(res.statusCode, 200, res.body.slice(0, 300));
    assert.equal(sample(res.body, 'etg_bets_minor_total{terminal="HONEST-1",game="unknown",currency="none",exponent="none"}'), '12345');
    // The liar's meter is left out of the counters, and said to be.
    assert.equal(sample(res.body, 'etg_bets_minor_total{terminal="LIAR-NEG",game="unknown",currency="none",exponent="none"}'), null);
    assert.equal(sample(res.body, 'etg_upstream_terminal_meters_unreadable{terminal="LIAR-NEG"}'), '1');
    assert.equal(sample(res.body, 'etg_upstream_terminal_meters_unreadable{terminal="HONEST-1"}'), '0');
  });

  it('a meter summed past 2^53 in one batch: refused whole, naming the meter; never an inexact figure', async () => {
    const liar = await lyingTable(app, db, 'LIAR-BIG');
    const max = Number.MAX_SAFE_INTEGER;
    const r = await liar.send([
      { type: 'bill.credit', ts: TS, meters: [['table', 'creditsWagered', max]] },
      { type: 'bill.credit', ts: TS, meters: [['table', 'creditsWagered', max]] },
      { type: 'bill.credit', ts: TS, meters: [['table', 'creditsWagered', 3]] },
    ]);
    // Before: 200, and the projection held 18,014,398,509,481,984 (the exact sum is …985).
    assert.equal(r.statusCode, 422, r.body);
    assert.match(r.body, /"error":"bad-entry".*seq 2: meter table creditsWagered would reach 18014398509481982, past a safe integer/);
    const stored = await db.query<{ value: string }>("SELECT value::text AS value FROM meters WHERE terminal_id = 'LIAR-BIG'");
    assert.deepEqual(stored.rows, [], 'refused, nothing of it projected');
    const res = await scrape(app);
    assert.equal(res.statusCode, 200, res.body.slice(0, 300));
    assert.equal(sample(res.body, 'etg_bets_minor_total{terminal="HONEST-1",game="unknown",currency="none",exponent="none"}'), '12345');
    const said = sample(res.body, 'etg_bets_minor_total{terminal="LIAR-BIG",game="unknown",currency="none",exponent="none"}');
    assert.ok(said === null || Number.isSafeInteger(Number(said)), `LIAR-BIG's figure is exact or absent, not ${said}`);
  });

  it('meters summed past the database bigint across batches: a clear refusal, not a failure of the server', async () => {
    const liar = await lyingTable(app, db, 'LIAR-I64');
    const max = Number.MAX_SAFE_INTEGER;
    const statuses: number[] = [];
    // 2^63 / (2^53 − 1) ≈ 1,024 deltas; 64 batches of 20. Before: 200, then 500 (bigint out of range) for every batch after.
    for (let b = 0; b < 64; b++) {
      const r = await liar.send(Array.from({ length: 20 }, () => ({ type: 'bill.credit', ts: TS, meters: [['table', 'totalIn', max]] })));
      statuses.push(r.statusCode);
    }
    assert.deepEqual([...new Set(statuses)], [422], 'each batch refused (its own sum past a safe integer), none a 500');
    const res = await scrape(app);
    assert.equal(res.statusCode, 200, res.body.slice(0, 300));
  });

  it('a batch that is safe on its own but takes the stored projection past a safe integer: refused, the projection as it was', async () => {
    const liar = await lyingTable(app, db, 'LIAR-TWO');
    const max = Number.MAX_SAFE_INTEGER;
    const first = await liar.send([{ type: 'bill.credit', ts: TS, meters: [['table', 'totalIn', max]] }]);
    assert.equal(first.statusCode, 200, first.body);
    // Before: 200, and the projection held 18,014,398,509,481,982 (read back as a JS number, inexact).
    const second = await liar.send([{ type: 'bill.credit', ts: TS, meters: [['table', 'totalIn', max]] }]);
    assert.equal(second.statusCode, 422, second.body);
    assert.match(second.body, /seq 2: meter table totalIn would reach 18014398509481982, past a safe integer/);
    const stored = await db.query<{ value: string }>("SELECT value::text AS value FROM meters WHERE terminal_id = 'LIAR-TWO' AND name = 'totalIn'");
    assert.equal(stored.rows[0]?.value, String(max), 'the refused batch rolled back with its meters');
    const head = await db.query<{ seq: number }>("SELECT seq FROM heads WHERE terminal_id = 'LIAR-TWO'");
    assert.equal(Number(head.rows[0]?.seq), 1, 'the head did not move past the refused batch');
  });
});
