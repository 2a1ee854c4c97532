// System validation as a casino management system drives it, written from the protocol document
// (SAS 6.02 §15.7–15.9, as docs/sas.md quotes it) with the simulator's own codecs: no import of
// hardware/sas/. Exception 57 asks for a number; type R long poll 57 reads the pending cash-out
// (type, amount 5 BCD); type S long poll 58 gives the validation system id (1 BCD, 00 denies) and
// the number (8 BCD, 16 digits), answered with a status byte.
import { appendCrc, bcd, unbcd } from './codec.js';
import type { SasHost } from './host.js';

/** 0x57's cash-out types and 0x58's statuses, as the document names them. */
export const SV = {
  cashable: 0x00,
  notWaiting: 0x80,
  acknowledged: 0x00,
  notInCashout: 0x80,
  rejected: 0x81,
} as const;

/** 0x57: what waits for a number (type; amount in credits). */
export async function pendingCashout57(h: SasHost): Promise<{ type: number; amount: number }> {
  const a = await h.typeR(0x57, 2 + 1 + 5 + 2);
  return { type: a[2] ?? -1, amount: unbcd(a.slice(3, 8)) };
}

/** 16 decimal digits as 8 BCD bytes. */
function digits16(digits: string): number[] {
  if (!/^\d{16}$/.test(digits)) throw new Error(`not 16 digits: ${digits}`);
  return Array.from({ length: 8 }, (_, i) => parseInt(digits.slice(2 * i, 2 * i + 2), 16));
}

/** 0x58's bytes: system id (1 BCD) and 16 digits; `raw` sends the 9 data bytes as given (a lying system). */
export function receive58Bytes(address: number, systemId: number, digits: string, raw?: readonly number[]): number[] {
  const data = raw ?? [...bcd(systemId, 1), ...digits16(digits)];
  return appendCrc([address, 0x58, ...data]);
}

/** 0x58: the status the machine answers. */
export async function receive58(h: SasHost, systemId: number, digits: string, raw?: readonly number[]): Promise<number> {
  const a = await h.poll(receive58Bytes(h.address, systemId, digits, raw), 2 + 1 + 2);
  return a[2] ?? -1;
}

/** General polls (each acknowledging the last) until `code` comes, at most `polls` of them; the codes seen. */
export async function awaitException(h: SasHost, code: number, polls = 50): Promise<number[]> {
  const seen: number[] = [];
  for (let i = 0; i < polls; i++) {
    const c = await h.generalPoll();
    seen.push(c);
    if (c === code) return seen;
    if (c === 0) await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no exception ${code.toString(16)} in ${polls} polls: ${seen.map((c) => c.toString(16)).join(' ')}`);
}
