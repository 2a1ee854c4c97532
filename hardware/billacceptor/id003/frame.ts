// ID-003 framing: SYNC(0xFC) LNG CMD [DATA…] CRCL CRCH, LNG counting the whole frame, CRC-16/KERMIT
// over SYNC…DATA sent low byte first.
import { crc16Kermit } from '../../crc.js';
import { ByteQueue } from '../../bytes.js';
import { SYNC } from './constants.js';

export interface Id003Frame {
  code: number;
  data: Uint8Array;
}

export const MIN_FRAME = 5;
export const MAX_FRAME = 250;

export function encodeId003(code: number, data: ArrayLike<number> = []): Uint8Array<ArrayBuffer> {
  const len = 5 + data.length;
  if (len > MAX_FRAME) throw new Error(`ID-003 frame too long (${len})`);
  const out = new Uint8Array(len);
  out[0] = SYNC;
  out[1] = len;
  out[2] = code;
  out.set(Array.from(data), 3);
  const crc = crc16Kermit(out, 0, len - 2);
  out[len - 2] = crc & 0xff;
  out[len - 1] = crc >>> 8;
  return out;
}

/**
 * Stream parser: finds SYNC, waits for LNG bytes, checks the CRC. A bad length or CRC drops only
 * the SYNC byte and scans on, so a garbled or truncated frame costs at most itself.
 */
export class Id003Parser {
  private q = new ByteQueue();
  /** Frames dropped for a bad CRC or length (diagnostics). */
  errors = 0;

  push(bytes: Uint8Array): Id003Frame[] {
    this.q.push(bytes);
    const out: Id003Frame[] = [];
    for (;;) {
      let i = 0;
      while (i < this.q.length && this.q.at(i) !== SYNC) i++;
      if (i > 0) this.q.drop(i);
      if (this.q.length < 2) break;
      const len = this.q.at(1);
      if (len < MIN_FRAME || len > MAX_FRAME) {
        this.errors++;
        this.q.drop(1);
        continue;
      }
      if (this.q.length < len) break;
      const frame = this.q.view(0, len);
      const crc = crc16Kermit(frame, 0, len - 2);
      if ((frame[len - 2] ?? -1) !== (crc & 0xff) || (frame[len - 1] ?? -1) !== crc >>> 8) {
        this.errors++;
        this.q.drop(1);
        continue;
      }
      out.push({ code: frame[2] ?? 0, data: frame.slice(3, len - 2) });
      this.q.drop(len);
    }
    return out;
  }

  /** Forget a partial frame (after a timeout, so a truncated frame cannot swallow the next). */
  reset(): void {
    this.q.clear();
  }
}
