import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * PINs are stored as scrypt hashes (node:crypto, OpenSSL's implementation: no native add-on).
 * N = 2^15, r = 8, p = 1 is OWASP's minimum for scrypt; a short numeric PIN is still guessable
 * offline, which is why the accounts file is readable by the kiosk user only and lockout guards
 * the online path.
 */
export interface PinHash {
  algorithm: 'scrypt';
  N: number;
  r: number;
  p: number;
  salt: string;
  hash: string;
}

export const SCRYPT_PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

function derive(pin: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  // maxmem must exceed 128·N·r (32 MiB here), which is exactly Node's default ceiling.
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r };
  return new Promise((resolve, reject) => {
    // The async form runs on libuv's pool: a sign-in never stalls a card read on the event loop.
    scrypt(pin.normalize('NFKC'), salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export async function hashPin(pin: string, params: { N: number; r: number; p: number } = SCRYPT_PARAMS): Promise<PinHash> {
  const salt = randomBytes(16);
  const key = await derive(pin, salt, params);
  return { algorithm: 'scrypt', ...params, salt: salt.toString('base64'), hash: key.toString('base64') };
}

export async function verifyPin(pin: string, stored: PinHash): Promise<boolean> {
  const expected = Buffer.from(stored.hash, 'base64');
  const key = await derive(pin, Buffer.from(stored.salt, 'base64'), stored);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * What the journal keeps of an account's PIN hash (`service.account.pin`): SHA-256 over the staff
 * number and the whole scrypt record (parameters, salt, hash). A row whose hash was replaced, or
 * copied from another row, no longer gives the digest journalled for its staff number. The digest
 * tests no PIN guess without the 16-byte salt, which stays in the accounts store: the journal,
 * synced upstream and exported in evidence, carries nothing to brute-force a short PIN with
 * (docs/security.md, "Service sign-in").
 */
export function pinDigest(staff: string, pin: PinHash): string {
  return createHash('sha256').update(['etg-service-pin-digest-v1', staff, pin.algorithm, pin.N, pin.r, pin.p, pin.salt, pin.hash].join('\n')).digest('hex');
}

/** The same hash record (after a check, the row may have been given a new PIN meanwhile). */
export function samePinHash(a: PinHash, b: PinHash): boolean {
  return a.algorithm === b.algorithm && a.N === b.N && a.r === b.r && a.p === b.p && a.salt === b.salt && a.hash === b.hash;
}
