// Every long poll the machine side answers, asked by the host simulator and read with the
// document's layouts (docs/sas.md), each returned as plain data the tests compare with the
// in-memory station. No import of hardware/sas/.
import { asciiOf, bcd, sasCrc, unbcd } from './codec.js';
import type { SasHost } from './host.js';

const meters4 = (a: number[], from: number, count: number): number[] => Array.from({ length: count }, (_, i) => unbcd(a.slice(from + 4 * i, from + 4 * i + 4)));

export async function meters1C(h: SasHost) {
  const a = await h.typeR(0x1c, 2 + 32 + 2);
  const [coinIn, coinOut, drop, jackpot, gamesPlayed, gamesWon, slotDoorOpened, powerResets] = meters4(a, 2, 8);
  return { coinIn, coinOut, drop, jackpot, gamesPlayed, gamesWon, slotDoorOpened, powerResets };
}

export async function meters0F(h: SasHost) {
  const a = await h.typeR(0x0f, 2 + 24 + 2);
  const [cancelledCredits, coinIn, coinOut, drop, jackpot, gamesPlayed] = meters4(a, 2, 6);
  return { cancelledCredits, coinIn, coinOut, drop, jackpot, gamesPlayed };
}

export async function meters19(h: SasHost) {
  const a = await h.typeR(0x19, 2 + 20 + 2);
  const [coinIn, coinOut, drop, jackpot, gamesPlayed] = meters4(a, 2, 5);
  return { coinIn, coinOut, drop, jackpot, gamesPlayed };
}

/** 0x10–0x17 and 0x1A: one 4-byte BCD meter. */
export async function singleMeter(h: SasHost, command: number): Promise<number> {
  return unbcd((await h.typeR(command, 8)).slice(2, 6));
}

export async function gamesSince18(h: SasHost) {
  const a = await h.typeR(0x18, 8);
  return { sincePowerUp: unbcd(a.slice(2, 4)), sinceDoorClosed: unbcd(a.slice(4, 6)) };
}

export async function machineInfo1F(h: SasHost) {
  const a = await h.typeR(0x1f, 24);
  return {
    gameId: asciiOf(a.slice(2, 4)),
    additionalId: asciiOf(a.slice(4, 7)),
    denominationCode: a[7],
    maxBet: a[8],
    progressiveGroup: a[9],
    gameOptions: (a[10] ?? 0) + 256 * (a[11] ?? 0),
    paytableId: asciiOf(a.slice(12, 18)),
    basePercent: asciiOf(a.slice(18, 22)),
  };
}

export async function version54(h: SasHost) {
  const a = await h.typeR(0x54, 'variable');
  const len = a[2] ?? 0;
  return { version: asciiOf(a.slice(3, 6)), serial: asciiOf(a.slice(6, 3 + len)) };
}

/**
 * The meters Table C-7 gives five BCD bytes (the ones counted in cents: ticket in and out in cents,
 * 0D–10, and the in-house cashable transfers to and from the machine, A0 and B8); every other
 * meter this simulator asks for is four. 0x2F carries no size: the system reads each meter's
 * size from the table, so a machine that sends another size shifts every meter after it.
 */
const FIVE_BYTE_METERS: ReadonlySet<number> = new Set([0x0d, 0x0e, 0x0f, 0x10, 0xa0, 0xb8]);

/** 0x2F: meters by one-byte code; the answer's code and value pairs, each value of its Table C-7 size. */
export async function selected2F(h: SasHost, codes: number[]): Promise<Map<number, number>> {
  const a = await h.typeS(0x2f, [2 + codes.length, 0x00, 0x00, ...codes], 'variable');
  const len = a[2] ?? 0;
  if (a[3] !== 0 || a[4] !== 0) throw new Error('0x2F answered for another game');
  const out = new Map<number, number>();
  for (let i = 5; i < 3 + len;) {
    const code = a[i] ?? -1;
    const size = FIVE_BYTE_METERS.has(code) ? 5 : 4;
    out.set(code, unbcd(a.slice(i + 1, i + 1 + size)));
    i += 1 + size;
  }
  return out;
}

