// SAS characters are 11 bits on the wire: a start bit, 8 data bits, the wake-up (ninth) bit and a
// stop bit (SAS 6.02 §1.2). The host sets the wake-up bit on the first byte of each message only;
// the machine sets it on nothing but its loop-break chirp.
//
// Byte streams cannot carry a ninth bit, so every link the kiosk opens carries SAS in one
// encoding, the one Linux's tty layer itself produces when a real UART receives SAS with
// mark/space parity standing in for the ninth bit (termios PARENB|CMSPAR, space parity, INPCK,
// PARMRK, neither IGNPAR nor ISTRIP; docs/sas.md "Framing"): a character whose ninth bit is set
// arrives as the three bytes FF 00 b (PARMRK's mark of a parity error), a data byte FF as FF FF,
// and every other byte as itself. A pseudo-terminal or a TCP terminal server carries exactly that
// stream, so the machine side reads the same bytes over a pty, TCP and (configured as above) a
// real serial port. The sending side uses the same escapes.

export const ESC = 0xff;

/** Receives one decoded character: its 8 data bits and whether its wake-up bit was set. */
export type CharSink = (byte: number, wake: boolean) => void;

/**
 * Decodes the fallback stream into characters, across chunk boundaries. An FF followed by
 * anything but FF or 00 is not of the encoding (line noise): the FF is dropped, counted, and the
 * byte after it is read afresh, so the decoder is back in step at once.
 */
export class WakeupDecoder {
  private state: 'data' | 'escape' | 'wake' = 'data';
  /** FF pairs that were not of the encoding, since the decoder was made. */
  badEscapes = 0;

  push(chunk: Uint8Array, sink: CharSink): void {
    for (const b of chunk) this.step(b, sink);
  }

  private step(b: number, sink: CharSink): void {
    if (this.state === 'wake') {
      this.state = 'data';
      sink(b, true);
    } else if (this.state === 'escape') {
      if (b === ESC) {
        this.state = 'data';
        sink(ESC, false);
      } else if (b === 0x00) this.state = 'wake';
      else {
        this.badEscapes++;
        this.state = 'data';
        this.step(b, sink);
      }
    } else if (b === ESC) this.state = 'escape';
    else sink(b, false);
  }

  /** Forgets a half-read escape (a new connection starts clean). */
  reset(): void {
    this.state = 'data';
  }
}

/** Encodes `bytes` for the fallback stream; `wakeFirst` sets the wake-up bit of the first byte. */
export function encodeWire(bytes: Uint8Array, wakeFirst = false): Uint8Array {
  let n = bytes.length + (wakeFirst && bytes.length > 0 ? 2 : 0);
  for (let i = wakeFirst ? 1 : 0; i < bytes.length; i++) if (bytes[i] === ESC) n++;
  const out = new Uint8Array(n);
  let o = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] ?? 0;
    if (i === 0 && wakeFirst) {
      out[o++] = ESC;
      out[o++] = 0x00;
      out[o++] = b;
    } else {
      if (b === ESC) out[o++] = ESC;
      out[o++] = b;
    }
  }
  return out;
}
