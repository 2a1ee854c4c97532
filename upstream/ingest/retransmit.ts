// Where a batch stands against the head: its sequences contiguous, no gap after the head, and its
// part at or below the head (a retry: harmless) carrying the hashes already stored.
import type { Sql } from '../sql.js';
import { Refused, type Head, type IngestEntry } from './batch.js';

/** Refuses a batch whose sequences are not contiguous, or which starts beyond head+1 (a gap: the kiosk resends from the head). */
export function checkPlacement(entries: readonly IngestEntry[], first: IngestEntry, head: Head): void {
  for (let i = 1; i < entries.length; i++) {
    if (entries[i]?.seq !== first.seq + i) {
      throw new Refused({ status: 422, error: 'bad-entry', seq: entries[i]?.seq ?? 0, message: 'batch sequences are not contiguous' });
    }
  }
  if (first.seq > head.seq + 1) {
    throw new Refused({
      status: 409,
      error: 'gap',
      ackedSeq: head.seq,
      headHash: head.hash,
      message: `batch starts at ${first.seq}, the upstream holds up to ${head.seq}`,
    });
  }
}

/** The retransmitted entries (at or below the head), each compared with the hash stored; a different one is a divergent history. */
export async function countDuplicates(tx: Sql, terminal: string, entries: readonly IngestEntry[], first: IngestEntry, head: Head): Promise<number> {
  const lastOld = Math.min(head.seq, first.seq + entries.length - 1);
  let duplicates = 0;
  if (first.seq > lastOld) return duplicates;
  const stored = await tx.query<{ seq: number; hash: string }>('SELECT seq, hash FROM journal WHERE terminal_id = $1 AND seq BETWEEN $2 AND $3 ORDER BY seq', [
    terminal,
    first.seq,
    lastOld,
  ]);
  const bySeq = new Map(stored.rows.map((r) => [r.seq, r.hash]));
  for (const e of entries) {
    if (e.seq > lastOld) break;
    if (bySeq.get(e.seq) !== e.hash) {
      throw new Refused({
        status: 409,
        error: 'divergence',
        seq: e.seq,
        ackedSeq: head.seq,
        headHash: head.hash,
        message: `seq ${e.seq} is stored with hash ${bySeq.get(e.seq)?.slice(0, 16) ?? '(none)'}…, the terminal sent ${e.hash.slice(0, 16)}…`,
      });
    }
    duplicates++;
  }
  return duplicates;
}