/** 0x6F or 0xAF: meters by two-byte code (LSB first); the answer's code, size and value (null for size 0). */
export async function extended(h: SasHost, command: 0x6f | 0xaf, codes: number[]): Promise<Map<number, { size: number; value: number | null }>> {
  const data = [2 + 2 * codes.length, 0x00, 0x00, ...codes.flatMap((c) => [c % 256, Math.floor(c / 256)])];
  const a = await h.typeS(command, data, 'variable');
  const end = 3 + (a[2] ?? 0);
  const out = new Map<number, { size: number; value: number | null }>();
  for (let i = 5; i < end;) {
    const code = (a[i] ?? 0) + 256 * (a[i + 1] ?? 0);
    const size = a[i + 2] ?? 0;
    out.set(code, { size, value: size === 0 ? null : unbcd(a.slice(i + 3, i + 3 + size)) });
    i += 3 + size;
  }
  return out;
}

export async function dateTime7E(h: SasHost) {
  const a = await h.typeR(0x7e, 11);
  return {
    month: unbcd(a.slice(2, 3)),
    day: unbcd(a.slice(3, 4)),
    year: unbcd(a.slice(4, 6)),
    hour: unbcd(a.slice(6, 7)),
    minute: unbcd(a.slice(7, 8)),
    second: unbcd(a.slice(8, 9)),
  };
}

/** 0x7F to this machine: 'ack', 'nack'. */
export async function setDateTime7F(h: SasHost, t: { month: number; day: number; year: number; hour: number; minute: number; second: number }) {
  const data = [...bcd(t.month, 1), ...bcd(t.day, 1), ...bcd(t.year, 2), ...bcd(t.hour, 1), ...bcd(t.minute, 1), ...bcd(t.second, 1)];
  return ackOf(h, await h.typeS(0x7f, data, 'ack'));
}

export function ackOf(h: SasHost, a: number[]): 'ack' | 'nack' {
  if (a[0] === h.address) return 'ack';
  if (a[0] === (h.address | 0x80)) return 'nack';
  throw new Error(`neither ACK nor NACK: ${a.join(' ')}`);
}

/** 0x01, 0x02, 0x06, 0x07: type S with no data, ACKed. */
export async function control(h: SasHost, command: 0x01 | 0x02 | 0x06 | 0x07) {
  return ackOf(h, await h.typeS(command, [], 'ack'));
}

export async function handpay1B(h: SasHost) {
  const a = await h.typeR(0x1b, 24);
  return { progressiveGroup: a[2], level: a[3], amount: unbcd(a.slice(4, 9)), partialPay: unbcd(a.slice(9, 11)), resetId: a[11], unused: a.slice(12, 22) };
}

export async function handpayReset94(h: SasHost): Promise<number> {
  const a = await h.typeS(0x94, [], 5);
  return a[2] ?? -1;
}

/** 0x21: ACKed at once; the signature comes in answer to a general poll once computed (§6). */
export async function romSignature21(h: SasHost, seed: number, pollsAllowed = 50): Promise<number> {
  if (ackOf(h, await h.typeS(0x21, [seed % 256, Math.floor(seed / 256)], 'ack')) !== 'ack') throw new Error('0x21 NACKed');
  for (let i = 0; i < pollsAllowed; i++) {
    await h.pollOther();
    // One byte (an exception: 00 while computing) or the whole 0x21 response, which starts with the address.
    const a = await h.exchange([0x80 | h.address], (r) => (r.length === 0 ? null : r[0] === h.address ? 6 : 1));
    if (!a) throw new Error('no answer to a general poll');
    if (a.length === 1) continue;
    if (a[1] !== 0x21 || sasCrc(a.slice(0, 4)) !== (a[4] ?? 0) + 256 * (a[5] ?? 0)) throw new Error(`bad ROM signature answer ${a.join(' ')}`);
    return (a[2] ?? 0) + 256 * (a[3] ?? 0);
  }
  throw new Error('no ROM signature reported');
}
