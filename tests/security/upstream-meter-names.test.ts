// A table whose key leaked (or a buggy one) sends meter names no ledger writes, or more meter deltas
// in one entry than a ledger ever writes. The ingest took any name and any count: each name a row of
// the meters projection for good (answered whole by GET /v1/terminals/:id/meters), and each triple
// a row every gaming day's report grouped. The entry is stored (the journal is a hash chain: a
// refusal stops the table's sync for good), its meters that no ledger writes are neither projected
// nor reported, and the batch raises `meter-unreadable` naming the seqs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GamingDayReport } from '../../backoffice/src/report-model.js';
import { alarms, meters } from '../../upstream/queries.js';
import { isLedgerMeterName, ledgerMeterNameSql, MAX_ENTRY_METERS, MAX_METER_LEVELS, MAX_METER_NOTES } from '../../upstream/ingest/report-fields.js';
import { METER_NAMES } from '../../protocol/meters.js';
import { MAX_TABLE_STATIONS } from '../../terms/stations.js';
import { kitOfSuite } from './backoffice-kit.js';
import { lyingTable, type LyingEntry } from './lying-journal-kit.js';

const DAY = '2026-11-26';
const TS = '2026-11-26T02:00:00.000Z'; // 10:00 in Macau, inside the gaming day from 06:00
const credit = (meters: unknown[]): LyingEntry => ({ type: 'bill.credit', ts: TS, payload: { station: 1, denomination: 100 }, meters });
const HONEST = [
  ['station:1', 'billsIn.100', 1],
  ['table', 'billsIn.100', 1],
  ['station:1', 'totalBillsIn', 100],
  ['table', 'totalBillsIn', 100],
  ['station:1', 'totalIn', 100],
  ['table', 'totalIn', 100],
];
const JUNK = Array.from({ length: 4_000 }, (_, i) => `junk${i}`).flatMap((n) => [
  ['table', n, 1],
  ['station:1', n, 1],
]);

describe('meter names and counts no ledger writes', () => {
  const suite = kitOfSuite('accounting');

  it('4,000 unknown names (8,000 deltas): the entry stored and alarmed by its seq, only the ledger’s names projected, the sync goes on', async () => {
    const { kit } = suite;
    const liar = await lyingTable(kit.app, kit.db, 'N1');
    const r = await liar.send([credit(HONEST), credit([...HONEST, ...JUNK])]);
    assert.equal(r.statusCode, 200, r.body.slice(0, 300));
    const rows = await meters(kit.db, 'N1');
    assert.deepEqual(
      rows.filter((m) => m.scope === 'table').map((m) => [m.name, m.value]),
      [
        ['billsIn.100', 2],
        ['totalBillsIn', 200],
        ['totalIn', 200],
      ],
    );
    assert.ok(rows.length <= 6, `the projection holds ${rows.length} rows`);
    const raised = (await alarms(kit.db, 'N1')).filter((a) => a.kind === 'meter-unreadable');
    assert.equal(raised.length, 1);
    assert.deepEqual((raised[0]?.detail as { seqs: number[] }).seqs, [2]);
    assert.equal((await liar.send([credit(HONEST)])).statusCode, 200, 'the next batch is taken');
  });

  it(`more than ${MAX_ENTRY_METERS} meter deltas in one entry: stored and alarmed, none of them projected nor in the day's report`, async () => {
    const { kit, who } = suite;
    const liar = await lyingTable(kit.app, kit.db, 'N2');
    const many = Array.from({ length: MAX_ENTRY_METERS + 1 }, () => ['table', 'totalIn', 1]);
    const r = await liar.send([credit(HONEST), credit(many)]);
    assert.equal(r.statusCode, 200, r.body.slice(0, 300));
    assert.deepEqual(
      (await meters(kit.db, 'N2')).filter((m) => m.scope === 'table' && m.name === 'totalIn').map((m) => m.value),
      [100],
    );
    const raised = (await alarms(kit.db, 'N2')).filter((a) => a.kind === 'meter-unreadable');
    assert.deepEqual((raised[0]?.detail as { seqs: number[] }).seqs, [2]);
    const got = await kit.app.inject({ method: 'GET', url: `/backoffice/api/reports/gaming-day?date=${DAY}`, headers: { cookie: who.cookie } });
    assert.equal(got.statusCode, 200, got.body.slice(0, 300));
    const report = GamingDayReport.parse(got.json());
    assert.deepEqual(
      report.lines.filter((l) => l.terminalId === 'N2' && l.scope === 'table').map((l) => l.creditsIn),
      [100],
    );
  });

  it('the names a ledger writes are known, in JavaScript and in SQL alike', async () => {
    const { kit } = suite;
    // protocol/meters.ts words the ledger's meters; the pool of a level is the export's, not a meter; AFT's are the ledger's too.
    const ledger = METER_NAMES.flatMap((n) =>
      n === 'billsIn' ? ['billsIn.100', 'billsIn.50000'] : n === 'progressivePool' ? [] : n.startsWith('progressive') ? [`${n}.main`, `${n}.mini-2`] : [n],
    );
    const names = [...ledger, 'aftIn', 'aftOut', 'aftInAmount', 'aftOutAmount'];
    const junk = [
      'junk',
      'totalin',
      'billsIn',
      'billsIn.',
      'billsIn.0',
      'billsIn.007',
      'progressiveWins',
      'progressiveWins.Main',
      'progressivePool.main',
      'totalIn.x',
      ' totalIn',
      'toString',
    ];
    for (const n of names) assert.ok(isLedgerMeterName(n), n);
    for (const n of junk) assert.ok(!isLedgerMeterName(n), n);
    const r = await kit.db.query<{ name: string; ok: boolean }>(
      `SELECT m->>1 AS name, ${ledgerMeterNameSql('m')} AS ok FROM jsonb_array_elements($1::jsonb) m`,
      [JSON.stringify([...names, ...junk].map((n) => ['table', n, 1]))],
    );
    assert.deepEqual(
      r.rows.map((x) => [x.name, x.ok]),
      [...names, ...junk].map((n) => [n, isLedgerMeterName(n)]),
    );
  });

  it('an honest settlement of every station a table may have is within the bound', () => {
    // round.settle: creditsWon of the station and the table, gamesPlayed and one of gamesWon/Lost/Tied per station, the table's gamesPlayed.
    assert.ok(MAX_ENTRY_METERS >= MAX_TABLE_STATIONS * 4 + 1);
  });
});

