// A ticket's validation number (issue 47 item 2; docs/tito.md, "The validation number"): 18 digits
// made on the table from its machine validation id and the ticket's sequence, without asking
// anyone, so a table offline still prints. The layout is SAS 6.02's "secure enhanced" validation
// (IGT, Slot Accounting System, the ticket validation chapter, as also described by the public
// pointers in docs/tito.md): the casino system that takes the authority's place (issue 48) assigns
// the id by long poll 0x4C and reads the numbers back with 0x4D, and computes the same digits.
//
//   a  = sequence (3 bytes, least significant first) ‖ machine id (3 bytes, least significant first)
//   b0 = a0, b1 = a1, b2 = a2 ⊕ a0, b3 = a3 ⊕ a1, b4 = a4 ⊕ a0, b5 = a5 ⊕ a1
//   c  = CRC16(b0 b1) ‖ CRC16(b2 b3) ‖ CRC16(b4 b5), each CRC least significant byte first
//        (CRC-16/Kermit: CCITT polynomial bit-reflected 0x8408, initial value 0, SAS's own CRC)
//   n0 = c3 + c4·2⁸ + c5·2¹⁶,  n1 = c0 + c1·2⁸ + c2·2¹⁶          (each below 2²⁴ = 16 777 216)
//   each of n0, n1 in 8 decimal digits; its first digit (0 or 1, as 2²⁴ < 2·10⁷) gains
//   2 × (the sum of its 8 digits mod 5)
//   number = "00" (the system id of a number the machine made) ‖ digits(n0) ‖ digits(n1)
//
// Why two tickets never share a number (the collision argument, proved piece by piece in
// terms/validation-number.test.ts): every step is invertible. The XOR step is undone by the same
// XORs (b0 and b1 are a0 and a1); a CRC over a 16-bit message with initial value 0 is the linear
// map m ↦ m·x¹⁶ mod P over GF(2), and x¹⁶ is invertible modulo P because P(0) = 1, so each CRC is
// a bijection of the 65 536 two-byte messages (the test checks all of them); the check only fills
// the first digit's upper bits, which the value (0 or 1) leaves free. So distinct (machine id,
// sequence) pairs give distinct numbers. The floor's uniqueness then rests on two rules the
// authority holds: no two tables share a machine id (assigned by the authority, a unique key), and
// a table never repeats a sequence (its journal's own count, at most 2²⁴ − 1 tickets per id).
//
// What the check is worth: of 18 digits made up at random, about 1 in 100 has the prefix and about
// 1 in 35 of those passes both halves' check digits and range, so about 1 in 3 500 passes
// (measured in the test); and a misread digit fails its half's check unless it moved by exactly 5. The scheme is public, so anyone can compute a passing
// number for any id and sequence: only the authority's register of printed tickets decides what is
// paid, and a passing number it never registered is refused (`unknown`).
import { z } from 'zod';

/** The largest machine id and sequence: three bytes each. 0 is no id and no ticket. */
export const MACHINE_ID_MAX = 0xff_ff_ff;
export const SEQUENCE_MAX = 0xff_ff_ff;
/**
 * The machine ids split in two halves, so that no table numbers under an id the upstream gave
 * another. A table configured with an id (`tickets.machineId`) may print under it offline before
 * it ever asks; the upstream, asked by a table with none, assigns the next free id. Drawn from one
 * range, an id assigned to one table could be the one another was configured with and printing
 * under: the same id and sequence is the same number, paid once, at the amount of whichever table
 * registered it first (a review of 4 December). A configuration names the lower half; the upstream
 * assigns from the upper.
 */
export const CONFIGURED_MACHINE_ID_MAX = 0x7f_ff_ff;
export const ASSIGNED_MACHINE_ID_MIN = CONFIGURED_MACHINE_ID_MAX + 1;
/** The system id of a number the machine made itself (SAS: secure enhanced validation). */
export const MACHINE_SYSTEM_ID = '00';

/**
 * Eighteen digits, as a barcode or a hand types them. The brand says only the shape: what holds one
 * either made it (`validationNumber`) or read it (`parseValidationNumber`).
 */
export const ValidationNumber = z
  .string()
  .regex(/^\d{18}$/)
  .brand<'ValidationNumber'>();
export type ValidationNumber = z.infer<typeof ValidationNumber>;

export type ValidationParse =
  | { readonly ok: true; readonly number: ValidationNumber; readonly machineId: number; readonly sequence: number }
  | { readonly ok: false; readonly reason: ValidationShapeRefusal };

/**
 * Why a text is not one of our validation numbers: not 18 digits; another system's prefix; a half
 * above 2²⁴ − 1 or a machine id or sequence of 0; a half whose check digit is wrong.
 */
