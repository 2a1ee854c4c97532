// Packed BCD, most significant byte first (SAS 6.02 §2.2.3). A meter counts up and rolls over at
// its digit capacity, as a mechanical meter does: a value too large for its field is sent modulo
// 10^(2 × bytes), never truncated to its low bytes in binary.

/** `value` (a non-negative safe integer) as `bytes` bytes of packed BCD, rolled over at the field's capacity. */
export function toBcd(value: number, bytes: number): Uint8Array {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`BCD of ${value}: not a non-negative safe integer`);
  const out = new Uint8Array(bytes);
  let v = value;
  for (let i = bytes - 1; i >= 0; i--) {
    const lo = v % 10;
    v = Math.floor(v / 10);
    const hi = v % 10;
    v = Math.floor(v / 10);
    out[i] = (hi << 4) | lo;
  }
  return out;
}

/** The bytes needed to hold `value` in BCD (at least 1). */
export function bcdBytesFor(value: number): number {
  return Math.max(1, Math.ceil(String(Math.max(0, Math.trunc(value))).length / 2));
}

/** Packed BCD to a number, or null when a nibble is not a decimal digit. */
export function fromBcd(bytes: Uint8Array, from = 0, to = bytes.length): number | null {
  let v = 0;
  for (let i = from; i < to; i++) {
    const b = bytes[i] ?? 0;
    const hi = b >> 4;
    const lo = b & 0x0f;
    if (hi > 9 || lo > 9) return null;
    v = v * 100 + hi * 10 + lo;
  }
  return v;
}
