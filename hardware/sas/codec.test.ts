// The SAS codecs of the machine side: the CRC (Kermit form, seeded for the ROM check), BCD with
// its roll-over, and the fallback stream's escapes, across chunk boundaries and through noise.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { crc16Kermit } from '../crc.js';
import { bcdBytesFor, fromBcd, toBcd } from './bcd.js';
import { crcOk, withCrc } from './responder.js';
import { WakeupDecoder, encodeWire } from './wire.js';

const text = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('SAS codecs', () => {
  it('CRC-16 Kermit: "123456789" checks to 0x2189, sent low byte first; a seed continues it', () => {
    assert.equal(crc16Kermit(text('123456789')), 0x2189);
    const framed = withCrc(0x01, 0x1c, new Uint8Array(0));
    const crc = crc16Kermit(Uint8Array.of(0x01, 0x1c));
    assert.deepEqual([...framed], [0x01, 0x1c, crc & 0xff, crc >>> 8]);
    assert.ok(crcOk(framed));
    framed[3] = (framed[3] ?? 0) ^ 0x80;
    assert.ok(!crcOk(framed));
    const whole = text('the program actually running');
    assert.equal(
      crc16Kermit(whole, 0, whole.length, 0x1234),
      crc16Kermit(whole, 10, whole.length, crc16Kermit(whole, 0, 10, 0x1234)),
      'seeded in two chunks as in one',
    );
  });

  it('BCD: most significant byte first, rolled over at the field’s capacity, refused when not a digit', () => {
    assert.deepEqual([...toBcd(12_345_678, 4)], [0x12, 0x34, 0x56, 0x78]);
    assert.deepEqual([...toBcd(42, 4)], [0x00, 0x00, 0x00, 0x42]);
    assert.deepEqual([...toBcd(123_456_789, 4)], [0x23, 0x45, 0x67, 0x89], '9 digits in 8: rolls over');
    assert.equal(fromBcd(Uint8Array.of(0x20, 0x26)), 2026);
    assert.equal(fromBcd(Uint8Array.of(0x1a)), null);
    assert.equal(bcdBytesFor(98_765_432_109), 6);
    assert.throws(() => toBcd(-1, 4), RangeError);
    assert.throws(() => toBcd(1.5, 4), RangeError);
  });

  it('the fallback stream: FF 00 b is b with the wake-up bit, FF FF a data FF; split anywhere; noise resynchronises', () => {
    const wire = [...encodeWire(Uint8Array.of(0xff, 0x01, 0xff, 0x00), true), ...encodeWire(Uint8Array.of(0x83), true)];
    assert.deepEqual(wire, [0xff, 0x00, 0xff, 0x01, 0xff, 0xff, 0x00, 0xff, 0x00, 0x83]);
    for (let cut = 0; cut <= wire.length; cut++) {
      const d = new WakeupDecoder();
      const got: [number, boolean][] = [];
      d.push(Uint8Array.from(wire.slice(0, cut)), (b, w) => got.push([b, w]));
      d.push(Uint8Array.from(wire.slice(cut)), (b, w) => got.push([b, w]));
      assert.deepEqual(got, [
        [0xff, true],
        [0x01, false],
        [0xff, false],
        [0x00, false],
        [0x83, true],
      ]);
    }
    const d = new WakeupDecoder();
    const got: [number, boolean][] = [];
    d.push(Uint8Array.of(0xff, 0x41, 0x42), (b, w) => got.push([b, w]));
    assert.deepEqual(got, [
      [0x41, false],
      [0x42, false],
    ]);
    assert.equal(d.badEscapes, 1);
  });
});
