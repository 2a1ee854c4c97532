// The day's voids and corrections read whether each dealing error's round was voided (a
// `round.void` of the same table and round id, any day). An honest table's round ids are each used
// once; a table restarted, or one whose key leaked, can put one round id on thousands of entries.
// Looked up again for each misread, by the round's index, each lookup walked every entry of that
// round id: a cost of the square of the entries.
// The bound asserted is ten times the time measured (a shared machine's times are noise); the
// quadratic read was past it many times over.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GamingDayReport } from '../../backoffice/src/report-model.js';
import { MAX_MERGED_DETAILS, MAX_TABLE_CORRECTIONS } from '../../upstream/backoffice/corrections.js';
import { reportCsv } from '../../backoffice/src/csv.js';
import { createI18n } from '../../locales/i18n.js';
import { kitOfSuite } from './backoffice-kit.js';
import { lyingTable } from './lying-journal-kit.js';

const DAY = '2026-11-26';
const TS = '2026-11-26T02:00:00.000Z'; // 10:00 in Macau, inside the gaming day from 06:00
const MISREADS = 6000;

describe('one round id on many entries in the report', () => {
  const suite = kitOfSuite('accounting');

  it(`${MISREADS} holds lifted on one round id, its one void last: each is read at a cost that follows the entries`, async () => {
    const { kit, who } = suite;
    await lyingTable(kit.app, kit.db, 'S1');
    // Entries 1..N: misreads of round R resolved `round-void`; N+1: the round's void.
    await kit.db.query(
      `INSERT INTO journal (terminal_id, seq, type, ts, content_hash, prev_hash, hash, body, doc)
       SELECT 'S1', s, CASE WHEN s = $1 + 1 THEN 'round.void' ELSE 'misread' END, $2::timestamptz, 'c', 'p', 'h', b, b::jsonb
       FROM generate_series(1, $1::int + 1) s, LATERAL (SELECT json_build_object('terminal', 'S1', 'seq', s,
         'type', CASE WHEN s = $1 + 1 THEN 'round.void' ELSE 'misread' END, 'ts', $2::text, 'txId', null, 'meters', '[]'::json,
         'payload', CASE WHEN s = $1 + 1 THEN json_build_object('roundId', 'R', 'reason', 'hold')
           ELSE json_build_object('roundId', 'R', 'resolution', 'round-void', 'detail', 'extra card') END)::text AS b) x`,
      [MISREADS, TS],
    );
    await kit.db.query(`UPDATE heads SET seq = $1 WHERE terminal_id = 'S1'`, [MISREADS + 1]);
    const t0 = performance.now();
    const r = await kit.app.inject({ method: 'GET', url: `/backoffice/api/reports/gaming-day?date=${DAY}`, headers: { cookie: who.cookie } });
    const ms = performance.now() - t0;
    assert.equal(r.statusCode, 200, r.body.slice(0, 300));
    const corrections = GamingDayReport.parse(r.json()).corrections;
    // Every misread joins the void's one line, a dealing error that voided its round: the first
    // MAX_MERGED_DETAILS details in it, the rest counted (the line was 72 kB before).
    assert.deepEqual(
      corrections.map((c) => [c.kind, c.detail.split('; ').length, c.detailsCut]),
      [['error-void', 1 + MAX_MERGED_DETAILS, MISREADS - MAX_MERGED_DETAILS]],
    );
    const [cells] = reportCsv(createI18n('en'), GamingDayReport.parse(r.json()))
      .split('\r\n')
      .filter((l) => l.startsWith('S1,'));
    assert.match(cells ?? '', new RegExp(`details of dealing errors left out here: ${MISREADS - MAX_MERGED_DETAILS}`));
    console.log(`${MISREADS} misreads on one round id: report ${Math.round(ms)} ms`);
    assert.ok(ms < 10_000, `report ${Math.round(ms)} ms`);
  });

  it(`${MISREADS} holds lifted, each on a round id of its own and each voided: one line each, at a cost that follows the entries`, async () => {
    const { kit, who } = suite;
    await lyingTable(kit.app, kit.db, 'S2');
    // Entry 2k-1: the misread of round Rk; 2k: its void.
    await kit.db.query(
      `INSERT INTO journal (terminal_id, seq, type, ts, content_hash, prev_hash, hash, body, doc)
       SELECT 'S2', s, CASE WHEN s % 2 = 0 THEN 'round.void' ELSE 'misread' END, $2::timestamptz, 'c', 'p', 'h', b, b::jsonb
       FROM generate_series(1, 2 * $1::int) s, LATERAL (SELECT json_build_object('terminal', 'S2', 'seq', s,
         'type', CASE WHEN s % 2 = 0 THEN 'round.void' ELSE 'misread' END, 'ts', $2::text, 'txId', null, 'meters', '[]'::json,
         'payload', CASE WHEN s % 2 = 0 THEN json_build_object('roundId', 'R' || ((s + 1) / 2), 'reason', 'hold')
           ELSE json_build_object('roundId', 'R' || ((s + 1) / 2), 'resolution', 'round-void', 'detail', 'extra card') END)::text AS b) x`,
      [MISREADS, TS],
    );
    await kit.db.query(`UPDATE heads SET seq = $1 WHERE terminal_id = 'S2'`, [2 * MISREADS]);
    const t0 = performance.now();
    const r = await kit.app.inject({ method: 'GET', url: `/backoffice/api/reports/gaming-day?date=${DAY}`, headers: { cookie: who.cookie } });
    const ms = performance.now() - t0;
    assert.equal(r.statusCode, 200, r.body.slice(0, 300));
    const page = GamingDayReport.parse(r.json());
    const lines = page.corrections.filter((c) => c.terminalId === 'S2');
    // One line each, of which the report lists the first MAX_TABLE_CORRECTIONS (corrections.ts).
    assert.equal(lines.length, MAX_TABLE_CORRECTIONS);
    assert.deepEqual(
      page.correctionsCut.find((c) => c.terminalId === 'S2'),
      { terminalId: 'S2', listed: MAX_TABLE_CORRECTIONS, total: MISREADS },
    );
    assert.ok(lines.every((c) => c.kind === 'error-void'));
    console.log(`${MISREADS} misreads each voided: report ${Math.round(ms)} ms`);
    assert.ok(ms < 10_000, `report ${Math.round(ms)} ms`);
  });
});
