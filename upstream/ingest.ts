import { chainHash, genesisHash, sha256Hex } from './chain.js';
import { isTicketEntryType, parseTicketEntry, type TicketEntry } from '../terms/ticket-terms.js';
import { raiseAlarm } from './alarm.js';
import { applyTicketEntries } from './tickets.js';
import type { Db } from './sql.js';

// Others import it from here still (the back office); it lives in alarm.ts, which the tickets import without a loop.
export { raiseAlarm };

export interface IngestEntry {
  seq: number;
  hash: string;
  body: string;
}

export interface IngestBatch {
  terminalId: string;
  prevHash: string;
  entries: IngestEntry[];
}

export type IngestResult =
  | { status: 200; ackedSeq: number; headHash: string; inserted: number; duplicates: number }
  | { status: 409; error: 'gap'; ackedSeq: number; headHash: string; message: string }
  | { status: 409; error: 'divergence'; seq: number; ackedSeq: number; headHash: string; message: string }
  | { status: 422; error: 'bad-chain' | 'bad-entry'; seq: number; message: string };

export class Refused extends Error {
  constructor(readonly result: Exclude<IngestResult, { status: 200 }>) {
    super(result.message);
  }
}

/** ISO 8601 as the kiosk writes it (ledger/canonical.ts: toISOString with an offset); what PostgreSQL's timestamptz reads. */
const ISO_TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/;

/**
 * The checks on one entry's body text before it is stored, pure (fuzzed in tests/fuzz/). A body
 * must parse as JSON, name this terminal and seq, carry a type and an ISO timestamp, and hold no
 * NUL character (PostgreSQL's jsonb cannot store one, and would answer 500 instead of refusing).
 */
