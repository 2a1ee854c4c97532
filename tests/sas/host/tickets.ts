// The ticket long polls as a casino management system sends and reads them, written from the
// protocol document's layouts (SAS 6.02 §15, as docs/sas.md quotes them: 0x4C, 0x4D, 0x70, 0x71)
// with the simulator's own codecs: no import of hardware/sas/.
import { appendCrc, bcd, unbcd } from './codec.js';
import type { SasHost } from './host.js';

/** Bytes of a binary field, least significant first (§2.2.3). */
const le = (value: number, n: number): number[] => Array.from({ length: n }, (_, i) => Math.floor(value / 256 ** i) % 256);
const unle = (bytes: readonly number[]): number => bytes.reduce((a, b, i) => a + b * 256 ** i, 0);

/** 18 decimal digits as the 9 BCD bytes of parsing code 00. */
export function digitsBcd(digits: string): number[] {
  if (!/^\d{18}$/.test(digits)) throw new Error(`not 18 digits: ${digits}`);
  return Array.from({ length: 9 }, (_, i) => parseInt(digits.slice(2 * i, 2 * i + 2), 16));
}
const hexOf = (bytes: readonly number[]): string => bytes.map((b) => b.toString(16).padStart(2, '0')).join('');

/** 0x70: the ticket in escrow, or null (status FF). */
export async function ticketData70(h: SasHost): Promise<{ amount: number; parsing: number; validation: string } | null> {
  const a = await h.typeR(0x70, 'variable');
  if (a[3] === 0xff) return null;
  if (a[3] !== 0x00) throw new Error(`0x70 ticket status ${a[3]}`);
  return { amount: unbcd(a.slice(4, 9)), parsing: a[9] ?? -1, validation: hexOf(a.slice(10, 19)) };
}

export interface Redeem71 {
  status: number;
  amount: number | null;
  validation: string | null;
}

export function read71(a: number[]): Redeem71 {
  const len = a[2] ?? 0;
  if (len === 1) return { status: a[3] ?? -1, amount: null, validation: null };
  return { status: a[3] ?? -1, amount: unbcd(a.slice(4, 9)), validation: hexOf(a.slice(10, 19)) };
}

/** 0x71 with a transfer code: amount (credits), parsing code 00, the number; optional expiry and pool id (restricted tickets only). */
export function redeem71Bytes(address: number, code: number, amount: number, validation: string): number[] {
  const data = [code, ...bcd(amount, 5), 0x00, ...digitsBcd(validation), ...bcd(0, 4), ...le(0, 2)];
  return appendCrc([address, 0x71, data.length, ...data]);
}

/** 0x71: the system's decision of the ticket in escrow. */
export async function redeem71(h: SasHost, code: number, amount: number, validation: string): Promise<Redeem71> {
  return read71(await h.poll(redeem71Bytes(h.address, code, amount, validation), 'variable'));
}

/** 0x71 transfer code FF: where the ticket stands. */
export async function status71(h: SasHost): Promise<Redeem71> {
  return read71(await h.typeS(0x71, [0x01, 0xff], 'variable'));
}

/** 0x4C: sets (or, with machine id 0, reads) the validation id and sequence; what the machine answers. */
export async function validationId4C(h: SasHost, machineId: number, sequence: number): Promise<{ machineId: number; sequence: number }> {
  const a = await h.typeS(0x4c, [...le(machineId, 3), ...le(sequence, 3)], 10);
  return { machineId: unle(a.slice(2, 5)), sequence: unle(a.slice(5, 8)) };
}

export interface Validation4D {
  type: number;
  index: number;
  date: { month: number; day: number; year: number };
  time: { hour: number; minute: number; second: number };
  /** The 2-digit system id and the 16 digits, as printed. */
  validation: string;
  amount: number;
  ticketNumber: number;
  expires: string;
  poolId: number;
}

/** 0x4D: function 00 (current), 01–1F (index), FF (look ahead); null when the machine answers all zeros. */
export async function validationInfo4D(h: SasHost, fn: number): Promise<Validation4D | null> {
  const a = await h.typeS(0x4d, [fn], 2 + 31 + 2);
  const d = a.slice(2, 33);
  if (d.every((b) => b === 0)) return null;
  return {
    type: d[0] ?? -1,
    index: d[1] ?? -1,
    date: { month: unbcd(d.slice(2, 3)), day: unbcd(d.slice(3, 4)), year: unbcd(d.slice(4, 6)) },
    time: { hour: unbcd(d.slice(6, 7)), minute: unbcd(d.slice(7, 8)), second: unbcd(d.slice(8, 9)) },
    validation: hexOf(d.slice(24, 25)) + hexOf(d.slice(9, 17)),
    amount: unbcd(d.slice(17, 22)),
    ticketNumber: unle(d.slice(22, 24)),
    expires: hexOf(d.slice(25, 29)),
    poolId: unle(d.slice(29, 31)),
  };
}
