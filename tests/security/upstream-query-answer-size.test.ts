// A table whose key leaked journals entries as large as a batch may carry (the ingest checks no
// field of a round.void, nor any of a field it does not read): GET /v1/terminals/:id/rounds
// answered up to 500 closing payloads whole, and /v1/terminals/:id/entries up to 5,000 bodies, each
// up to 1 MB (500 MB and 5 GB). Casino IT's ordinary query read gigabytes into the upstream's one process (the ticket
// authority of the floor). An answer holds entries up to ANSWER_TEXT_BUDGET of their text (always
// the first): the entries route pages on from the last seq answered.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ANSWER_TEXT_BUDGET, entries, rounds } from '../../upstream/queries.js';
import { kitOfSuite } from './backoffice-kit.js';
import { lyingTable, type LyingEntry } from './lying-journal-kit.js';

const TS = '2026-11-26T02:00:00.000Z';
const MB = 'x'.repeat(900_000); // an entry's body is at most 1,000,000 characters (upstream/schemas.ts)
const FAT = 40;

describe('the query routes and entries as large as a batch carries', () => {
  const suite = kitOfSuite('viewer');

  it(`rounds and entries answer at most ${ANSWER_TEXT_BUDGET} bytes of the journal's text, newest rounds first, entries paged on`, async () => {
    const { kit } = suite;
    const liar = await lyingTable(kit.app, kit.db, 'Q1');
    const fat = (i: number): LyingEntry => ({ type: 'round.void', ts: TS, payload: { roundId: `R${i}`, junk: MB } });
    for (let i = 0; i < FAT; i += 5) {
      const r = await liar.send(Array.from({ length: 5 }, (_, k) => fat(i + k)));
      assert.equal(r.statusCode, 200, r.body.slice(0, 300));
    }
    const got = await rounds(kit.db, 'Q1', 500);
    const size = JSON.stringify(got).length;
    assert.ok(size <= ANSWER_TEXT_BUDGET + 2 * MB.length, `the rounds' answer is ${size} bytes`);
    assert.ok(got.length >= 1 && got.length < FAT, `${got.length} rounds`);
    assert.deepEqual(
      got.slice(0, 2).map((r) => (r.round as { roundId: string }).roundId),
      [`R${FAT - 1}`, `R${FAT - 2}`],
    );
    const seen: number[] = [];
    let from = 1;
    for (let page = 0; page < FAT && seen.length < FAT; page += 1) {
      const e = await entries(kit.db, 'Q1', from, 5000);
      assert.ok(e.length >= 1, 'a page holds an entry at least');
      assert.ok(JSON.stringify(e).length <= ANSWER_TEXT_BUDGET + 2 * MB.length, `a page of ${JSON.stringify(e).length} bytes`);
      seen.push(...e.map((x) => x.seq));
      from = (e.at(-1)?.seq ?? 0) + 1;
    }
    assert.deepEqual(
      seen,
      Array.from({ length: FAT }, (_, i) => i + 1),
    );
  });

  it('small entries: as many as asked', async () => {
    const { kit } = suite;
    const liar = await lyingTable(kit.app, kit.db, 'Q2');
    assert.equal((await liar.send(Array.from({ length: 30 }, (_, i) => ({ type: 'round.void', ts: TS, payload: { roundId: `S${i}` } })))).statusCode, 200);
    assert.equal((await rounds(kit.db, 'Q2', 500)).length, 30);
    assert.equal((await entries(kit.db, 'Q2', 1, 5000)).length, 30);
  });
});
