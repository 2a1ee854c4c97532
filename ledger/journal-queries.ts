import { sha256Hex } from './canonical.js';
import { LedgerOpenError } from './db.js';
import { parsePayload, type EntryType, type Payload } from './entries.js';
import { connectionOf, rowToEntry, type JournalEntry, type JournalRow, type Ledger } from './ledger.js';

// Reads of the journal by entry type, for the tools, the service pages and the soak's accounting.

const PAGE = 1000;

/**
 * Entries of the given types from `fromSeq` on, in order, read a page at a time, each body hashed
 * against its content hash. The host acts on old bodies read this way (the stations' and peers'
 * credentials, the service accounts, the transfers), and the start, verifying from the newest
 * checkpoint, re-hashes only the newest entries: a body rewritten under its hash columns by a
 * second process (its trigger dropped and put back) was trusted (a review of 4 December). The
 * content hash is what the chain, the head mark and the witness cover.
 */
export function* entriesOfTypes(ledger: Ledger, types: readonly EntryType[], fromSeq = 1): IterableIterator<JournalEntry> {
  if (types.length === 0) return;
  const page = connectionOf(ledger).prepare(`SELECT * FROM journal WHERE seq >= ? AND type IN (${types.map(() => '?').join(', ')}) ORDER BY seq LIMIT ${PAGE}`);
  let next = fromSeq;
  for (;;) {
    const rows = page.all(next, ...types) as JournalRow[];
    for (const r of rows) {
      if (sha256Hex(r.body) !== r.content_hash)
        throw new LedgerOpenError(`ledger integrity failure: journal entry ${r.seq} (${r.type}) does not hash to its content hash: its body was changed`);
      yield rowToEntry(r);
    }
    if (rows.length < PAGE) return;
    next = (rows[rows.length - 1]?.seq ?? next) + 1;
  }
}

/**
 * The query of `roundEntriesOfTypes` for `typeCount` types (a round id, then the types). The `+`
 * keeps the type index out of it: with both indexes usable SQLite took `journal_type` (every
 * `bet.place` ever journalled, walked for each bet: the SAS feed's "first bet of the round" grew
 * with the journal, ~5 ms a round after 8,000 rounds; a review) over the round's few rows.
 */
export function roundEntriesSql(typeCount: number): string {
  return `SELECT * FROM journal WHERE round_id = ? AND +type IN (${Array.from({ length: typeCount }, () => '?').join(', ')}) ORDER BY seq`;
}

/** A round's entries of the given types, in order (through the journal's round index). */
export function roundEntriesOfTypes(ledger: Ledger, roundId: string, types: readonly EntryType[]): JournalEntry[] {
  if (types.length === 0) return [];
  const rows = connectionOf(ledger)
    .prepare(roundEntriesSql(types.length))
    .all(roundId, ...types) as JournalRow[];
  return rows.map(rowToEntry);
}

/** The newest `limit` entries of one type, newest first. */
export function newestEntriesOfType(ledger: Ledger, type: EntryType, limit: number): JournalEntry[] {
  const rows = connectionOf(ledger).prepare('SELECT * FROM journal WHERE type = ? ORDER BY seq DESC LIMIT ?').all(type, limit) as JournalRow[];
  return rows.map(rowToEntry);
}

/**
 * The program that wrote the journal at `seq`: the hash the newest `power.reset` at or before it
 * names (every start journals one before anything else); null when none does (a journal older
 * than the program hash, or one no host wrote). The table's fold reads an earlier build's entries
 * by their facts, and its checkpoints only under the program that wrote them (docs/ledger.md, "Upgrades").
 */
export function programAt(ledger: Ledger, seq: number): string | null {
  const row = connectionOf(ledger).prepare("SELECT * FROM journal WHERE type = 'power.reset' AND seq <= ? ORDER BY seq DESC LIMIT 1").get(seq) as
    JournalRow | undefined;
  if (!row) return null;
  const payload = (JSON.parse(rowToEntry(row).body) as { payload?: { programHash?: unknown } }).payload;
  return typeof payload?.programHash === 'string' ? payload.programHash : null;
}

/** How many entries of the given types the journal holds. */
export function entryCount(ledger: Ledger, types: readonly EntryType[]): number {
  if (types.length === 0) return 0;
  const r = connectionOf(ledger)
    .prepare(`SELECT COUNT(*) AS n FROM journal WHERE type IN (${types.map(() => '?').join(', ')})`)
    .get(...types) as { n: number };
  return r.n;
}

/** Rounds settled or voided so far. */
export function closedRoundCount(ledger: Ledger): number {
  return entryCount(ledger, ['round.settle', 'round.void']);
}

/** The size of every canonical body in the journal, in UTF-8 bytes (what sync sends). */
export function journalBodyBytes(ledger: Ledger): number {
  const r = connectionOf(ledger).prepare('SELECT COALESCE(SUM(length(CAST(body AS BLOB))), 0) AS b FROM journal').get() as { b: number };
  return r.b;
}

/** A `rules.record` entry (issue 51) read through its schema, with the entry it is. */
export interface RuleRecordEntry {
  entry: JournalEntry;
  payload: Payload<'rules.record'>;
}

/**
 * The rule set's authorisation in force at `seq` (the newest `rules.record` at or before it that is
 * in force: a change's record that takes effect at the next start is on record, not in force; the
 * newest of all without `seq`): what a round played at `seq` was played under. Null when the
 * journal holds none there (a journal older than the record).
 */
export function ruleRecordAt(ledger: Ledger, seq?: number): RuleRecordEntry | null {
  const row = connectionOf(ledger)
    .prepare("SELECT * FROM journal WHERE type = 'rules.record' AND seq <= ? AND json_extract(body, '$.payload.takesEffect') IS NULL ORDER BY seq DESC LIMIT 1")
    .get(seq ?? Number.MAX_SAFE_INTEGER) as JournalRow | undefined;
  if (!row) return null;
  const entry = rowToEntry(row);
  const body: unknown = JSON.parse(entry.body);
  const payload = typeof body === 'object' && body !== null && 'payload' in body ? body.payload : undefined;
  return { entry, payload: parsePayload('rules.record', payload) };
}

/** The rule-set digests journalled under an authorisation reference (`rules.record`), oldest first, each once. */
export function digestsOfReference(ledger: Ledger, reference: string): string[] {
  const rows = connectionOf(ledger)
    .prepare(
      "SELECT json_extract(body, '$.payload.digest') AS digest FROM journal WHERE type = 'rules.record' AND json_extract(body, '$.payload.reference') = ? ORDER BY seq",
    )
    .all(reference) as { digest: unknown }[];
  return [...new Set(rows.flatMap((r) => (typeof r.digest === 'string' ? [r.digest] : [])))];
}
