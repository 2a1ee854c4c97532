// The validation number (terms/validation-number.ts) against a second implementation written
// here from the same description (SAS 6.02's secure enhanced validation, docs/tito.md): the CRC by
// the nibble method the SAS document gives (multiplier 0o10201), the digits by arithmetic, not by
// strings. Then the collision argument, piece by piece, and what the check refuses.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { crc16, MACHINE_ID_MAX, parseValidationNumber, SEQUENCE_MAX, validationNumber } from './validation-number.js';

/** CRC-16/Kermit a nibble at a time (the SAS document's form). */
function crcNibbles(bytes: readonly number[]): number {
  let crc = 0;
  for (const x of bytes) {
    let q = (crc ^ x) & 0o17;
    crc = (crc >>> 4) ^ (q * 0o10201);
    q = (crc ^ (x >>> 4)) & 0o17;
    crc = (crc >>> 4) ^ (q * 0o10201);
  }
  return crc & 0xffff;
}

/** The number from the description, digits as numbers. */
function second(id: number, seq: number): string {
  const byte = (v: number, i: number) => Math.floor(v / 256 ** i) % 256;
  const a = [byte(seq, 0), byte(seq, 1), byte(seq, 2), byte(id, 0), byte(id, 1), byte(id, 2)];
  const b = [a[0]!, a[1]!, a[2]! ^ a[0]!, a[3]! ^ a[1]!, a[4]! ^ a[0]!, a[5]! ^ a[1]!];
  const c: number[] = [];
  for (const k of [0, 2, 4]) {
    const v = crcNibbles([b[k]!, b[k + 1]!]);
    c.push(v % 256, Math.floor(v / 256));
  }
  const n0 = c[3]! + c[4]! * 256 + c[5]! * 65536;
  const n1 = c[0]! + c[1]! * 256 + c[2]! * 65536;
  const digits = (n: number) => {
    const d: number[] = [];
    for (let i = 7; i >= 0; i--) d.push(Math.floor(n / 10 ** i) % 10);
    const sum = d.reduce((s, x) => s + x, 0);
    d[0] = d[0]! + 2 * (sum % 5);
    return d.join('');
  };
  return `00${digits(n0)}${digits(n1)}`;
}

const ids = fc.integer({ min: 1, max: MACHINE_ID_MAX });
const seqs = fc.integer({ min: 1, max: SEQUENCE_MAX });

describe('validation number', () => {
  it('CRC-16/Kermit: the check value 0x2189 of "123456789", both implementations', () => {
    const bytes = [...'123456789'].map((ch) => ch.charCodeAt(0));
    assert.equal(crc16(bytes), 0x2189);
    assert.equal(crcNibbles(bytes), 0x2189);
  });

  it('is the second implementation for every id and sequence (fast-check), 18 digits, system id 00', () => {
    fc.assert(
      fc.property(ids, seqs, (id, seq) => {
        const n = validationNumber(id, seq);
        assert.equal(n, second(id, seq));
        assert.match(n, /^00\d{16}$/);
      }),
      { numRuns: 2000 },
    );
    for (const [id, seq] of [
      [1, 1],
      [MACHINE_ID_MAX, SEQUENCE_MAX],
      [1, SEQUENCE_MAX],
      [MACHINE_ID_MAX, 1],
    ] as const) {
      assert.equal(validationNumber(id, seq), second(id, seq));
    }
  });

  it('reads back its machine id and sequence (the map is invertible, so never two tickets one number)', () => {
    fc.assert(
      fc.property(ids, seqs, (id, seq) => {
        const p = parseValidationNumber(validationNumber(id, seq));
        assert.deepEqual(p.ok && [p.machineId, p.sequence], [id, seq]);
      }),
      { numRuns: 2000 },
    );
  });

  it('each CRC over two bytes is a bijection: all 65 536 messages give 65 536 distinct CRCs', () => {
    const seen = new Set<number>();
    for (let m = 0; m < 0x10000; m++) seen.add(crc16([m & 0xff, m >>> 8]));
    assert.equal(seen.size, 0x10000);
  });

  it('distinct (id, sequence) pairs give distinct numbers: a whole table of 2¹⁶ tickets and 4 096 tables at one sequence', () => {
    const one = new Set<string>();
    for (let seq = 1; seq <= 0x10000; seq++) one.add(validationNumber(77, seq));
    assert.equal(one.size, 0x10000);
    const floor = new Set<string>();
    for (let id = 1; id <= 4096; id++) floor.add(validationNumber(id, 1234));
    assert.equal(floor.size, 4096);
  });

  it('refuses a wrong shape, another system, an impossible half, a zero id or sequence, a bad check', () => {
    const good = validationNumber(4242, 17);
    assert.deepEqual(parseValidationNumber(good.slice(1)), { ok: false, reason: 'shape' });
    assert.deepEqual(parseValidationNumber(`${good.slice(0, 17)}x`), { ok: false, reason: 'shape' });
    assert.deepEqual(parseValidationNumber(` ${good.slice(1)}`), { ok: false, reason: 'shape' });
    assert.deepEqual(parseValidationNumber(`01${good.slice(2)}`), { ok: false, reason: 'system' });
    // 17 777 777 > 2²⁴ − 1 with its right check digit: 1+7·7 = 50, 50 mod 5 = 0, so the lead stays 1.
    assert.deepEqual(parseValidationNumber(`0017777777${good.slice(10)}`), { ok: false, reason: 'range' });
    // The same id and sequence make these halves: zero everywhere is sequence 0 and id 0.
    assert.deepEqual(parseValidationNumber('000000000000000000'), { ok: false, reason: 'range' });
    // Every single-digit change in the 16 digits but a change by exactly 5 fails its check.
    for (let i = 2; i < 18; i++) {
      for (let d = 0; d <= 9; d++) {
        const digit = Number(good[i]);
        if (d === digit) continue;
        const forged = `${good.slice(0, i)}${d}${good.slice(i + 1)}`;
        const p = parseValidationNumber(forged);
        if (Math.abs(d - digit) !== 5 && i !== 2 && i !== 10) assert.equal(p.ok, false, `${forged} passed`);
      }
    }
  });

  it('refuses most made-up numbers: about 1 in 3 500 random 18 digits passes (1 in 35 with the prefix right)', () => {
    // mulberry32, seeded: the same digits on every run.
    let seed = 47;
    const rand = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return (t ^ (t >>> 14)) >>> 0;
    };
    let passed = 0;
    const n = 200_000;
    for (let i = 0; i < n; i++) {
      let digits = '00';
      for (let k = 0; k < 16; k++) digits += String(rand() % 10);
      if (parseValidationNumber(digits).ok) passed++;
    }
    // With the prefix given: expected 1/10·(1 + 0.678) per half, squared ≈ 0.028.
    assert.ok(passed / n > 0.02 && passed / n < 0.036, `${passed} of ${n} passed`);
  });

  it('refuses out-of-range input to the issuer', () => {
    assert.throws(() => validationNumber(0, 1), RangeError);
    assert.throws(() => validationNumber(1, 0), RangeError);
    assert.throws(() => validationNumber(MACHINE_ID_MAX + 1, 1), RangeError);
    assert.throws(() => validationNumber(1, SEQUENCE_MAX + 1), RangeError);
    assert.throws(() => validationNumber(1.5, 1), RangeError);
  });
});
