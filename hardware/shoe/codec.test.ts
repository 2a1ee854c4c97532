import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { asciiBytes, concatBytes, toHex } from '../bytes.js';
import { LineSplitter, MAX_LINE, parseAsciiLine } from './ascii.js';
import { cardFromWire, cardToWire, isCardCode, parseVendorCard, RANKS, SUITS } from './card-code.js';
import { MSG, ShoeFrameParser, encodeShoeFrame, nextSeq, seqDiff } from './framed.js';

describe('card codes', () => {
  it('wire rank/suit round trip for all 52 cards', () => {
    for (const r of RANKS)
      for (const s of SUITS) {
        const c = `${r}${s}` as const;
        assert.ok(isCardCode(c));
        const w = cardToWire(c);
        assert.equal(cardFromWire(w.rank, w.suit), c);
      }
    assert.equal(cardFromWire(0, 0), null);
    assert.equal(cardFromWire(14, 0), null);
    assert.equal(cardFromWire(1, 4), null);
  });
  it('parses vendor strings in either order, letters or numbers', () => {
    const cases: [string, string | null][] = [
      ['4S', '4S'],
      ['H3', '3H'],
      ['10H', 'TH'],
      ['TD', 'TD'],
      ['D12', 'QD'],
      ['c1', 'AC'],
      ['S13', 'KS'],
      ['KS', 'KS'],
      ['1S', 'AS'],
      ['X9', null],
      ['', null],
      ['14H', null],
      ['H0', null],
      // Neither order reads these: a suit twice, a rank twice, a number alone, what an object holds.
      ['SS', null],
      ['AK', null],
      ['10', null],
      ['H', null],
      ['CONSTRUCTORS', null],
      ['__PROTO__H', null],
      [' 9c ', '9C'],
    ];
    for (const [raw, want] of cases) assert.equal(parseVendorCard(raw), want, raw);
  });
});

describe('framed shoe codec', () => {
  it('encodes a CARD_DRAWN frame with the documented layout', () => {
    const f = encodeShoeFrame(0x0102, MSG.CARD_DRAWN, [0x05, 0x00, 1, 0, 97, 0]);
    assert.equal(toHex(f.subarray(0, 6)), '02 01 02 01 11 06');
    const back = new ShoeFrameParser().push(f);
    assert.deepEqual(
      back.map((x) => [x.seq, x.type, toHex(x.payload)]),
      [[0x0102, MSG.CARD_DRAWN, '05 00 01 00 61 00']],
    );
  });
  it('sequence arithmetic wraps from 65535 to 1', () => {
    assert.equal(nextSeq(0xffff), 1);
    assert.equal(nextSeq(0), 1);
    assert.equal(seqDiff(1, 0xffff), 1);
    assert.equal(seqDiff(0xffff, 1), -1);
    assert.equal(seqDiff(10, 7), 3);
  });
  const arb = fc.record({ seq: fc.integer({ min: 0, max: 0xffff }), type: fc.integer({ min: 0, max: 255 }), payload: fc.uint8Array({ maxLength: 40 }) });
  it('fuzz: random input never throws and yields only frames present in the input', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 50 }), { maxLength: 10 }), (chunks) => {
        const p = new ShoeFrameParser();
        const all = toHex(concatBytes(...chunks));
        for (const c of chunks) for (const f of p.push(c)) assert.ok(all.includes(toHex(encodeShoeFrame(f.seq, f.type, f.payload))));
      }),
    );
  });
  it('fuzz: resynchronises after noise, corruption and truncation', () => {
    fc.assert(
      fc.property(fc.array(arb, { minLength: 1, maxLength: 6 }), fc.uint8Array({ maxLength: 30 }), fc.nat(), (frames, noise, cut) => {
        const p = new ShoeFrameParser();
        const bad = encodeShoeFrame(7, MSG.CARD_DRAWN, [1, 0, 1, 0, 90, 0]);
        p.push(noise.map((b) => (b === 0x02 ? 0 : b)));
        p.push(bad.slice(0, 1 + (cut % (bad.length - 1))));
        p.reset(); // the host resets after a quiet period
        const got = p.push(concatBytes(...frames.map((f) => encodeShoeFrame(f.seq, f.type, f.payload))));
        assert.deepEqual(
          got.map((f) => `${f.seq}/${f.type}/${toHex(f.payload)}`),
          frames.map((f) => `${f.seq}/${f.type}/${toHex(f.payload)}`),
        );
      }),
    );
  });
  it('a flipped bit is never accepted', () => {
    fc.assert(
      fc.property(arb, fc.nat(), fc.integer({ min: 0, max: 7 }), (f, pos, bit) => {
        const b = encodeShoeFrame(f.seq, f.type, f.payload);
        const i = 6 + (pos % (b.length - 6)); // after the LEN byte: covered by the CRC
        b[i] = (b[i] ?? 0) ^ (1 << bit);
        assert.equal(new ShoeFrameParser().push(b).length, 0);
      }),
    );
  });
});

describe('ASCII shoe lines', () => {
  it('parses the Bee-Tek style and bare codes', () => {
    assert.deepEqual(parseAsciiLine('[Game]<Card:4S>'), { kind: 'card', card: '4S', burn: false, raw: '4S' });
    assert.deepEqual(parseAsciiLine(' [Manual Burn Cards]<Card:H3> '), { kind: 'card', card: '3H', burn: true, raw: 'H3' });
    assert.deepEqual(parseAsciiLine('[Game]<Game>'), { kind: 'unreadable', burn: false, raw: 'Game' });
    assert.deepEqual(parseAsciiLine('[Game]<Alarm:E3 Card Not Read>'), { kind: 'alarm', code: 'E3', text: 'Card Not Read', severity: 'warning' });
    assert.deepEqual(parseAsciiLine('<W0x01>'), { kind: 'alarm', code: 'W0x01', text: 'warning', severity: 'info' });
    assert.deepEqual(parseAsciiLine('D12'), { kind: 'card', card: 'QD', burn: false, raw: 'D12' });
    assert.deepEqual(parseAsciiLine('[Game]<Card:ZZ>'), { kind: 'unreadable', burn: false, raw: 'ZZ' });
    assert.equal(parseAsciiLine('hello'), null);
  });
  it('splits lines on CR/LF, drops over-long and damaged lines', () => {
    const s = new LineSplitter();
    assert.deepEqual(s.push(asciiBytes('AS\r\n2H\n\n3C\r')), ['AS', '2H', '3C']);
    assert.deepEqual(s.push(asciiBytes('x'.repeat(MAX_LINE + 5) + '\nKD\n')), ['KD']);
    assert.deepEqual(s.push(Uint8Array.from([0x41, 0x00, 0x53, 0x0a, 0x51, 0x53, 0x0a])), ['QS']);
  });
  it('fuzz: the splitter and line parser never throw, and a clean line after garbage is read', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (junk) => {
        const s = new LineSplitter();
        for (const l of s.push(junk)) parseAsciiLine(l);
        const lines = s.push(asciiBytes('\n[Game]<Card:TC>\n'));
        assert.equal(lines.at(-1), '[Game]<Card:TC>');
      }),
    );
  });
});
