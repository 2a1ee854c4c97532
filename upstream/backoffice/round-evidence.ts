import { z } from 'zod';
import { assembleEvidence, roundSpan, type ChainEntry, type EvidenceBundle } from '../../terms/round-evidence.js';
import { roundOfEntries } from '../../terms/round-record.js';
import { ROUND_ENTRY_TYPES } from '../../terms/round-terms.js';
import type { Sql } from '../sql.js';

/**
 * Why a round's evidence is not answered: no such table, no such round, a round another table
 * played, a round still open, a round whose entries do not read as a ledger writes them (a corrupt
 * row, a hostile table's: until a review of 7 December the route answered 500, unaudited), a round
 * larger than any a ledger journals (MAX_ROUND_TEXT, MAX_ROUND_ENTRIES, MAX_ROUND_SPAN: its entries
 * stay stored, GET /v1/terminals/:id/entries reads them).
 */
export type EvidenceRefusal = 'no-table' | 'no-round' | 'round-of-another-table' | 'round-open' | 'round-unreadable' | 'round-too-large';

/**
 * `fn`'s answer, or `round-unreadable` when the round's stored entries do not read: a body that is
 * no JSON (SyntaxError) or does not fit the terms' schemas (ZodError); the record and the bundle are
 * pure. Any other throw is the upstream's own fault and is thrown on, a 5xx logged with its request:
 * until a review of 7 December every throw was a 422 blaming the table's journal, a bug's TypeError too.
 */
export function readable<T>(fn: () => T): T | 'round-unreadable' {
  try {
    return fn();
  } catch (e) {
    if (e instanceof z.ZodError || e instanceof SyntaxError) return 'round-unreadable';
    throw e;
  }
}

interface Row {
  seq: number;
  body: string;
  content_hash: string;
  prev_hash: string;
  hash: string;
}

/**
 * Migration 10: the journal indexed by the round an entry belongs to (its payload's `roundId`, then
 * the table), partial on the entries that have one. The evidence lookup below asks a table's round
 * by that id, and whether another table played it; without the index both read every entry of the
 * journal of every table (a sequential scan that grows with the floor's history).
 */
export const ROUND_INDEX_SQL = `
  CREATE INDEX journal_round ON journal ((doc->'payload'->>'roundId'), terminal_id, seq)
    WHERE (doc->'payload'->>'roundId') IS NOT NULL;
`;

/**
 * The most bytes of journal text a round's entries may hold for its evidence to be read. A round a
 * ledger writes is far less (a stadium's settlement of 8,192 lines is about 1.5 MB, its bets a few
 * hundred bytes each); a table whose key leaked could put a round's id on entry after entry of a
 * megabyte, and every body was read into the upstream's one process before the round was found
 * to be no ledger's (tests/security/backoffice-evidence-size.test.ts). Past it: `round-too-large`.
 */
export const MAX_ROUND_TEXT = 64 * 1024 * 1024;

/**
 * The most entries one round's evidence reads. A ledger journals a round's bets in one entry per
 * station at the close (at most 2,007 stations) and one per decision that raises a stake (at most
 * 512 decisions), a card.read per card (at most 416), a round.decision per decision, its misreads
 * and its close: some 3,500 at most. A table whose key leaked may put one round id on 10^6 tiny
 * entries, each read, parsed and answered. Counted no further than one past it, before any body is
 * read; past it: `round-too-large`.
 */
export const MAX_ROUND_ENTRIES = 16_384;

/**
 * The most seqs from a round's first entry to its last that its chain proof reads (a link, some
 * 140 bytes of the answer, per seq: 36 MB at most). A round spans its own entries and what the table
 * journals meanwhile (its stations' money, a hold's faults); a table whose key leaked may put a
 * round's first and last entries millions of seqs apart, and every link between was read and
 * answered. Past it: `round-too-large`, before the span is read.
 */
export const MAX_ROUND_SPAN = 262_144;

/** The where of a table's entries of one round ($1 the table, $2 the round's entry types, $3 the round). */
const ROUND_WHERE = `terminal_id = $1 AND type = ANY($2::text[]) AND doc->'payload'->>'roundId' = $3`;

/** A table's entries of one round, by the round's id. */
export const ROUND_ENTRIES_SQL = `SELECT seq, body, content_hash, prev_hash, hash FROM journal WHERE ${ROUND_WHERE} ORDER BY seq`;

/**
 * The round's entries counted (to one past MAX_ROUND_ENTRIES: no further, whatever a table journalled),
 * their bytes summed and their first and last seqs, before any body is read out.
 */
