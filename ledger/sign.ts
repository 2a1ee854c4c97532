import { createHash, createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';

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
});
export type Credentials = z.infer<typeof Credentials>;

export function readCredentials(file: string): Credentials {
  return Credentials.parse(JSON.parse(readFileSync(file, 'utf8')));
}
