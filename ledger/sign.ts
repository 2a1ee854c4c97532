import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { jsonTextAs } from '../terms/json-text.js';
import { writeFileWhole } from './whole-file.js';

/**
 * Signed requests, one secret key per terminal (issued by `npm run upstream -- enroll`):
 *   signature = hex(HMAC-SHA256(key, METHOD "\n" PATH "\n" TERMINAL "\n" TIMESTAMP_MS "\n" hex(SHA-256(body))))
 * sent as `x-etg-terminal`, `x-etg-timestamp`, `x-etg-signature`. The server (upstream/auth.ts,
 * which repeats this definition because upstream may not import ledger code) refuses a wrong
 * signature, a skewed clock, and a body naming another terminal.
 */
export const SIGNATURE_HEADERS = { terminal: 'x-etg-terminal', timestamp: 'x-etg-timestamp', signature: 'x-etg-signature' } as const;

export function signRequest(key: Buffer, method: string, path: string, terminalId: string, timestampMs: number, body: string): string {
  const digest = createHash('sha256').update(body).digest('hex');
  return createHmac('sha256', key).update(`${method.toUpperCase()}\n${path}\n${terminalId}\n${timestampMs}\n${digest}`).digest('hex');
}

export const Credentials = z.strictObject({
  terminalId: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/),
  /** Base64 of 32 random bytes. */
  key: z.string().min(40).max(100),
  /** The upstream's base URL at enrolment, a default for `--upstream`. */
  upstream: z.string().optional(),
  /** The key the upstream's receipts verify with (Ed25519, DER, base64; ledger/receipts.ts); enrolments before receipts lack it. */
  receiptKey: z.string().max(200).optional(),
});
export type Credentials = z.infer<typeof Credentials>;

/** The credentials saved at `file`, or an error naming it, what is wrong and what to do (JSON.parse's or zod's words alone named no file). */
export function readCredentials(file: string): Credentials {
  const redo = `restore it from the data folder's backup, or have the upstream's operator issue this terminal's key again ("etg upstream enroll --terminal-id ID --rotate") and save it there`;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new Error(`upstream credentials ${file} cannot be read (${e instanceof Error ? e.message : String(e)}): ${redo}`, { cause: e });
  }
  const read = jsonTextAs(text, Credentials, "a terminal's credentials");
  if (!read.ok) throw new Error(`upstream credentials ${file}: ${read.why}: ${redo}`);
  return read.data;
}

/**
 * Checkpoints (ledger/checkpoint.ts) are signed like requests, with HMAC-SHA256 and a secret key
 * of this terminal; it covers the terminal, the seq and hash of the head it states, and the
 * SHA-256 of the state's exact bytes:
 *   signature = hex(HMAC-SHA256(key, "macau-etg-checkpoint v1" "\n" TERMINAL "\n" SEQ "\n" HASH "\n" hex(SHA-256(state))))
 */
export function signCheckpoint(key: Buffer, terminalId: string, seq: number, hash: string, state: string): string {
  const digest = createHash('sha256').update(state).digest('hex');
  return createHmac('sha256', key).update(`macau-etg-checkpoint v1\n${terminalId}\n${seq}\n${hash}\n${digest}`).digest('hex');
}

/** Compares two hex signatures in constant time. */
export function sameSignature(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === 32 && y.length === 32 && timingSafeEqual(x, y);
}

/** Beside the ledger file: the key that signs its checkpoints (32 random bytes, base64, mode 0600). */
export function checkpointKeyFile(ledgerFile: string): string {
  return path.join(path.dirname(ledgerFile), 'ledger-checkpoint.key');
}

/**
 * The terminal's checkpoint key, created on first use. Without it (a copy of the database alone,
 * a key deleted) no checkpoint verifies, and a start verifies the whole journal again: the writer
 * makes the key through `checkpointKeyOf` (checkpoint-key.ts), which sets the lost key's aside.
 * An empty file is no key either: what a power cut leaves of one cut as it was made. It is written
 * whole and flushed, folder included (whole-file.ts), so that a start does not find it so.
 */
export function checkpointKey(ledgerFile: string, create: boolean): Buffer | null {
  const file = checkpointKeyFile(ledgerFile);
  const text = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
  if (text !== '') {
    const key = Buffer.from(text, 'base64');
    if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte key`);
    return key;
  }
  if (!create) return null;
  const key = randomBytes(32);
  writeFileWhole(file, `${key.toString('base64')}\n`, { syncFolder: true });
  return key;
}
