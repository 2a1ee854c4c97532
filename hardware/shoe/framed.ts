// Our card-shoe wire protocol, "shoe-framed v1" (docs/protocols/shoe.md):
//   STX 0x02 | VER 0x01 | SEQ u16 LE | TYPE u8 | LEN u8 | PAYLOAD | CRC-16/KERMIT LE (over STX…PAYLOAD)
// No byte stuffing: the parser scans for STX and accepts a frame only if VER, LEN and CRC agree,
// otherwise it drops that one byte and scans on (resync).
import { ByteQueue, asciiBytes, bytesAscii } from '../bytes.js';
import { crc16Kermit } from '../crc.js';

export const STX = 0x02;
export const VERSION = 0x01;
export const HEADER = 6;
export const OVERHEAD = HEADER + 2;

export const MSG = {
  // device → host
  HELLO: 0x01,
  SHOE_LOADED: 0x10,
  CARD_DRAWN: 0x11,
  CARD_UNREADABLE: 0x12,
  CUT_CARD: 0x13,
  SHOE_EMPTY: 0x14,
  LID: 0x15,
  MODE: 0x16,
  LOCK_STATE: 0x17,
  ALARM: 0x18,
  CMD_RESULT: 0x7f,
  // host → device
  ACK: 0x80,
  GET_STATUS: 0x81,
  SET_MODE: 0x82,
  LOCK: 0x83,
  UNLOCK: 0x84,
  REPLAY_FROM: 0x85,
} as const;

/** HELLO's flags byte (payload byte 3; docs/protocols/shoe.md, Messages). */
export const HELLO_FLAGS = { LID_OPEN: 1, LOCKED: 2, BURN_MODE: 4, LOADED: 8 } as const;

export const UNREADABLE_REASONS: Readonly<Record<number, string>> = { 1: 'no code', 2: 'double card', 3: 'motion', 4: 'dirty' };
export const RESULT = { OK: 0, UNKNOWN: 1, BAD_PAYLOAD: 2, REFUSED: 3 } as const;

export interface ShoeFrame {
  seq: number;
  type: number;
  payload: Uint8Array;
}

export function encodeShoeFrame(seq: number, type: number, payload: ArrayLike<number> = []): Uint8Array {
  if (payload.length > 255) throw new Error('shoe frame payload too long');
  const out = new Uint8Array(OVERHEAD + payload.length);
  out[0] = STX;
  out[1] = VERSION;
  out[2] = seq & 0xff;
  out[3] = (seq >> 8) & 0xff;
  out[4] = type;
  out[5] = payload.length;
  out.set(Array.from(payload), HEADER);
  const crc = crc16Kermit(out, 0, HEADER + payload.length);
  out[HEADER + payload.length] = crc & 0xff;
  out[HEADER + payload.length + 1] = crc >>> 8;
  return out;
}

export class ShoeFrameParser {
  private q = new ByteQueue();
  errors = 0;

  push(bytes: Uint8Array): ShoeFrame[] {
    this.q.push(bytes);
    const out: ShoeFrame[] = [];
    for (;;) {
      let i = 0;
      while (i < this.q.length && this.q.at(i) !== STX) i++;
      if (i > 0) this.q.drop(i);
      if (this.q.length < 2) break;
      if (this.q.at(1) !== VERSION) {
        this.errors++;
        this.q.drop(1);
        continue;
      }
      if (this.q.length < HEADER) break;
      const len = this.q.at(5);
      const total = OVERHEAD + len;
      if (this.q.length < total) break;
      const f = this.q.view(0, total);
      const crc = crc16Kermit(f, 0, HEADER + len);
      if (f[HEADER + len] !== (crc & 0xff) || f[HEADER + len + 1] !== crc >>> 8) {
        this.errors++;
        this.q.drop(1);
        continue;
      }
      out.push({ seq: (f[2] ?? 0) | ((f[3] ?? 0) << 8), type: f[4] ?? 0, payload: f.slice(HEADER, HEADER + len) });
      this.q.drop(total);
    }
    return out;
  }

  reset(): void {
    this.q.clear();
  }
}

/** Event sequence numbers run 1…65535 and wrap to 1; 0 marks an unsequenced message. */
export function nextSeq(s: number): number {
  return s >= 0xffff ? 1 : s + 1;
}

/** How far `a` is ahead of `b` in sequence space (negative: behind). */
export function seqDiff(a: number, b: number): number {
  let d = (a - b) % 0xffff;
  if (d > 0x7fff) d -= 0xffff;
  if (d < -0x7fff) d += 0xffff;
  return d;
}

export const u16 = (n: number): number[] => [n & 0xff, (n >> 8) & 0xff];
export const u32 = (n: number): number[] => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff];
export const rdU16 = (b: Uint8Array, o: number): number => (b[o] ?? 0) | ((b[o + 1] ?? 0) << 8);
export const rdU32 = (b: Uint8Array, o: number): number => ((b[o] ?? 0) | ((b[o + 1] ?? 0) << 8) | ((b[o + 2] ?? 0) << 16) | ((b[o + 3] ?? 0) << 24)) >>> 0;
export const text = (s: string): number[] => Array.from(asciiBytes(s.slice(0, 200)));
export const readText = (b: Uint8Array, o: number): string => bytesAscii(b.subarray(o));
