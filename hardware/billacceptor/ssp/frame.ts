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
 * dropped, as the slave does). A bad CRC drops the packet and the bytes after its STX are scanned
 * again: a truncated packet ending in a lone 0x7F swallows the next frame's STX as a stuffed byte,
 * and without the rescan the frames after it would be lost until the driver's reply timeout.
 */
export class SspParser {
  private buf: number[] = [];
  /** Wire bytes since the current packet's STX, STX included, for the rescan. */
  private wire: number[] = [];
  private inPacket = false;
  private pendingStx = false;
  errors = 0;

  push(bytes: Uint8Array): SspFrame[] {
    const out: SspFrame[] = [];
    for (const b of bytes) {
      const again = this.step(b, out);
      if (again) this.rescan(again, out);
    }
    return out;
  }

  /** Each failure puts back fewer bytes than it consumed, so this ends. */
  private rescan(bytes: number[], out: SspFrame[]): void {
    const queue = bytes;
    for (let b = queue.shift(); b !== undefined; b = queue.shift()) {
      const again = this.step(b, out);
      if (again) queue.unshift(...again);
    }
  }

  /** Returns the bytes to scan again when a packet fails its CRC. */
  private step(b: number, out: SspFrame[]): number[] | undefined {
    if (!this.inPacket) {
      if (b === STX) {
        this.inPacket = true;
        this.buf = [];
        this.wire = [b];
        this.pendingStx = false;
      }
      return undefined;
    }
    this.wire.push(b);
    if (this.pendingStx) {
      this.pendingStx = false;
      if (b !== STX) {
        // The previous 0x7F was a new STX: restart with this byte as SEQ/ID.
        if (this.buf.length > 0) this.errors++;
        this.buf = [];
        this.wire = [STX, b];
      }
      return this.add(b, out);
    }
    if (b === STX) {
      this.pendingStx = true;
      return undefined;
    }
    return this.add(b, out);
  }

  private add(b: number, out: SspFrame[]): number[] | undefined {
    this.buf.push(b);
    if (this.buf.length < 2) return undefined;
    const len = this.buf[1] ?? 0;
    if (this.buf.length < len + 4) return undefined;
    const raw = Uint8Array.from(this.buf);
    const crc = crc16Ssp(raw, 0, len + 2);
    const ok = raw[len + 2] === (crc & 0xff) && raw[len + 3] === crc >>> 8;
    const again = ok ? undefined : this.wire.slice(1);
    if (ok) out.push({ seqId: raw[0] ?? 0, data: raw.slice(2, 2 + len) });
    else this.errors++;
    this.inPacket = false;
    this.buf = [];
    this.wire = [];
    return again;
  }

  reset(): void {
    this.inPacket = false;
    this.pendingStx = false;
    this.buf = [];
    this.wire = [];
  }
}
