import Database from 'better-sqlite3';
import { openTiltsOn, UNRESOLVED_ESCROWS, unresolvedEscrowOf, type OpenTilt, type UnresolvedEscrow } from './floor-queries.js';
import { rowToEntry, type JournalEntry, type JournalRow } from './ledger.js';
import { IN_PRINT } from './ticket-queries.js';

/**
 * A read-only look at a ledger file that another process is writing (WAL lets a reader in beside
 * the writer): for the soak and the kill-and-restart tests, which watch a host child's journal.
 * Not `Ledger.open`: that migrates, checks integrity and claims the file for a terminal, none of
 * which a watcher polling every few milliseconds may do to a file it does not own.
 */
export interface LedgerReader {
  /**
   * The newest seq after `afterSeq` and how many rounds closed (settled or voided) after it;
   * `headSeq` is null when nothing was written since. Lets a watcher count incrementally.
   */
  roundsClosedAfter(afterSeq: number): { headSeq: number | null; closed: number };
  /** The first round journalled: its id and every entry of it so far, in order; null before any. */
  firstRound(): { roundId: string; entries: JournalEntry[] } | null;
  /** Where each of the table's transactions begins: the table journals the input it took first in each. */
  tableInputSeqs(): number[];
  /** The notes journalled in escrow and neither credited nor returned, oldest first (what a test that waits on them names when they stay). */
  unresolvedEscrows(): UnresolvedEscrow[];
  /** How many tickets issued after `afterSeq` (and up to `upToSeq`, if given) are in print now: no end journalled yet. */
  ticketsPrinting(afterSeq: number, upToSeq?: number): number;
  /** The faults raised and not cleared (ledger/floor-queries.ts, `openTilts`). */
  openTilts(): OpenTilt[];
  /** The newest `limit` entries, oldest first: what a test that failed beside the host prints of its journal. */
  tail(limit: number): JournalEntry[];
  close(): void;
}

const TICKETS_PRINTING = `SELECT COUNT(*) AS n FROM journal AS i WHERE ${IN_PRINT} AND seq > ? AND seq <= ?`;

/** Throws when the file does not exist (yet); a query throws while the schema is not there yet. */
export function openLedgerReader(file: string): LedgerReader {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  return {
    roundsClosedAfter(afterSeq) {
      const r = db.prepare("SELECT MAX(seq) AS head, SUM(type IN ('round.settle', 'round.void')) AS closed FROM journal WHERE seq > ?").get(afterSeq) as {
        head: number | null;
        closed: number | null;
      };
      return { headSeq: r.head, closed: r.closed ?? 0 };
    },
    firstRound() {
      const first = db.prepare('SELECT round_id FROM journal WHERE round_id IS NOT NULL ORDER BY seq LIMIT 1').get() as { round_id: string } | undefined;
      if (!first) return null;
      const rows = db.prepare('SELECT * FROM journal WHERE round_id = ? ORDER BY seq').all(first.round_id) as JournalRow[];
      return { roundId: first.round_id, entries: rows.map(rowToEntry) };
    },
    tableInputSeqs() {
      return (db.prepare("SELECT seq FROM journal WHERE type = 'table.input' ORDER BY seq").all() as { seq: number }[]).map((r) => r.seq);
    },
    unresolvedEscrows() {
      return (db.prepare(UNRESOLVED_ESCROWS).all() as { seq: number; body: string }[]).map(unresolvedEscrowOf);
    },
    ticketsPrinting(afterSeq, upToSeq = Number.MAX_SAFE_INTEGER) {
      const r = db.prepare(TICKETS_PRINTING).get(afterSeq, upToSeq) as { n: number };
      return r.n;
    },
    openTilts() {
      return openTiltsOn(db);
    },
    tail(limit) {
      const rows = db.prepare('SELECT * FROM journal ORDER BY seq DESC LIMIT ?').all(limit) as JournalRow[];
      return rows.reverse().map(rowToEntry);
    },
    close() {
      db.close();
    },
  };
}
