import { connectionOf, type Ledger } from './ledger.js';
import { genesisHash } from './canonical.js';

/** The sync anchor: what the upstream acknowledged, plus the last error, as stored locally. */
export interface SyncAnchor {
  ackedSeq: number;
  ackedHash: string;
  updatedAt: string | null;
  lastError: string | null;
  lastErrorAt: string | null;
  lastSuccessAt: string | null;
}

/** One entry as it travels upstream: the canonical body is sent verbatim, so the server hashes the same bytes. */
export interface WireEntry {
  seq: number;
  hash: string;
  body: string;
}

export function syncAnchor(ledger: Ledger): SyncAnchor {
  const row = connectionOf(ledger).prepare('SELECT * FROM sync_state WHERE id = 1').get() as
    | {
        acked_seq: number;
        acked_hash: string;
        updated_at: string;
        last_error: string | null;
        last_error_at: string | null;
        last_success_at: string | null;
      }
    | undefined;
  if (!row) {
    return { ackedSeq: 0, ackedHash: genesisHash(ledger.terminalId), updatedAt: null, lastError: null, lastErrorAt: null, lastSuccessAt: null };
  }
  return {
    ackedSeq: row.acked_seq,
    ackedHash: row.acked_hash,
    updatedAt: row.updated_at,
    lastError: row.last_error,
    lastErrorAt: row.last_error_at,
    lastSuccessAt: row.last_success_at,
  };
}

/** Unacknowledged entries: how many, and when the oldest was queued. */
export function outboxStats(ledger: Ledger): { pending: number; oldestQueuedAt: string | null } {
  const r = connectionOf(ledger).prepare('SELECT COUNT(*) AS n, MIN(queued_at) AS oldest FROM outbox').get() as { n: number; oldest: string | null };
  return { pending: r.n, oldestQueuedAt: r.oldest };
}

/**
 * When the newest unacknowledged entry was journalled (null: none waits): with the oldest's, how
 * long they have waited at least, on the clock that journalled them (ledger/unsynced-ages.ts).
 */
export function newestQueuedAt(ledger: Ledger): string | null {
  const r = connectionOf(ledger).prepare('SELECT MAX(queued_at) AS newest FROM outbox').get() as { newest: string | null };
  return r.newest;
}

/**
 * The next batch after `afterSeq`, limited by entry count and by bytes (the bodies' UTF-8 size
 * plus a fixed allowance per entry for the JSON around them). Always at least one entry when
 * one exists, so a single oversized entry still travels.
 */
export function readBatch(ledger: Ledger, afterSeq: number, maxCount: number, maxBytes: number): { prevHash: string; entries: WireEntry[] } {
  const prev = afterSeq === 0 ? genesisHash(ledger.terminalId) : ledger.entry(afterSeq)?.hash;
  if (prev === undefined)
    throw new AckMismatchError(
      `no journal entry ${afterSeq} to resume after: the upstream acknowledged it, this journal does not hold it (its tail cut, or an older copy)`,
    );
  const rows = connectionOf(ledger).prepare('SELECT seq, hash, body FROM journal WHERE seq > ? ORDER BY seq LIMIT ?').all(afterSeq, maxCount) as WireEntry[];
  const entries: WireEntry[] = [];
  let bytes = 0;
  for (const r of rows) {
    const size = Buffer.byteLength(r.body) + 120;
    if (entries.length > 0 && bytes + size > maxBytes) break;
    entries.push(r);
    bytes += size;
  }
  return { prevHash: prev, entries };
}

export class AckMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AckMismatchError';
  }
}

/**
 * Stores the upstream's acknowledgement — only if its hash is the one this ledger holds for that
 * sequence (otherwise the two histories diverge, which is an alarm, never something to paper
 * over) — and empties the outbox up to it, in one transaction.
 */
export function recordAck(ledger: Ledger, ackedSeq: number, ackedHash: string, now = new Date()): void {
  const mine = ackedSeq === 0 ? genesisHash(ledger.terminalId) : ledger.entry(ackedSeq)?.hash;
  if (mine !== ackedHash) {
    throw new AckMismatchError(`upstream acknowledged seq ${ackedSeq} with hash ${ackedHash.slice(0, 16)}…, local is ${mine?.slice(0, 16) ?? 'missing'}`);
  }
  const at = now.toISOString();
  const before = syncAnchor(ledger).ackedSeq;
  const db = connectionOf(ledger);
  db.transaction(() => {
    db.prepare(
      `INSERT INTO sync_state (id, acked_seq, acked_hash, updated_at, last_success_at) VALUES (1, ?, ?, ?, ?)
      ON CONFLICT(id) DO UPDATE SET acked_seq = excluded.acked_seq, acked_hash = excluded.acked_hash,
        updated_at = excluded.updated_at, last_success_at = excluded.last_success_at, last_error = NULL`,
    ).run(ackedSeq, ackedHash, at, at);
    db.prepare('DELETE FROM outbox WHERE seq <= ?').run(ackedSeq);
    // An upstream restored from an older backup acknowledges less than before: requeue.
    if (ackedSeq < before) {
      db.prepare('INSERT OR IGNORE INTO outbox (seq, queued_at) SELECT seq, ts FROM journal WHERE seq > ?').run(ackedSeq);
    }
  })();
}

export function recordSyncError(ledger: Ledger, message: string, now = new Date()): void {
  const a = syncAnchor(ledger);
  const at = now.toISOString();
  connectionOf(ledger)
    .prepare(
      `INSERT INTO sync_state (id, acked_seq, acked_hash, updated_at, last_error, last_error_at) VALUES (1, ?, ?, ?, ?, ?)
    ON CONFLICT(id) DO UPDATE SET last_error = excluded.last_error, last_error_at = excluded.last_error_at`,
    )
    .run(a.ackedSeq, a.ackedHash, at, message.slice(0, 500), at);
}
