// A SAS line on a real UART (hardware/sas/uart.ts, docs/sas.md "Framing"), without one: the receive decoder
// against the kernel's PARMRK marking as the glibc manual describes it (a second implementation,
// here), and the sending side's parity switch against a modelled line that records every step.
// What a pseudo-terminal can show of the real termios is uart.e2e.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { SasLink } from '../../hardware/sas/link.js';
import { SasUartError } from '../../hardware/sas/uart-stty.js';
import { SasUartPort, type UartLine } from '../../hardware/sas/uart.js';
import { WakeupDecoder, encodeWire } from '../../hardware/sas/wire.js';
import { MemoryGame } from './fixture.js';
import { SasHost } from './host/host.js';
import { toWire, WireReader } from './host/codec.js';

type Char = { byte: number; ninth: boolean };

/**
 * What Linux's tty layer hands a reader of a UART set to space parity with INPCK and PARMRK, and
 * neither IGNPAR nor ISTRIP (glibc manual, "Input Modes"): a byte with a parity error — here, a
 * ninth bit of 1 — comes after the two bytes 0377 0; a valid 0377 comes as 0377 0377; any other
 * valid byte as itself.
 */
function kernelMarks(chars: readonly Char[]): Uint8Array {
  const out: number[] = [];
  for (const c of chars) {
    if (c.ninth) out.push(0o377, 0, c.byte);
    else if (c.byte === 0o377) out.push(0o377, 0o377);
    else out.push(c.byte);
  }
  return Uint8Array.from(out);
}

/** Feeds `stream` cut at `cuts` (sorted offsets) to one decoder. */
function decode(stream: Uint8Array, cuts: readonly number[] = []): { chars: Char[]; bad: number } {
  const d = new WakeupDecoder();
  const chars: Char[] = [];
  let at = 0;
  for (const cut of [...cuts, stream.length]) {
    d.push(stream.subarray(at, cut), (byte, ninth) => chars.push({ byte, ninth }));
    at = cut;
  }
  return { chars, bad: d.badEscapes };
}

const char = fc.tuple(fc.integer({ min: 0, max: 255 }), fc.boolean()).map(([byte, ninth]): Char => ({ byte, ninth }));
/** Bytes weighted towards the marker's own, so that hostile streams hit its cases often. */
const hostileByte = fc.oneof(fc.constantFrom(0xff, 0x00), fc.integer({ min: 0, max: 255 }));
const cutsOf = (n: number) => fc.uniqueArray(fc.integer({ min: 0, max: n }), { maxLength: 8 }).map((c) => c.sort((a, b) => a - b));