const ROUND_SIZE_SQL = `SELECT COUNT(*)::int AS n, COALESCE(SUM(b), 0)::float8 AS bytes, MIN(seq) AS first, MAX(seq) AS last
  FROM (SELECT seq, octet_length(body) AS b FROM journal WHERE ${ROUND_WHERE} ORDER BY seq LIMIT ${MAX_ROUND_ENTRIES + 1}) r`;

/** Whether a round of these entries is more than its evidence reads (MAX_ROUND_ENTRIES, MAX_ROUND_TEXT, MAX_ROUND_SPAN). */
const tooLarge = (r: { n: number; bytes: number; first: number | null; last: number | null }): boolean =>
  Number(r.n) > MAX_ROUND_ENTRIES || Number(r.bytes) > MAX_ROUND_TEXT || Number(r.last ?? 0) - Number(r.first ?? 0) + 1 > MAX_ROUND_SPAN;

/** Whether another table than $1 closed the round $2. */
export const ROUND_ELSEWHERE_SQL = `SELECT 1 FROM journal WHERE terminal_id <> $1 AND type IN ('round.settle', 'round.void') AND doc->'payload'->>'roundId' = $2 LIMIT 1`;

const chainEntry = (r: Row): ChainEntry => ({ seq: Number(r.seq), body: r.body, contentHash: r.content_hash, prevHash: r.prev_hash, hash: r.hash });

/**
 * One round's evidence bundle from the journal a table synced here (issue 49), assembled by the
 * kiosk's own assembly (terms/round-evidence.ts): the same record, entries, chain proof and rules
 * record the table's ledger would give. The head is the newest entry the upstream holds of the
 * table, which is also what it acknowledged to it: once the table is synced, its bundle and this
 * one are equal.
 */
export async function roundEvidence(sql: Sql, terminalId: string, roundId: string, now: Date): Promise<EvidenceBundle | EvidenceRefusal> {
  const head = (await sql.query<{ seq: number; hash: string }>('SELECT seq, hash FROM heads WHERE terminal_id = $1', [terminalId])).rows[0];
  if (!head) return 'no-table';
  const types = [...ROUND_ENTRY_TYPES];
  const size = (await sql.query<{ n: number; bytes: number; first: number | null; last: number | null }>(ROUND_SIZE_SQL, [terminalId, types, roundId])).rows[0];
  if (size && tooLarge(size)) return 'round-too-large';
  const rows = (await sql.query<Row>(ROUND_ENTRIES_SQL, [terminalId, types, roundId])).rows.map(chainEntry);
  if (rows.length === 0) {
    const elsewhere = await sql.query(ROUND_ELSEWHERE_SQL, [terminalId, roundId]);
    return elsewhere.rows.length > 0 ? 'round-of-another-table' : 'no-round';
  }
  const round = readable(() => roundOfEntries(roundId, rows));
  if (round === 'round-unreadable') return round;
  if (!round) return 'round-open';
  const { first, last } = roundSpan(round);
  // The span's links are its seqs and hashes alone: its bodies (a span of big entries read them all
  // into memory, megabytes for a bundle of kilobytes) are never read.
  const chain = (
    await sql.query<Omit<Row, 'body'>>('SELECT seq, content_hash, prev_hash, hash FROM journal WHERE terminal_id = $1 AND seq BETWEEN $2 AND $3 ORDER BY seq', [
      terminalId,
      first,
      last,
    ])
  ).rows.map((r) => ({ seq: Number(r.seq), contentHash: r.content_hash, prevHash: r.prev_hash, hash: r.hash }));
  const rules = (
    await sql.query<Row>(
      // In force at the round's first entry: a change's record that waits for the next start is not (ledger's ruleRecordAt).
      `SELECT seq, body, content_hash, prev_hash, hash FROM journal
       WHERE terminal_id = $1 AND type = 'rules.record' AND seq <= $2 AND doc->'payload'->>'takesEffect' IS NULL
       ORDER BY seq DESC LIMIT 1`,
      [terminalId, first],
    )
  ).rows.map(chainEntry)[0];
  const bundle = readable(() =>
    assembleEvidence({
      terminalId,
      roundId,
      entries: rows,
      chain: () => chain,
      rulesAt: () => rules,
      head: { seq: Number(head.seq), hash: head.hash },
      upstreamAck: Number(head.seq) > 0 ? { seq: Number(head.seq), hash: head.hash } : null,
      now,
    }),
  );
  return bundle ?? 'round-open';
}
