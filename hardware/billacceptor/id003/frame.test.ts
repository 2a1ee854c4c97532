import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { asciiBytes, concatBytes, fromHex, toHex } from '../../bytes.js';
import { crc16Kermit } from '../../crc.js';
import { CMD } from './constants.js';
import { Id003Parser, encodeId003 } from './frame.js';

describe('ID-003 frames (test vectors: research note §1.2)', () => {
  it('CRC-16/KERMIT check value', () => {
    assert.equal(crc16Kermit(asciiBytes('123456789')), 0x2189);
  });
  const vectors: [string, number, number[]][] = [
    ['FC 05 11 27 56', CMD.STATUS_REQUEST, []],
    ['FC 05 40 2B 15', CMD.RESET, []],
    ['FC 05 41 A2 04', CMD.STACK_1, []],
    ['FC 05 43 B0 27', CMD.RETURN, []],
    ['FC 05 44 0F 53', CMD.HOLD, []],
    ['FC 05 50 AA 05', CMD.ACK, []],
    ['FC 06 C3 01 8D C7', CMD.SET_INHIBIT, [1]],
    ['FC 06 C3 00 04 D6', CMD.SET_INHIBIT, [0]],
    ['FC 05 88 6F 5F', CMD.GET_VERSION, []],
    ['FC 05 8A 7D 7C', CMD.GET_CURRENCY_ASSIGN, []],
  ];
  for (const [hex, code, data] of vectors) {
    it(`encodes and parses ${hex}`, () => {
      assert.equal(toHex(encodeId003(code, data)), hex);
      const frames = new Id003Parser().push(fromHex(hex));
      assert.equal(frames.length, 1);
      assert.equal(frames[0]?.code, code);
      assert.deepEqual(Array.from(frames[0]?.data ?? []), data);
    });
  }
  it('reassembles frames split across chunks and skips garbage', () => {
    const p = new Id003Parser();
    const bytes = concatBytes(fromHex('00 FC 01 FF'), encodeId003(0x13, [0x63]), encodeId003(0x11));
    const got = [];
    for (const b of bytes) got.push(...p.push(Uint8Array.of(b)));
    assert.deepEqual(
      got.map((f) => f.code),
      [0x13, 0x11],
    );
  });
});

describe('ID-003 parser fuzz', () => {
  const frameArb = fc.record({ code: fc.integer({ min: 0, max: 255 }), data: fc.uint8Array({ maxLength: 20 }) });
  it('never throws on random input, and only yields CRC-valid frames', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 20 }), (chunks) => {
        const p = new Id003Parser();
        const all = toHex(concatBytes(...chunks));
        for (const c of chunks) for (const f of p.push(c)) assert.ok(all.includes(toHex(encodeId003(f.code, f.data))));
      }),
    );
  });
  it('resynchronises: valid frames after corrupted or truncated ones are all recovered', () => {
    fc.assert(
      fc.property(fc.array(frameArb, { minLength: 1, maxLength: 8 }), fc.uint8Array({ maxLength: 30 }), fc.nat(), (frames, noise, cut) => {
        const p = new Id003Parser();
        const good = concatBytes(...frames.map((f) => encodeId003(f.code, f.data)));
        // a corrupted or truncated frame, then noise without SYNC bytes, then the good ones
        const bad = encodeId003(0x15);
        const truncated = bad.slice(0, 1 + (cut % (bad.length - 1)));
        p.push(truncated);
        p.reset(); // the driver resets after a reply timeout
        p.push(noise.map((b) => (b === 0xfc ? 0 : b)));
        const got = p.push(good);
        assert.deepEqual(
          got.map((f) => [f.code, toHex(f.data)]),
          frames.map((f) => [f.code, toHex(f.data)]),
        );
      }),
    );
  });
  it('a single flipped bit after LNG is always detected', () => {
    fc.assert(
      fc.property(frameArb, fc.nat(), fc.integer({ min: 0, max: 7 }), (f, pos, bit) => {
        const bytes = encodeId003(f.code, f.data);
        const i = 2 + (pos % (bytes.length - 2)); // CRC-16 catches every single-bit error it covers
        bytes[i] = (bytes[i] ?? 0) ^ (1 << bit);
        assert.equal(new Id003Parser().push(bytes).length, 0);
      }),
    );
  });
});
