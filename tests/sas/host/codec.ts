// The SAS host simulator's own codecs, written from the protocol document (docs/sas.md, "Sources")
// and not from the machine side (hardware/sas/): nothing here imports it. The CRC is computed bit
// by bit from the document's description (CCITT polynomial x^16+x^12+x^5+1, least significant bit
// first, seed 0 unless the ROM check gives one), BCD through decimal strings, and the fallback
// stream's escapes through a small state table.

/** CRC-16 as SAS 6.02 §5 describes it, bit by bit. */
export function sasCrc(bytes: Iterable<number>, seed = 0): number {
  const POLY_REFLECTED = 0b1000_0100_0000_1000; // x^16+x^12+x^5+1 with its bits in reverse order
  let crc = seed;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) {
      const carry = crc & 1;
      crc >>>= 1;
      if (carry) crc ^= POLY_REFLECTED;
    }
  }
  return crc;
}

/** `bytes` followed by their CRC, low byte first. */
export function appendCrc(bytes: number[]): number[] {
  const crc = sasCrc(bytes);
  return [...bytes, crc % 256, Math.floor(crc / 256)];
}

export function crcValid(bytes: readonly number[]): boolean {
  if (bytes.length < 3) return false;
  const crc = sasCrc(bytes.slice(0, -2));
  return bytes.at(-2) === crc % 256 && bytes.at(-1) === Math.floor(crc / 256);
}

/** A number as `n` bytes of packed BCD, most significant first, via its decimal digits. */
export function bcd(value: number, n: number): number[] {
  const digits = String(value)
    .padStart(2 * n, '0')
    .slice(-2 * n);
  const out: number[] = [];
  for (let i = 0; i < digits.length; i += 2) out.push(parseInt(digits.slice(i, i + 2), 16));
  return out;
}

/** Packed BCD to its number, via the hex digits it reads as; throws on a nibble that is no digit. */
export function unbcd(bytes: readonly number[]): number {
  const hex = bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
  if (!/^[0-9]*$/.test(hex)) throw new Error(`not BCD: ${hex}`);
  return hex === '' ? 0 : Number(hex);
}

export function asciiOf(bytes: readonly number[]): string {
  return String.fromCharCode(...bytes);
}

/**
 * The fallback stream (docs/sas.md, "Framing"): the ninth bit is written as the escape FF 00
 * before the character, and a data byte FF is doubled.
 */
export function toWire(chars: readonly { byte: number; wake: boolean }[]): Uint8Array {
  const out: number[] = [];
  for (const c of chars) {
    if (c.wake) out.push(0xff, 0x00, c.byte);
    else if (c.byte === 0xff) out.push(0xff, 0xff);
    else out.push(c.byte);
  }
  return Uint8Array.from(out);
}

/** A host message: the first byte with the wake-up bit, the rest without. */
export function message(bytes: readonly number[]): Uint8Array {
  return toWire(bytes.map((byte, i) => ({ byte, wake: i === 0 })));
}

/** Reads the machine's stream back into characters. */
export class WireReader {
  private after: 'none' | 'ff' | 'ff00' = 'none';

  read(chunk: Uint8Array): { byte: number; wake: boolean }[] {
    const out: { byte: number; wake: boolean }[] = [];
    for (const b of chunk) {
      if (this.after === 'ff00') {
        out.push({ byte: b, wake: true });
        this.after = 'none';
      } else if (this.after === 'ff') {
        this.after = b === 0x00 ? 'ff00' : 'none';
        if (b === 0xff) out.push({ byte: 0xff, wake: false });
        else if (b !== 0x00) throw new Error(`the machine sent FF ${b.toString(16)}, which the framing does not allow`);
      } else if (b === 0xff) this.after = 'ff';
      else out.push({ byte: b, wake: false });
    }
    return out;
  }
}
