import type { EntryType } from './entries.js';
import { connectionOf, type Ledger } from './ledger.js';

/** An entry that posted money: how many postings it wrote and their sum (0 when it balances). */
export interface PostedEntry {
  seq: number;
  type: EntryType;
  roundId: string | null;
  lines: number;
  total: number;
}

/**
 * Entries after `afterSeq` that posted money, in order, read from the postings table (the
 * projection the balances are built from), not from the bodies: what actually moved.
 */
export function postingsAfter(ledger: Ledger, afterSeq: number): PostedEntry[] {
  return connectionOf(ledger)
    .prepare(
      `SELECT p.seq AS seq, j.type AS type, j.round_id AS roundId, COUNT(*) AS lines, SUM(p.amount) AS total
    FROM postings p JOIN journal j ON j.seq = p.seq WHERE p.seq > ? GROUP BY p.seq ORDER BY p.seq`,
    )
    .all(afterSeq) as PostedEntry[];
}
