// A table whose credentials leaked syncs entries whose `credits` name stations no table has: a
// review sent 3 batches of 7 entries each carrying 60,000 fractional stations, and the floor held
// every one in its in-process map for good (1,260,000 stations, the heap +205 MB, each floor read
// 413→763 ms; the page said "stations: 1,260,000"). An entry's credits are the ledger's derivation
// (ledger/derive.ts): one [station, before, after] per station the entry moves, a station's number
// 1–7 or 101–2100, a credit a whole number of minor units never below zero. Anything else is
// refused at ingest, as every figure the upstream reads back is (upstream/ingest/report-fields.ts),
// and the floor reads only such triples of the rows stored before that check existed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isStationNumber, MAX_REMOTE_STATIONS, MAX_STATION, MAX_STATIONS, REMOTE_STATION_BASE } from '../../protocol/units.js';
import { isTableStation, MAX_TABLE_STATIONS } from '../../terms/stations.js';
import { kitOfSuite, type BackofficeKit } from './backoffice-kit.js';
import { lyingBody, lyingTable, type LyingEntry } from './lying-journal-kit.js';

const TS = '2026-11-26T02:00:00.000Z';
const note = (credits: unknown): LyingEntry => ({ type: 'station.note', ts: TS, credits });

/** The review's batch `b`: 7 entries of 60,000 fractional stations each. */
const flood = (b: number): LyingEntry[] =>
  Array.from({ length: 7 }, (_, k) => note(Array.from({ length: 60_000 }, (_, i) => [b * 1e6 + k * 1e5 + i + 0.5, 0, 1])));

/** Every station a table may have, each with credit. */
const everyStation = (): [number, number, number][] => [
  ...Array.from({ length: MAX_STATIONS }, (_, i): [number, number, number] => [i + 1, 0, 100]),
  ...Array.from({ length: MAX_REMOTE_STATIONS }, (_, i): [number, number, number] => [REMOTE_STATION_BASE + 1 + i, 0, 100]),
];

const LIES: [string, unknown][] = [
  ['a fractional station', [[1.5, 0, 1]]],
  ['station 0', [[0, 0, 1]]],
  [`station ${MAX_STATIONS + 1}`, [[MAX_STATIONS + 1, 0, 1]]],
  [`station ${MAX_STATION + 1}`, [[MAX_STATION + 1, 0, 1]]],
  ['a credit below zero', [[1, 0, -1]]],
  ['a fractional credit', [[1, 0, 0.5]]],
  ['a credit past 2^53', [[1, 0, 2 ** 60]]],
  ['a credit in words', [[1, 0, 'ten']]],
  ['a pair, not a triple', [[1, 0]]],
  ['credits that are an object', { 1: 100 }],
  ['more triples than a table has stations', [...everyStation(), [1, 100, 200]]],
];

async function floorStations(kit: BackofficeKit, cookie: string, terminal: string): Promise<number | undefined> {
  const r = await kit.app.inject({ method: 'GET', url: '/backoffice/api/floor', headers: { cookie } });
  assert.equal(r.statusCode, 200, r.body.slice(0, 300));
  const rows = r.json() as { terminalId: string; stations: number }[];
  return rows.find((x) => x.terminalId === terminal)?.stations;
}

describe("a table's credits that name no station", () => {
  // One upstream for the cases (each a second of set-up), each its own table.
  const suite = kitOfSuite('viewer');
  it("the upstream's stations are the engine's (terms/stations.ts cannot import them)", () => {
    assert.equal(MAX_TABLE_STATIONS, MAX_STATIONS + MAX_REMOTE_STATIONS);
    for (let n = -1; n <= MAX_STATION + 2; n++) assert.equal(isTableStation(n), isStationNumber(n), `station ${n}`);
    assert.equal(isTableStation(1.5), false);
    assert.equal(isTableStation('1'), false);
  });

  it("the review's flood: each batch refused with nothing stored, and the floor holds none of it", async () => {
    const { kit, who } = suite;
    const liar = await lyingTable(kit.app, kit.db, 'T9-flood');
    for (let b = 0; b < 3; b++) {
      const r = await liar.send(flood(b));
      assert.equal(r.statusCode, 422, r.body.slice(0, 300));
      assert.match(r.body, /bad-entry/);
    }
    const stored = await kit.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM journal WHERE terminal_id = 'T9-flood'`);
    assert.equal(stored.rows[0]?.n, 0);
    assert.equal(await floorStations(kit, who.cookie, 'T9-flood'), 0);
  });

  it('every station a table may have is taken, and the floor counts each once', async () => {
    const { kit, who } = suite;
    const table = await lyingTable(kit.app, kit.db, 'T1');
    const r = await table.send([note(everyStation()), note([[MAX_STATION, 100, 0]])]);
    assert.equal(r.statusCode, 200, r.body.slice(0, 300));
    assert.equal(await floorStations(kit, who.cookie, 'T1'), MAX_STATIONS + MAX_REMOTE_STATIONS);
  });

  it('rows stored before the check existed: the floor holds only the stations a table may have', async () => {
    const { kit, who } = suite;
    const liar = await lyingTable(kit.app, kit.db, 'T9');
    assert.equal((await liar.send([note([[2, 0, 500]])])).statusCode, 200);
    // As an upstream of the version before kept them: T9's entries 2 and 3.
    const kept: LyingEntry[] = [
      note(Array.from({ length: 5_000 }, (_, i) => [1e6 + i + 0.5, 0, 1])),
      note([
        [3, 0, 7],
        [3.5, 0, 1],
        [4, 0, -5],
        [9, 0, 1],
      ]),
    ];
    for (const [i, e] of kept.entries()) {
      const doc = lyingBody('T9', i + 2, e);
      await kit.db.query(
        `INSERT INTO journal (terminal_id, seq, type, ts, content_hash, prev_hash, hash, body, doc) VALUES ('T9', $1, $2, $3, 'c', 'p', 'h', $4, $5::jsonb)`,
        [i + 2, e.type, e.ts, doc, doc],
      );
    }
    // Stations 2 and 3; neither the fractions, nor a credit below zero, nor station 9.
    assert.equal(await floorStations(kit, who.cookie, 'T9'), 2);
  });
});

describe('credits no ledger writes, each refused (one upstream, a table each)', () => {
  const held = kitOfSuite('viewer');
  for (const [i, [name, credits]] of LIES.entries()) {
    it(`${name}: refused at ingest as bad-entry, and the table syncs on once its credits are a ledger's`, async () => {
      const liar = await lyingTable(held.kit.app, held.kit.db, `L${i}`);
      const r = await liar.send([note(credits)]);
      assert.equal(r.statusCode, 422, r.body.slice(0, 300));
      assert.match(r.body, /bad-entry/);
      assert.equal((await liar.send([note([[1, 0, 100]])])).statusCode, 200);
      assert.equal(await floorStations(held.kit, held.who.cookie, `L${i}`), 1);
    });
  }
});
