// AFT registration as a casino management system drives it (SAS 6.02 §8, long poll 0x73 "AFT
// register gaming machine"), with the simulator's own codecs: no import of hardware/sas/. The
// request is address, 73, length, registration code, and (length 1D) asset number (4 binary, LSB
// first), registration key (20), POS id (4 binary); 80 unregister and FF read go with length 01.
// The answer: address, 73, length 1D, status, asset number, key, POS id, CRC.
import { appendCrc } from './codec.js';
import type { SasHost } from './host.js';

export const REG = { initialise: 0x00, register: 0x01, requestAck: 0x40, unregister: 0x80, read: 0xff } as const;
/** 0x73's registration status. */
export const REG_STATUS = { ready: 0x00, registered: 0x01, pending: 0x40, notRegistered: 0x80 } as const;

const le = (value: number, n: number): number[] => Array.from({ length: n }, (_, i) => Math.floor(value / 256 ** i) % 256);
const unle = (bytes: readonly number[]): number => bytes.reduce((a, b, i) => a + b * 256 ** i, 0);

export interface Registration {
  status: number;
  asset: number;
  key: number[];
  pos: number;
}

/** A 0x73 request: the code alone (80, FF), or the code with asset, key and POS id. */
export function register73Bytes(address: number, code: number, record?: { asset: number; key: readonly number[]; pos: number }): number[] {
  const data = record ? [code, ...le(record.asset, 4), ...record.key, ...le(record.pos, 4)] : [code];
  return appendCrc([address, 0x73, data.length, ...data]);
}

export function read73(a: readonly number[]): Registration {
  if (a[2] !== 0x1d) throw new Error(`0x73 answered with length ${a[2]}`);
  const d = a.slice(3, 3 + 0x1d);
  return { status: d[0] ?? -1, asset: unle(d.slice(1, 5)), key: d.slice(5, 25), pos: unle(d.slice(25, 29)) };
}

export async function register73(h: SasHost, code: number, record?: { asset: number; key: readonly number[]; pos: number }): Promise<Registration> {
  return read73(await h.poll(register73Bytes(h.address, code, record), 'variable'));
}

/** A 20-byte key whose bytes all differ from zero, from a seed. */
export function keyOf(seed: number): number[] {
  return Array.from({ length: 20 }, (_, i) => ((seed * 31 + i * 7) % 255) + 1);
}
