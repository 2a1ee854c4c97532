import { genesisHash } from './chain.js';
import { raiseAlarm, raiseRepeatableAlarm } from './alarm.js';
import type { Db, Sql } from './sql.js';
import { Refused, type Head, type IngestBatch, type IngestEntry, type IngestResult } from './ingest/batch.js';
import { freshRows } from './ingest/fresh-rows.js';
import { ENTRY_SKEW_MS, noteMisdated } from './ingest/misdated.js';
import { checkPlacement, countDuplicates } from './ingest/retransmit.js';
import { storeFresh } from './ingest/store.js';

// Others import it from here still (the back office); it lives in alarm.ts, which the tickets import without a loop.
export { raiseAlarm };
// The batch, its answers and the body's checks live in upstream/ingest/ with the ingest's other parts.
export { Refused, type IngestBatch, type IngestEntry, type IngestResult } from './ingest/batch.js';
export { checkEntryBody } from './ingest/entry-body.js';

/**
 * One batch in one transaction, serialised per terminal by locking its `heads` row:
 * - entries at or below the head must carry the hash already stored (a retry: harmless);
 *   a different hash is a divergent history → 409 and an alarm;
 * - a batch starting beyond head+1 is a gap → 409 with the head, so the kiosk resends from it;
 * - new entries must chain: SHA-256(body) is their content hash, and each hash links to the
 *   previous; they are inserted with ON CONFLICT (terminal_id, seq) DO NOTHING, and the meter
 *   deltas they carry are added to the meters projection.
 * New entries dated before the table's last nothing-unsent heartbeat, or ahead of their receipt, by
 * more than `skewMs` are stored too, and kept apart and alarmed (ingest/misdated.ts).
 * The answer is the acknowledgement: the head's sequence and hash after the batch.
 */
export async function ingest(db: Db, batch: IngestBatch, skewMs = ENTRY_SKEW_MS): Promise<IngestResult> {
  const t = batch.terminalId;
  try {
    return await db.transaction((tx) => ingestUnderLock(tx, batch, skewMs));
  } catch (e) {
    if (!(e instanceof Refused)) throw e;
    const r = e.result;
    if (r.error !== 'gap') await raiseRepeatableAlarm(db, t, r.error, { ...r });
    return r;
  }
}

/** The batch against the terminal's head, whose row it locks; a refusal is thrown (and the transaction rolled back). */
async function ingestUnderLock(tx: Sql, batch: IngestBatch, skewMs: number): Promise<IngestResult> {
  const t = batch.terminalId;
  const headRow = await tx.query<Head>('SELECT seq, hash FROM heads WHERE terminal_id = $1 FOR UPDATE', [t]);
  const head = headRow.rows[0];
  if (!head) throw new Error(`terminal ${t} has no head row`);
  const entries = batch.entries;
  const first = entries[0];
  if (!first) return { status: 200, ackedSeq: head.seq, headHash: head.hash, inserted: 0, duplicates: 0 };
  checkPlacement(entries, first, head);
  const duplicates = await countDuplicates(tx, t, entries, first, head);
  const fresh = entries.filter((e) => e.seq > head.seq);
  if (fresh.length === 0) return { status: 200, ackedSeq: head.seq, headHash: head.hash, inserted: 0, duplicates };

  // The hash before the first new entry is the head's; for a batch that starts below the head
  // the retransmitted entries just matched the stored ones, so their last hash is the head's too.
  const prev = head.seq === 0 ? genesisHash(t) : head.hash;
  if (first.seq === head.seq + 1 && batch.prevHash !== prev) {
    throw new Refused({ status: 422, error: 'bad-chain', seq: first.seq, message: 'prevHash of the batch is not the hash of the previous entry' });
  }
  const last = fresh[fresh.length - 1] as IngestEntry;
  await storeFresh(tx, t, freshRows(t, fresh, prev), fresh.length, last);
  await noteMisdated(tx, t, head.seq + 1, last.seq, skewMs);
  return { status: 200, ackedSeq: last.seq, headHash: last.hash, inserted: fresh.length, duplicates };
}
