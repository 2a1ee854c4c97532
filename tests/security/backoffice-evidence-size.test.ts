// A table whose key leaked journals a round's id on entry after entry of a megabyte (a card.read's
// fields past the round id are read by nothing at ingest): a round's evidence read every body of
// the round into the upstream's one process, however many and however large, before it could tell
// the round was no ledger's. The entries' sizes are summed first: past MAX_ROUND_TEXT the round is
// refused too large (422), no body read. So too a round of more entries than a ledger journals
// under one round id (MAX_ROUND_ENTRIES: a hostile table's 10^6 tiny ones were each read, parsed and
// answered), counted no further than one past the bound, and a round whose first and last entries
// lie more than MAX_ROUND_SPAN apart (its chain proof read every link between): refused before the
// span is read. Nothing stored is touched: the entries stay in the journal, GET /v1/terminals/:id/entries reads them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_ROUND_ENTRIES, MAX_ROUND_SPAN, MAX_ROUND_TEXT, roundEvidence } from '../../upstream/backoffice/round-evidence.js';
import type { Sql } from '../../upstream/index.js';
import { kitOfSuite } from './backoffice-kit.js';
import { lyingTable } from './lying-journal-kit.js';

describe("a round's evidence and a round of entries too large for one", () => {
  const suite = kitOfSuite('supervisor');

  it(`a round whose entries hold more than ${MAX_ROUND_TEXT} bytes: refused too large`, async () => {
    const { kit } = suite;
    await lyingTable(kit.app, kit.db, 'E1');
    // Stored as a liar's batches would store them (the ingest's budget takes 64 MiB a minute), straight into the journal.
    const n = Math.ceil(MAX_ROUND_TEXT / 1_000_000) + 1;
    await kit.db.query(
      `INSERT INTO journal (terminal_id, seq, type, ts, content_hash, prev_hash, hash, body, doc)
       SELECT 'E1', s, 'card.read', now(), 'c', 'p', 'h', b, b::jsonb
       FROM generate_series(1, $1::int) s, LATERAL (SELECT json_build_object('terminal', 'E1', 'seq', s, 'type', 'card.read', 'ts', '2026-11-26T02:00:00.000Z', 'tzOffsetMin', 480,
         'payload', json_build_object('roundId', 'RBIG', 'junk', repeat('x', 999_800)))::text AS b) x`,
      [n],
    );
    await kit.db.query(`UPDATE heads SET seq = $1 WHERE terminal_id = 'E1'`, [n]);
    assert.equal(await roundEvidence(kit.db, 'E1', 'RBIG', new Date()), 'round-too-large');
  });

  it(`a round of ${MAX_ROUND_ENTRIES + 1} tiny entries: refused too large, no body read, said so by the route, every entry kept`, async () => {
    const { kit, who } = suite;
    await lyingTable(kit.app, kit.db, 'E2');
    const n = MAX_ROUND_ENTRIES + 1;
    await kit.db.query(
      `INSERT INTO journal (terminal_id, seq, type, ts, content_hash, prev_hash, hash, body, doc)
       SELECT 'E2', s, CASE WHEN s = $1 THEN 'round.void' ELSE 'card.read' END, now(), 'c', 'p', 'h', b, b::jsonb
       FROM generate_series(1, $1::int) s, LATERAL (SELECT (CASE WHEN s = $1
         THEN json_build_object('tzOffsetMin', 480, 'terminal', 'E2', 'seq', s, 'type', 'round.void', 'ts', '2026-11-26T02:00:00.000Z', 'txId', null, 'meters', '[]'::json,
           'payload', json_build_object('roundId', 'RMANY', 'tableId', 'E2', 'game', 'baccarat', 'profile', 'p', 'cards', '[]'::json, 'decisions', '[]'::json, 'reason', 'test', 'authorisedBy', json_build_array('sup-1')))
         ELSE json_build_object('tzOffsetMin', 480, 'terminal', 'E2', 'seq', s, 'type', 'card.read', 'ts', '2026-11-26T02:00:00.000Z', 'txId', null, 'meters', '[]'::json,
           'payload', json_build_object('roundId', 'RMANY', 'card', '5C')) END)::text AS b) x`,
      [n],
    );
    await kit.db.query(`UPDATE heads SET seq = $1 WHERE terminal_id = 'E2'`, [n]);
    let read = 0;
    const counting: Sql = {
      async query<T>(text: string, params?: unknown[]) {
        const r = await kit.db.query<T>(text, params);
        read += JSON.stringify(r.rows).length;
        return r;
      },
      exec: (text) => kit.db.exec(text),
    };
    assert.equal(await roundEvidence(counting, 'E2', 'RMANY', new Date()), 'round-too-large');
    assert.ok(read < 10_000, `read ${read} bytes from the database`);
    const got = await kit.app.inject({ method: 'GET', url: '/backoffice/api/tables/E2/rounds/RMANY/evidence', headers: { cookie: who.cookie } });
    assert.equal(got.statusCode, 422, got.body.slice(0, 300));
    assert.equal(got.json<{ error: string }>().error, 'round-too-large');
    assert.match(got.json<{ message: string }>().message, /too large.*kept/);
    assert.equal(Number((await kit.db.query<{ n: number }>(`SELECT COUNT(*)::int AS n FROM journal WHERE terminal_id = 'E2'`)).rows[0]?.n), n);
  });

  it(`a round whose first and last entries lie more than ${MAX_ROUND_SPAN} seqs apart: refused too large before the span is read`, async () => {
    const { kit } = suite;
    await lyingTable(kit.app, kit.db, 'E3');
    const last = MAX_ROUND_SPAN + 1;
    const card = {
      tzOffsetMin: 480,
      terminal: 'E3',
      seq: 1,
      type: 'card.read',
      ts: '2026-11-26T02:00:00.000Z',
      txId: null,
      meters: [],
      payload: { roundId: 'RFAR', card: '5C' },
    };
    const end = {
      ...card,
      seq: last,
      type: 'round.void',
      payload: { roundId: 'RFAR', tableId: 'E3', game: 'baccarat', profile: 'p', cards: [], decisions: [], reason: 'test', authorisedBy: ['sup-1'] },
    };
    for (const b of [card, end])
      await kit.db.query(
        `INSERT INTO journal (terminal_id, seq, type, ts, content_hash, prev_hash, hash, body, doc) VALUES ('E3', $1, $2, now(), 'c', 'p', 'h', $3::text, $3::text::jsonb)`,
        [b.seq, b.type, JSON.stringify(b)],
      );
    await kit.db.query(`UPDATE heads SET seq = $1 WHERE terminal_id = 'E3'`, [last]);
    const asked: string[] = [];
    const watching: Sql = {
      async query<T>(text: string, params?: unknown[]) {
        asked.push(text);
        return kit.db.query<T>(text, params);
      },
      exec: (text) => kit.db.exec(text),
    };
    assert.equal(await roundEvidence(watching, 'E3', 'RFAR', new Date()), 'round-too-large');
    assert.ok(!asked.some((t) => /BETWEEN/.test(t)), 'the span is not read');
  });
});
