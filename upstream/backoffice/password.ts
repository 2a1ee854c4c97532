import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Passwords of the back office's users, hashed with scrypt (RFC 7914), a memory-hard function:
 * N = 2^15, r = 8, p = 1 makes each guess cost 32 MiB of memory and about 0.1 s of one core here,
 * which is what OWASP's password storage sheet names as scrypt's minimum. The parameters are kept
 * in each stored hash, so raising them later re-hashes nobody's password by surprise.
 */
export const SCRYPT = { N: 2 ** 15, r: 8, p: 1 } as const;
export type ScryptParams = { N: number; r: number; p: number };

const KEY_LENGTH = 32;
/** Shortest password a user may be given (NIST SP 800-63B asks at least 8; a floor's shared screens deserve more). */
export const MIN_PASSWORD_LENGTH = 12;

function derive(password: string, salt: Buffer, p: ScryptParams): Promise<Buffer> {
  const options: ScryptOptions = { N: p.N, r: p.r, p: p.p, maxmem: 256 * p.N * p.r + 1024 * 1024 };
  return new Promise((resolve, reject) => scryptCb(password.normalize('NFC'), salt, KEY_LENGTH, options, (e, key) => (e ? reject(e) : resolve(key))));
}

/** `scrypt$N$r$p$salt$key` (base64): the parameters travel with the hash. */
export async function hashPassword(password: string, params: ScryptParams = SCRYPT): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), key.toString('base64')].join('$');
}

const STORED = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/;

/** Whether `password` is the one `stored` was made from; a malformed stored hash matches nothing. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const m = STORED.exec(stored);
  if (!m) return false;
  const params = { N: Number(m[1]), r: Number(m[2]), p: Number(m[3]) };
  const want = Buffer.from(m[5] ?? '', 'base64');
  const got = await derive(password, Buffer.from(m[4] ?? '', 'base64'), params);
  return got.length === want.length && timingSafeEqual(got, want);
}
