// Small byte helpers shared by the codecs. Everything on the wire is a Uint8Array; Buffer stays at
// the edges (net sockets) so the protocol code reads the same under any transport.

export function concatBytes(...parts: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0').toUpperCase()).join(' ');
}

export function fromHex(hex: string): Uint8Array {
  const clean = hex.replace(/[^0-9a-fA-F]/g, '');
  if (clean.length % 2 !== 0) throw new Error(`odd hex string: ${hex}`);
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function asciiBytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0x7f;
  return out;
}

export function bytesAscii(b: Uint8Array): string {
  let s = '';
  for (const c of b) s += c >= 0x20 && c < 0x7f ? String.fromCharCode(c) : '?';
  return s;
}

/** Growable receive buffer: append chunks, consume from the front. */
export class ByteQueue {
  private buf = new Uint8Array(256);
  private start = 0;
  private end = 0;

  get length(): number {
    return this.end - this.start;
  }

  push(chunk: Uint8Array): void {
    if (this.end + chunk.length > this.buf.length) {
      const live = this.end - this.start;
      const size = Math.max(this.buf.length, (live + chunk.length) * 2);
      const next = size === this.buf.length ? this.buf : new Uint8Array(size);
      next.set(this.buf.subarray(this.start, this.end), 0);
      this.buf = next;
      this.start = 0;
      this.end = live;
    }
    this.buf.set(chunk, this.end);
    this.end += chunk.length;
  }

  at(i: number): number {
    return this.buf[this.start + i] ?? -1;
  }

  view(from: number, to: number): Uint8Array {
    return this.buf.subarray(this.start + from, this.start + to);
  }

  take(n: number): Uint8Array {
    const out = this.buf.slice(this.start, this.start + n);
    this.drop(n);
    return out;
  }

  drop(n: number): void {
    this.start = Math.min(this.end, this.start + n);
    if (this.start === this.end) this.start = this.end = 0;
  }

  clear(): void {
    this.start = this.end = 0;
  }
}
