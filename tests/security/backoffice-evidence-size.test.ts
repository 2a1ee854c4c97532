// A table whose key leaked journals a round's id on entry after entry of a megabyte (a card.read's
// fields past the round id are read by nothing at ingest): a round's evidence read every body of
// the round into the upstream's one process, however many and however large, before it could tell
// the round was no ledger's. The entries' sizes are summed first: past MAX_ROUND_TEXT the round is
// refused unreadable (422), no body read.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_ROUND_TEXT, roundEvidence } from '../../upstream/backoffice/round-evidence.js';
import { kitOfSuite } from './backoffice-kit.js';
import { lyingTable } from './lying-journal-kit.js';

describe("a round's evidence and a round of entries too large for one", () => {
  const suite = kitOfSuite('supervisor');

  it(`a round whose entries hold more than ${MAX_ROUND_TEXT} bytes: refused unreadable`, async () => {
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
    assert.equal(await roundEvidence(kit.db, 'E1', 'RBIG', new Date()), 'round-unreadable');
  });
});