export const VALIDATION_SHAPE_REFUSALS = ['shape', 'system', 'range', 'check'] as const;
export type ValidationShapeRefusal = (typeof VALIDATION_SHAPE_REFUSALS)[number];

/** CRC-16/Kermit of two bytes, from 0 (SAS's CRC; its check value over "123456789" is 0x2189). */
export function crc16(bytes: readonly number[]): number {
  let c = 0;
  for (const byte of bytes) {
    c ^= byte & 0xff;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x8408 : c >>> 1;
  }
  return c;
}

function checkDigit(digits: readonly number[]): number {
  return digits.reduce((s, d) => s + d, 0) % 5;
}

/** A 24-bit value as 8 digits, the first carrying the check. */
function half(n: number): string {
  const digits = [...String(n).padStart(8, '0')].map(Number);
  const check = checkDigit(digits);
  digits[0] = (digits[0] ?? 0) | (check << 1);
  return digits.join('');
}

/** The validation number of a table's ticket: pure, the same on the table and at the authority. */
export function validationNumber(machineId: number, sequence: number): ValidationNumber {
  if (!Number.isInteger(machineId) || machineId < 1 || machineId > MACHINE_ID_MAX) throw new RangeError(`machine id ${machineId} is not 1..${MACHINE_ID_MAX}`);
  if (!Number.isInteger(sequence) || sequence < 1 || sequence > SEQUENCE_MAX) throw new RangeError(`sequence ${sequence} is not 1..${SEQUENCE_MAX}`);
  const a = [sequence & 0xff, (sequence >>> 8) & 0xff, sequence >>> 16, machineId & 0xff, (machineId >>> 8) & 0xff, machineId >>> 16];
  const [a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0] = a;
  const b = [a0, a1, a2 ^ a0, a3 ^ a1, a4 ^ a0, a5 ^ a1];
  const c: number[] = [];
  for (let k = 0; k < 6; k += 2) {
    const crc = crc16([b[k] ?? 0, b[k + 1] ?? 0]);
    c.push(crc & 0xff, crc >>> 8);
  }
  const [c0 = 0, c1 = 0, c2 = 0, c3 = 0, c4 = 0, c5 = 0] = c;
  const n0 = c3 | (c4 << 8) | (c5 << 16);
  const n1 = c0 | (c1 << 8) | (c2 << 16);
  return ValidationNumber.parse(`${MACHINE_SYSTEM_ID}${half(n0)}${half(n1)}`);
}

let inverse: Uint16Array | null = null;
/** CRC → the two-byte message it came from (a bijection; built once, 128 KiB). */
function uncrc(crc: number): number {
  if (!inverse) {
    const table = new Uint16Array(0x10000);
    for (let m = 0; m < 0x10000; m++) table[crc16([m & 0xff, m >>> 8])] = m;
    inverse = table;
  }
  return inverse[crc] ?? 0;
}

/** 8 digits → the 24-bit value, or the reason they are not a half. */
function readHalf(text: string): number | 'range' | 'check' {
  const digits = [...text].map(Number);
  const lead = digits[0] ?? 0;
  digits[0] = lead & 1;
  if (lead >> 1 !== checkDigit(digits)) return 'check';
  const n = Number(digits.join(''));
  return n > 0xff_ff_ff ? 'range' : n;
}

/**
 * Reads a validation number (a barcode's digits, a typed number): its machine id and sequence, or
 * why it cannot be one of ours. Passing says only that the table could have printed it; the
 * authority's register says whether it did.
 */
export function parseValidationNumber(text: string): ValidationParse {
  const shaped = ValidationNumber.safeParse(text);
  if (!shaped.success) return { ok: false, reason: 'shape' };
  if (!text.startsWith(MACHINE_SYSTEM_ID)) return { ok: false, reason: 'system' };
  const n0 = readHalf(text.slice(2, 10));
  const n1 = readHalf(text.slice(10, 18));
  if (typeof n0 === 'string') return { ok: false, reason: n0 };
  if (typeof n1 === 'string') return { ok: false, reason: n1 };
  const m01 = uncrc(n1 & 0xffff);
  const m23 = uncrc(((n1 >>> 16) & 0xff) | ((n0 & 0xff) << 8));
  const m45 = uncrc(n0 >>> 8);
  const b = [m01 & 0xff, m01 >>> 8, m23 & 0xff, m23 >>> 8, m45 & 0xff, m45 >>> 8];
  const [b0 = 0, b1 = 0, b2 = 0, b3 = 0, b4 = 0, b5 = 0] = b;
  const sequence = b0 | (b1 << 8) | ((b2 ^ b0) << 16);
  const machineId = (b3 ^ b1) | ((b4 ^ b0) << 8) | ((b5 ^ b1) << 16);
  if (sequence < 1 || machineId < 1) return { ok: false, reason: 'range' };
  return { ok: true, number: shaped.data, machineId, sequence };
}