describe('SAS on a real UART: the receive decoder against the kernel’s PARMRK marking', () => {
  it('round trip: any characters, marked as the kernel marks them and read in any chunks, decode to themselves, no error counted', () => {
    fc.assert(
      fc.property(
        fc.array(char, { maxLength: 200 }).chain((chars) => fc.tuple(fc.constant(chars), cutsOf(kernelMarks(chars).length))),
        ([chars, cuts]) => {
          const got = decode(kernelMarks(chars), cuts);
          assert.deepEqual(got.chars, chars);
          assert.equal(got.bad, 0);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('a byte at a time decodes as the whole: FF 00 FF is FF with the ninth bit; FF FF FF FF two data FFs; FF 00 00 a wake-up 00', () => {
    const chars: Char[] = [
      { byte: 0xff, ninth: true },
      { byte: 0xff, ninth: false },
      { byte: 0xff, ninth: false },
      { byte: 0x00, ninth: true },
      { byte: 0x00, ninth: false },
      { byte: 0x81, ninth: true },
    ];
    const stream = kernelMarks(chars);
    assert.deepEqual([...stream], [0xff, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0xff, 0x00, 0x81]);
    assert.deepEqual(
      decode(
        stream,
        [...stream.keys()].map((i) => i + 1),
      ).chars,
      chars,
    );
  });

  it('hostile streams: never a throw; a malformed marker (FF then neither 00 nor FF) is counted and the byte after it read afresh', () => {
    const bad = decode(Uint8Array.of(0xff, 0x41, 0x42, 0xff, 0x01, 0xff, 0x00, 0x09));
    assert.deepEqual(bad.chars, [
      { byte: 0x41, ninth: false },
      { byte: 0x42, ninth: false },
      { byte: 0x01, ninth: false },
      { byte: 0x09, ninth: true },
    ]);
    assert.equal(bad.bad, 2);
    // The malformed FF before a real marker does not swallow it.
    assert.deepEqual(decode(Uint8Array.of(0xff, 0x7f, 0xff, 0x00, 0x05)).chars, [
      { byte: 0x7f, ninth: false },
      { byte: 0x05, ninth: true },
    ]);
    const flood = new Uint8Array(200_000).map((_, i) => (i % 2 === 0 ? 0xff : 0x01));
    const f = decode(flood, [1, 99_999, 150_000]);
    assert.equal(f.bad, 100_000);
    assert.equal(f.chars.length, 100_000);
    fc.assert(
      fc.property(
        fc.array(hostileByte, { maxLength: 300 }).chain((bytes) => fc.tuple(fc.constant(Uint8Array.from(bytes)), cutsOf(bytes.length))),
        ([stream, cuts]) => {
          const whole = decode(stream);
          const split = decode(stream, cuts);
          assert.deepEqual(split, whole, 'the chunking changes nothing');
          // Nothing is lost but the malformed FFs and a marker still open at the end (FF, or FF 00).
          const open = stream.length - kernelMarks(whole.chars).length - whole.bad;
          const tail = [...stream.subarray(stream.length - open)];
          assert.ok(open === 0 || (open === 1 && tail[0] === 0xff) || (open === 2 && tail[0] === 0xff && tail[1] === 0x00), `open tail ${tail.join(' ')}`);
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

/** A UART modelled: what was written goes out under the parity of the moment; every step recorded. */
class ModelLine implements UartLine {
  readonly device = '/dev/ttyMODEL';
  readonly steps: string[] = [];
  /** Characters on the wire, as the far end receives them. */
  readonly wire: Char[] = [];
  mark = false;
  closed = false;
  failMark = false;
  hangDrain = false;
  private dataFn: ((b: Uint8Array) => void) | null = null;
  private closeFn: ((e?: Error) => void) | null = null;
  /** The far end (the host) hears every character the machine puts on the wire. */
  onWire: (c: Char) => void = () => undefined;

  write(bytes: Uint8Array): Promise<void> {
    this.steps.push(`write ${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join(' ')}`);
    for (const byte of bytes) {
      const c = { byte, ninth: this.mark };
      this.wire.push(c);
      this.onWire(c);
    }
    return Promise.resolve();
  }
  drain(): Promise<void> {
    this.steps.push('drain');
    return this.hangDrain ? new Promise(() => undefined) : new Promise((r) => setTimeout(r, 1));
  }
  async setMark(mark: boolean): Promise<void> {
    this.steps.push(mark ? 'mark' : 'space');
    await new Promise((r) => setTimeout(r, 1));
    if (this.failMark) throw new SasUartError('refused', this.device, 'stty parodd: Input/output error');
    this.mark = mark;
  }
  onData(fn: (b: Uint8Array) => void): void {
    this.dataFn = fn;
  }
  onClose(fn: (e?: Error) => void): void {
    this.closeFn = fn;
  }
  close(): Promise<void> {
    this.closed = true;
    this.closeFn?.();
    return Promise.resolve();
  }
  /** The host's characters arrive, marked by the kernel. */
  receive(chars: readonly Char[]): void {
    this.receiveRaw(kernelMarks(chars));
  }
  receiveRaw(bytes: Uint8Array): void {
    this.dataFn?.(bytes);
  }
}

describe('SAS on a real UART: sending, the chirp under mark parity', () => {
  it('data goes as itself under space parity (a data FF one byte); the chirp alone: drain, mark, write, drain, space; a write meanwhile waits', async () => {
    const line = new ModelLine();
    const port = new SasUartPort(line);
    const chirp = port.write(encodeWire(Uint8Array.of(0x09), true));
    const answer = port.write(encodeWire(Uint8Array.of(0x09, 0xff, 0x01)));
    await Promise.all([chirp, answer]);
    assert.deepEqual(line.steps, ['drain', 'mark', 'write 09', 'drain', 'space', 'write 09 ff 01']);
    assert.deepEqual(line.wire, [
      { byte: 0x09, ninth: true },
      { byte: 0x09, ninth: false },
      { byte: 0xff, ninth: false },
      { byte: 0x01, ninth: false },
    ]);
    // The stream split mid-escape by a relay (a remote station's agent) decodes the same.
    const relayed = encodeWire(Uint8Array.of(0x0a), true);
    await port.write(relayed.subarray(0, 1));
    await port.write(relayed.subarray(1));
    assert.deepEqual(line.wire.at(-1), { byte: 0x0a, ninth: true });
    assert.equal(line.mark, false);
    await port.close();
  });

  it('a parity switch the device refuses, or one that hangs, loses the port with its reason (a SasUartError), never a throw out of the link', async () => {
    const refused = new ModelLine();
    refused.failMark = true;
    const port = new SasUartPort(refused);
    let lostWith: Error | undefined;
    port.onClose((e) => (lostWith = e));
    await assert.rejects(port.write(encodeWire(Uint8Array.of(0x09), true)), (e: unknown) => e instanceof SasUartError && e.fault === 'refused');
    assert.ok(port.closed && refused.closed);
    assert.match(lostWith?.message ?? '', /uart:\/dev\/ttyMODEL: stty parodd: Input\/output error/);
    await assert.rejects(port.write(Uint8Array.of(0x01)), SasUartError);

    const hung = new ModelLine();
    hung.hangDrain = true;
    const slow = new SasUartPort(hung, { switchMs: 50 });
    await assert.rejects(slow.write(encodeWire(Uint8Array.of(0x09), true)), (e: unknown) => e instanceof SasUartError && e.fault === 'timeout');
    assert.ok(slow.closed && hung.closed);
  });

  it('a station on a modelled UART answers the host simulator’s polls (marked by the kernel), and chirps under mark parity when the host falls silent', async () => {
    const line = new ModelLine();
    const reader = new WireReader();
    const link = new SasLink(() => Promise.resolve(new SasUartPort(line)), { address: 9, game: new MemoryGame(), silenceMs: 300, chirpMs: 100 });
    let hostFn: ((b: Uint8Array) => void) | null = null;
    // The host simulator speaks the fallback stream; the model turns it into wire characters and back.
    line.onWire = (c) => hostFn?.(toWire([{ byte: c.byte, wake: c.ninth }]));
    const io = {
      write: (bytes: Uint8Array) => {
        line.receive(reader.read(bytes).map((c) => ({ byte: c.byte, ninth: c.wake })));
        return Promise.resolve();
      },
      onData: (fn: (b: Uint8Array) => void) => void (hostFn = fn),
      close: () => Promise.resolve(),
    };
    link.start();
    try {
      await new Promise((r) => setTimeout(r, 50));
      const host = new SasHost(io, 9);
      await host.pollOther();
      assert.equal(await host.generalPoll(), 0x00);
      const coinIn = await host.typeR(0x11, 8);
      assert.deepEqual(coinIn.slice(0, 6), [0x09, 0x11, 0x01, 0x23, 0x45, 0x67]);
      assert.ok(
        line.wire.every((c) => !c.ninth),
        'answers carry no ninth bit',
      );
      const t0 = Date.now();
      while (host.chirps.length < 2 && Date.now() - t0 < 5_000) await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual(host.chirps.slice(0, 2), [0x09, 0x09]);
      const chirpAt = line.steps.indexOf('write 09');
      assert.deepEqual(line.steps.slice(chirpAt - 2, chirpAt + 3), ['drain', 'mark', 'write 09', 'drain', 'space']);
      assert.equal(link.framingErrors, 0);
      line.receiveRaw(Uint8Array.of(0xff, 0x33));
      assert.equal(link.framingErrors, 1, 'a malformed marker from the line is counted');
    } finally {
      await link.close();
    }
  });
});
