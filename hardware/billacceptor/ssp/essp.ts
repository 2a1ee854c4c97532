// eSSP encryption layer (GA138 "Encryption Layer" / "Encryption Keys", research note §1.3):
//   DATA = STEX(0x7E) | AES-128-ECB( eLENGTH | eCOUNT u32 LE | eDATA | ePACKING | eCRC u16 LE )
// padded with random packing to a multiple of 16 bytes; eCRC is the SSP CRC-16 over eLENGTH…
// ePACKING. eCOUNT starts at 0 after each key exchange and increases by one for every encrypted
// packet, sent or received; a packet with the wrong count is discarded. The key is a 64-bit fixed
// part plus a 64-bit Diffie-Hellman part (SET GENERATOR 0x4A, SET MODULUS 0x4B, REQUEST KEY
// EXCHANGE 0x4C, all 8-byte little-endian). As in the field, this protects the bus against casual
// tampering; it is not strong cryptography.
import { createCipheriv, createDecipheriv, randomBytes, randomInt } from 'node:crypto';
import { crc16Ssp } from '../../crc.js';

export const STEX = 0x7e;
export const CMD_SET_GENERATOR = 0x4a;
export const CMD_SET_MODULUS = 0x4b;
export const CMD_REQUEST_KEY_EXCHANGE = 0x4c;
/** The manufacturer's default fixed key part used in ITL's examples. */
export const DEFAULT_FIXED_KEY = 0x0123456701234567n;

export function u64le(n: bigint): number[] {
  const out: number[] = [];
  for (let i = 0n; i < 8n; i++) out.push(Number((n >> (8n * i)) & 0xffn));
  return out;
}

export function readU64le(b: ArrayLike<number>, o = 0): bigint {
  let n = 0n;
  for (let i = 7; i >= 0; i--) n = (n << 8n) | BigInt(b[o + i] ?? 0);
  return n;
}

export function modPow(base: bigint, exp: bigint, mod: bigint): bigint {
  let r = 1n;
  let b = base % mod;
  let e = exp;
  while (e > 0n) {
    if (e & 1n) r = (r * b) % mod;
    b = (b * b) % mod;
    e >>= 1n;
  }
  return r;
}

function randomBig(bits: number): bigint {
  const bytes = randomBytes(Math.ceil(bits / 8));
  let n = 0n;
  for (const x of bytes) n = (n << 8n) | BigInt(x);
  return (n & ((1n << BigInt(bits)) - 1n)) | (1n << BigInt(bits - 1)) | 1n;
}

/** Miller–Rabin with fixed bases: deterministic for n < 3.3e24, far beyond the 62-bit primes used. */
export function isPrime(n: bigint): boolean {
  if (n < 2n) return false;
  const small = [2n, 3n, 5n, 7n, 11n, 13n, 17n, 19n, 23n, 29n, 31n, 37n, 41n];
  for (const p of small) if (n % p === 0n) return n === p;
  let d = n - 1n;
  let s = 0;
  while ((d & 1n) === 0n) {
    d >>= 1n;
    s++;
  }
  outer: for (const a of small) {
    let x = modPow(a, d, n);
    if (x === 1n || x === n - 1n) continue;
    for (let i = 1; i < s; i++) {
      x = (x * x) % n;
      if (x === n - 1n) continue outer;
    }
    return false;
  }
  return true;
}

export function randomPrime(bits: number): bigint {
  for (;;) {
    const c = randomBig(bits);
    if (isPrime(c)) return c;
  }
}

/** A secret exponent for one side of the exchange. */
export function randomSecret(): bigint {
  return BigInt(randomInt(1, 2 ** 47)) * 65536n + BigInt(randomInt(0, 65536));
}

export function aesKey(fixedKey: bigint, negotiated: bigint): Buffer {
  return Buffer.from([...u64le(fixedKey), ...u64le(negotiated)]);
}

export class EsspSession {
  count = 0;
  private lastIn: Buffer | null = null;
  private lastPlain: Uint8Array | null = null;
  constructor(private readonly key: Buffer) {}

  /** Wraps plain command/reply data into an encrypted DATA field (and counts the packet). */
  wrap(data: ArrayLike<number>): number[] {
    const body = [data.length, ...u32(this.count), ...Array.from(data)];
    const pad = (16 - ((body.length + 2) % 16)) % 16;
    body.push(...randomBytes(pad));
    const crc = crc16Ssp(Uint8Array.from(body));
    body.push(crc & 0xff, crc >>> 8);
    const c = createCipheriv('aes-128-ecb', this.key, null);
    c.setAutoPadding(false);
    const enc = Buffer.concat([c.update(Uint8Array.from(body)), c.final()]);
    this.count++;
    return [STEX, ...enc];
  }

  /** Unwraps an encrypted DATA field; null if malformed, the CRC is wrong or the count differs. */
  unwrap(data: Uint8Array): Uint8Array | null {
    // A byte-identical repeat of the last packet (SSP's answer to a retried command) is the same
    // message, not a new one: it does not count.
    if (this.lastIn && this.lastPlain && this.lastIn.equals(data)) return this.lastPlain;
    if (data[0] !== STEX || (data.length - 1) % 16 !== 0 || data.length < 17) return null;
    const d = createDecipheriv('aes-128-ecb', this.key, null);
    d.setAutoPadding(false);
    const plain = Buffer.concat([d.update(data.subarray(1)), d.final()]);
    const len = plain[0] ?? 0;
    if (len + 7 > plain.length) return null;
    const crc = crc16Ssp(plain, 0, plain.length - 2);
    if (plain[plain.length - 2] !== (crc & 0xff) || plain[plain.length - 1] !== crc >>> 8) return null;
    const count = (plain[1] ?? 0) | ((plain[2] ?? 0) << 8) | ((plain[3] ?? 0) << 16) | ((plain[4] ?? 0) << 24);
    if (count >>> 0 !== this.count >>> 0) return null;
    this.count++;
    this.lastIn = Buffer.from(data);
    this.lastPlain = Uint8Array.from(plain.subarray(5, 5 + len));
    return this.lastPlain;
  }
}

const u32 = (n: number): number[] => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff];
