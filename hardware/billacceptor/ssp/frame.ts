// SSP framing: STX(0x7F) SEQ/ID LEN DATA… CRCL CRCH. CRC-16 (poly 0x8005, init 0xFFFF) over
// SEQ/ID, LEN and DATA, computed before byte stuffing; every 0x7F after the STX is sent twice.
import { crc16Ssp } from '../../crc.js';
import { STX } from './constants.js';

export interface SspFrame {
  /** The SEQ/ID byte: bit 7 sequence flag, bits 0–6 address. */
  seqId: number;
  data: Uint8Array;
}

export function encodeSsp(seqId: number, data: ArrayLike<number>): Uint8Array {
  if (data.length > 255) throw new Error('SSP data too long');
  const raw = new Uint8Array(data.length + 4);
  raw[0] = seqId;
  raw[1] = data.length;
  raw.set(Array.from(data), 2);
  const crc = crc16Ssp(raw, 0, data.length + 2);
  raw[data.length + 2] = crc & 0xff;
  raw[data.length + 3] = crc >>> 8;
  const out = [STX];
  for (const b of raw) {
    out.push(b);
    if (b === STX) out.push(STX);
  }
  return Uint8Array.from(out);
}

/**
 * Unstuffing stream parser. A lone STX inside a packet starts a new packet (the partial one is
 * dropped, as the slave does); a bad CRC drops the packet and the parser waits for the next STX.
 */
export class SspParser {
  private buf: number[] = [];
  private inPacket = false;
  private pendingStx = false;
  errors = 0;

  push(bytes: Uint8Array): SspFrame[] {
    const out: SspFrame[] = [];
    for (const b of bytes) {
      if (!this.inPacket) {
        if (b === STX) {
          this.inPacket = true;
          this.buf = [];
          this.pendingStx = false;
        }
        continue;
      }
      if (this.pendingStx) {
        this.pendingStx = false;
        if (b !== STX) {
          // The previous 0x7F was a new STX: restart with this byte as SEQ/ID.
          if (this.buf.length > 0) this.errors++;
          this.buf = [];
        }
        this.add(b, out);
        continue;
      }
      if (b === STX) {
        this.pendingStx = true;
        continue;
      }
      this.add(b, out);
    }
    return out;
  }

  private add(b: number, out: SspFrame[]): void {
    this.buf.push(b);
    if (this.buf.length < 2) return;
    const len = this.buf[1] ?? 0;
    if (this.buf.length < len + 4) return;
    const raw = Uint8Array.from(this.buf);
    const crc = crc16Ssp(raw, 0, len + 2);
    if (raw[len + 2] === (crc & 0xff) && raw[len + 3] === crc >>> 8) out.push({ seqId: raw[0] ?? 0, data: raw.slice(2, 2 + len) });
    else this.errors++;
    this.inPacket = false;
    this.buf = [];
  }

  reset(): void {
    this.inPacket = false;
    this.pendingStx = false;
    this.buf = [];
  }
}
