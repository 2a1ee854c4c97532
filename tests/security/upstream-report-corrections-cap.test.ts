// A table whose key leaked journals 5,000 voids in a day: every one was a line of the day's report
// (its JSON, printable page and CSV), unbounded. Each is evidence: the report lists a table's first
// MAX_TABLE_CORRECTIONS and states how many it had (`correctionsCut`), on the page and in the CSV;
// an honest table's voids are all listed, whatever the liar sends.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { reportCsv } from '../../backoffice/src/csv.js';
import { GamingDayReport } from '../../backoffice/src/report-model.js';
import { createI18n } from '../../locales/i18n.js';
import { MAX_TABLE_CORRECTIONS } from '../../upstream/backoffice/corrections.js';
import { kitOfSuite } from './backoffice-kit.js';
import { lyingTable } from './lying-journal-kit.js';

const DAY = '2026-11-26';
const TS = '2026-11-26T02:00:00.000Z'; // 10:00 in Macau, inside the gaming day from 06:00
const VOIDS = 5000;

describe("a table's thousands of voids in the report", () => {
  const suite = kitOfSuite('accounting');

  it(`${VOIDS} voids from one table: its first ${MAX_TABLE_CORRECTIONS} listed and its count stated; the honest table's listed`, async () => {
    const { kit, who } = suite;
    const honest = await lyingTable(kit.app, kit.db, 'C1');
    assert.equal((await honest.send([{ type: 'round.void', ts: TS, payload: { roundId: 'H1', reason: 'shoe jammed', rule: 'Art. 28.º' } }])).statusCode, 200);
    await lyingTable(kit.app, kit.db, 'C0');
    await kit.db.query(
      `INSERT INTO journal (terminal_id, seq, type, ts, content_hash, prev_hash, hash, body, doc)
       SELECT 'C0', s, 'round.void', $2::timestamptz, 'c', 'p', 'h', b, b::jsonb
       FROM generate_series(1, $1::int) s, LATERAL (SELECT json_build_object('terminal', 'C0', 'seq', s, 'type', 'round.void', 'ts', $2::text,
         'txId', null, 'meters', '[]'::json, 'payload', json_build_object('roundId', 'R' || s, 'reason', repeat('x', 200)))::text AS b) x`,
      [VOIDS, TS],
    );
    await kit.db.query(`UPDATE heads SET seq = $1 WHERE terminal_id = 'C0'`, [VOIDS]);
    const r = await kit.app.inject({ method: 'GET', url: `/backoffice/api/reports/gaming-day?date=${DAY}`, headers: { cookie: who.cookie } });
    assert.equal(r.statusCode, 200, r.body.slice(0, 300));
    console.log(`${VOIDS} voids of one table: the report's answer ${r.body.length} bytes`);
    const page = GamingDayReport.parse(r.json());
    const liar = page.corrections.filter((c) => c.terminalId === 'C0');
    assert.equal(liar.length, MAX_TABLE_CORRECTIONS);
    assert.deepEqual(
      liar.slice(0, 2).map((c) => c.seq),
      [1, 2],
      'its first in its journal',
    );
    assert.deepEqual(page.correctionsCut, [{ terminalId: 'C0', listed: MAX_TABLE_CORRECTIONS, total: VOIDS }]);
    assert.deepEqual(
      page.corrections.filter((c) => c.terminalId === 'C1').map((c) => [c.roundId, c.article]),
      [['H1', 'Art. 28.º']],
    );
    const csv = reportCsv(createI18n('en'), page);
    assert.match(csv, new RegExp(`C0: ${MAX_TABLE_CORRECTIONS} of its ${VOIDS} voids and corrections of this day are listed here`));
  });
});