// A ledger's own names, but a new note or jackpot level each: billsIn.N takes any denomination and
// progressive*.<level> any level id, so entry after entry a table grew the projection without end.
describe('note denominations and jackpot levels a table has', () => {
  const suite = kitOfSuite('accounting');

  it(`more than ${MAX_METER_NOTES} notes or ${MAX_METER_LEVELS} levels: the first kept, the rest stored, alarmed and not projected; known ones still counted`, async () => {
    const { kit } = suite;
    const liar = await lyingTable(kit.app, kit.db, 'N3');
    const notes = (from: number) => credit(Array.from({ length: 40 }, (_, i) => ['table', `billsIn.${from + i}`, 1]));
    const levels = (from: number) => credit(Array.from({ length: 10 }, (_, i) => ['table', `progressiveWins.l${from + i}`, 1]));
    const r = await liar.send([notes(1), notes(41), notes(81), levels(0), levels(10)]);
    assert.equal(r.statusCode, 200, r.body.slice(0, 300));
    const after = await liar.send([
      credit([
        ['table', 'billsIn.1', 1],
        ['table', 'progressiveWins.l0', 1],
        ['table', 'billsIn.1000', 1],
      ]),
    ]);
    assert.equal(after.statusCode, 200, 'the sync goes on');
    const rows = await meters(kit.db, 'N3', 'table');
    const noteRows = rows.filter((m) => m.name.startsWith('billsIn.'));
    const levelRows = rows.filter((m) => m.name.startsWith('progressiveWins.'));
    assert.equal(noteRows.length, MAX_METER_NOTES);
    assert.equal(levelRows.length, MAX_METER_LEVELS);
    assert.equal(noteRows.find((m) => m.name === 'billsIn.1')?.value, 2);
    assert.equal(levelRows.find((m) => m.name === 'progressiveWins.l0')?.value, 2);
    assert.equal(
      noteRows.find((m) => m.name === 'billsIn.1000'),
      undefined,
    );
    const seqs = (await alarms(kit.db, 'N3'))
      .filter((a) => a.kind === 'meter-unreadable')
      .flatMap((a) => [
        (a.detail as { seqs: number[] }).seqs,
        ...((a.detail as { repeated?: { later: { seqs: number[] }[] } }).repeated?.later ?? []).map((l) => l.seqs),
      ]);
    assert.deepEqual(seqs, [[2, 3, 5], [6]]);
  });
});