export function checkEntryBody(terminal: string, e: IngestEntry): Body & { type: string; ts: string } {
  const refuse = (why: string) => new Refused({ status: 422, error: 'bad-entry', seq: e.seq, message: `seq ${e.seq}: ${why}` });
  let parsed: unknown;
  try {
    parsed = JSON.parse(e.body);
  } catch {
    throw refuse('body is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw refuse('body is not a JSON object');
  const body = parsed as Body;
  if (
    body.terminal !== terminal ||
    body.seq !== e.seq ||
    typeof body.type !== 'string' ||
    typeof body.ts !== 'string' ||
    !ISO_TS.test(body.ts) ||
    Number.isNaN(Date.parse(body.ts))
  ) {
    throw refuse('body names another terminal or sequence, or lacks type/ts');
  }
  if (holdsNul(parsed)) throw refuse('body holds a NUL character');
  return { ...body, type: body.type, ts: body.ts };
}

function holdsNul(v: unknown): boolean {
  if (typeof v === 'string') return v.includes('\u0000');
  if (Array.isArray(v)) return v.some(holdsNul);
  if (typeof v === 'object' && v !== null) return Object.entries(v).some(([k, x]) => k.includes('\u0000') || holdsNul(x));
  return false;
}

interface Body {
  payload?: unknown;
  terminal?: unknown;
  seq?: unknown;
  ts?: unknown;
  type?: unknown;
  txId?: unknown;
  meters?: unknown;
}

/**
 * One batch in one transaction, serialised per terminal by locking its `heads` row:
 * - entries at or below the head must carry the hash already stored (a retry: harmless);
 *   a different hash is a divergent history → 409 and an alarm;
 * - a batch starting beyond head+1 is a gap → 409 with the head, so the kiosk resends from it;
 * - new entries must chain: SHA-256(body) is their content hash, and each hash links to the
 *   previous; they are inserted with ON CONFLICT (terminal_id, seq) DO NOTHING, and the meter
 *   deltas they carry are added to the meters projection.
 * The answer is the acknowledgement: the head's sequence and hash after the batch.
 */
export async function ingest(db: Db, batch: IngestBatch): Promise<IngestResult> {
  const t = batch.terminalId;
  try {
    return await db.transaction(async (tx) => {
      const headRow = await tx.query<{ seq: number; hash: string }>('SELECT seq, hash FROM heads WHERE terminal_id = $1 FOR UPDATE', [t]);
      const head = headRow.rows[0];
      if (!head) throw new Error(`terminal ${t} has no head row`);
      const entries = batch.entries;
      const first = entries[0];
      if (!first) return { status: 200, ackedSeq: head.seq, headHash: head.hash, inserted: 0, duplicates: 0 };
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
      // Retransmitted part: compare hashes with what is stored.
      const lastOld = Math.min(head.seq, first.seq + entries.length - 1);
      let duplicates = 0;
      if (first.seq <= lastOld) {
        const stored = await tx.query<{ seq: number; hash: string }>(
          'SELECT seq, hash FROM journal WHERE terminal_id = $1 AND seq BETWEEN $2 AND $3 ORDER BY seq',
          [t, first.seq, lastOld],
        );
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
      }
      const fresh = entries.filter((e) => e.seq > head.seq);
      if (fresh.length === 0) return { status: 200, ackedSeq: head.seq, headHash: head.hash, inserted: 0, duplicates };

      // The hash before the first new entry is the head's; for a batch that starts below the head
      // the retransmitted entries just matched the stored ones, so their last hash is the head's too.
      let prev = head.seq === 0 ? genesisHash(t) : head.hash;
      if (first.seq === head.seq + 1 && batch.prevHash !== prev) {
        throw new Refused({ status: 422, error: 'bad-chain', seq: first.seq, message: 'prevHash of the batch is not the hash of the previous entry' });
      }
      const cols = {
        seq: [] as number[],
        type: [] as string[],
        tx: [] as (string | null)[],
        ts: [] as string[],
        content: [] as string[],
        prev: [] as string[],
        hash: [] as string[],
        body: [] as string[],
      };
      const meters = new Map<string, number>();
      const tickets: { seq: number; entry: TicketEntry | null }[] = [];
      for (const e of fresh) {
        const content = sha256Hex(e.body);
        if (chainHash(prev, content) !== e.hash) {
          throw new Refused({
            status: 422,
            error: 'bad-chain',
            seq: e.seq,
            message: `seq ${e.seq}: hash does not chain from the previous entry over SHA-256(body)`,
          });
        }
        const body = checkEntryBody(t, e);
        if (Array.isArray(body.meters)) {
          for (const m of body.meters as unknown[]) {
            if (!Array.isArray(m) || typeof m[0] !== 'string' || typeof m[1] !== 'string' || !Number.isSafeInteger(m[2])) continue;
            const k = `${m[0]}\u0000${m[1]}`;
            meters.set(k, (meters.get(k) ?? 0) + (m[2] as number));
          }
        }
        cols.seq.push(e.seq);
        cols.type.push(body.type);
        cols.tx.push(typeof body.txId === 'string' ? body.txId : null);
        cols.ts.push(body.ts);
        cols.content.push(content);
        cols.prev.push(prev);
        cols.hash.push(e.hash);
        cols.body.push(e.body);
        if (isTicketEntryType(body.type)) tickets.push({ seq: e.seq, entry: parseTicketEntry(body.type, body.payload) });
        prev = e.hash;
      }
      const ins = await tx.query(
        `INSERT INTO journal (terminal_id, seq, type, tx_id, ts, content_hash, prev_hash, hash, body, doc)
         SELECT $1, u.seq, u.type, u.tx, u.ts::timestamptz, u.content, u.prev, u.hash, u.body, u.body::jsonb
         FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
           AS u(seq, type, tx, ts, content, prev, hash, body)
         ON CONFLICT (terminal_id, seq) DO NOTHING`,
        [t, cols.seq, cols.type, cols.tx, cols.ts, cols.content, cols.prev, cols.hash, cols.body],
      );
      if (ins.rowCount !== fresh.length) throw new Error(`inserted ${ins.rowCount} of ${fresh.length} rows under the head lock`);
      if (meters.size) {
        const keys = [...meters.keys()].map((k) => k.split('\u0000'));
        await tx.query(
          `INSERT INTO meters (terminal_id, scope, name, value)
           SELECT $1, u.scope, u.name, u.delta FROM unnest($2::text[], $3::text[], $4::bigint[]) AS u(scope, name, delta)
           ON CONFLICT (terminal_id, scope, name) DO UPDATE SET value = meters.value + excluded.value`,
          [t, keys.map((k) => k[0]), keys.map((k) => k[1]), [...meters.values()]],
        );
      }
      // The tables' ticket entries settle the authority's register in this same transaction, each once.
      // An entry that does not fit its schema is stored (the journal is the table's) and alarmed, never believed.
      const unreadable = tickets.filter((x) => x.entry === null).map((x) => x.seq);
      if (unreadable.length) await raiseAlarm(tx, t, 'ticket-entry-unreadable', { seqs: unreadable });
      await applyTicketEntries(
        tx,
        t,
        tickets.flatMap((x) => (x.entry ? [x.entry] : [])),
      );
      const last = fresh[fresh.length - 1] as IngestEntry;
      await tx.query('UPDATE heads SET seq = $2, hash = $3, updated_at = now() WHERE terminal_id = $1', [t, last.seq, last.hash]);
      return { status: 200, ackedSeq: last.seq, headHash: last.hash, inserted: fresh.length, duplicates };
    });
  } catch (e) {
    if (!(e instanceof Refused)) throw e;
    const r = e.result;
    if (r.error !== 'gap') await raiseAlarm(db, t, r.error, { ...r });
    return r;
  }
}
