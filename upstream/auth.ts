import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from './sql.js';
import { genesisHash } from './chain.js';
import { MAX_TABLES } from './figure-bound.js';
import { ReceiptSigner } from './receipts.js';

// Signed requests (the kiosk side is ledger/sign.ts):
//   signature = hex(HMAC-SHA256(key, METHOD "\n" PATH "\n" TERMINAL "\n" TIMESTAMP_MS "\n" hex(SHA-256(raw body))))
export const HEADERS = { terminal: 'x-etg-terminal', timestamp: 'x-etg-timestamp', signature: 'x-etg-signature' } as const;

export const TERMINAL_ID = /^[A-Za-z0-9._-]{1,64}$/;

export function expectedSignature(key: Buffer, method: string, path: string, terminalId: string, timestamp: string, rawBody: string): string {
  const digest = createHash('sha256').update(rawBody).digest('hex');
  return createHmac('sha256', key).update(`${method.toUpperCase()}\n${path}\n${terminalId}\n${timestamp}\n${digest}`).digest('hex');
}

export function signatureMatches(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'hex');
  const b = Buffer.from(/^[0-9a-f]{64}$/.test(given) ? given : '', 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The key of a live terminal, cached briefly (a revocation takes effect within `ttlMs`). */
export class KeyStore {
  private cache = new Map<string, { key: Buffer | null; at: number }>();
  constructor(
    private readonly db: Db,
    private readonly ttlMs = 10_000,
    private readonly capacity = 10_000,
  ) {}

  async key(terminalId: string): Promise<Buffer | null> {
    const hit = this.cache.get(terminalId);
    // The monotonic clock: on the wall clock a step back kept a revoked key for the step's length.
    if (hit && performance.now() - hit.at < this.ttlMs) return hit.key;
    const r = await this.db.query<{ key: Buffer | Uint8Array }>('SELECT key FROM terminals WHERE terminal_id = $1 AND revoked_at IS NULL', [terminalId]);
    const raw = r.rows[0]?.key;
    const key = raw ? Buffer.from(raw) : null;
    // Bounded: a flood of forged terminal ids must not grow the cache without end.
    if (this.cache.size >= this.capacity) this.cache.delete(this.cache.keys().next().value ?? '');
    this.cache.set(terminalId, { key, at: performance.now() });
    return key;
  }

  /** Drops a cached key at once (after a rotation on this instance: the old key stops now). */
  forget(terminalId: string): void {
    this.cache.delete(terminalId);
  }
}

export class EnrolError extends Error {}

const TOO_MANY_TABLES =
  `${MAX_TABLES.toLocaleString('en')} tables are enrolled (revoked ones count), the most the floor's totals hold exactly ` +
  '(docs/upstream.md, "At most 4,095 tables"); a new key for an enrolled table is still issued (--rotate)';

/**
 * Enrols a terminal: a fresh 32-byte key, stored here and printed once for the kiosk. An
 * enrolled terminal is refused unless `rotate` (a new key; its journal and head are kept). A new
 * one past MAX_TABLES enrolled (revoked ones too) is refused: the floor's figures add every
 * table's in JavaScript numbers, exact only that far (upstream/figure-bound.ts).
 */
export async function enrolTerminal(db: Db, terminalId: string, rotate = false): Promise<{ terminalId: string; key: string; receiptKey: string }> {
  if (!TERMINAL_ID.test(terminalId)) throw new EnrolError(`bad terminal id "${terminalId}"`);
  const key = randomBytes(32);
  await db.transaction(async (tx) => {
    const existing = await tx.query('SELECT 1 FROM terminals WHERE terminal_id = $1 FOR UPDATE', [terminalId]);
    if (existing.rows.length && !rotate) throw new EnrolError(`terminal ${terminalId} is already enrolled (use --rotate for a new key)`);
    if (existing.rows.length) {
      await tx.query('UPDATE terminals SET key = $2, revoked_at = NULL WHERE terminal_id = $1', [terminalId, key]);
    } else {
      // Two enrolments at once each counted the other's table not yet there: the second waits here.
      await tx.query('LOCK TABLE terminals IN SHARE ROW EXCLUSIVE MODE');
      const n = await tx.query<{ n: number }>('SELECT COUNT(*)::int AS n FROM terminals');
      if ((n.rows[0]?.n ?? 0) >= MAX_TABLES) throw new EnrolError(TOO_MANY_TABLES);
      await tx.query('INSERT INTO terminals (terminal_id, key) VALUES ($1, $2)', [terminalId, key]);
      await tx.query('INSERT INTO heads (terminal_id, seq, hash) VALUES ($1, 0, $2)', [terminalId, genesisHash(terminalId)]);
    }
  });
  // The key its receipts verify with goes with the credentials (upstream/receipts.ts).
  return { terminalId, key: key.toString('base64'), receiptKey: (await ReceiptSigner.load(db)).publicKey };
}

/** Revokes a terminal's key: its requests are refused (within the key cache's lifetime); its journal stays. */
export async function revokeTerminal(db: Db, terminalId: string): Promise<boolean> {
  const r = await db.query('UPDATE terminals SET revoked_at = now() WHERE terminal_id = $1 AND revoked_at IS NULL', [terminalId]);
  return r.rowCount > 0;
}
