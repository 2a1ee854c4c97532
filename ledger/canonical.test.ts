import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { canonicalJson, chainHash, sha256Hex } from './canonical.js';

/** The canonical JSON as first written (map/filter/sort/join): the fast one must give the same bytes. */
function reference(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isSafeInteger(value)) throw new TypeError('not a safe integer');
      return Object.is(value, -0) ? '0' : String(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map((v) => reference(v === undefined ? null : v)).join(',')}]`;
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj)
        .filter((k) => obj[k] !== undefined)
        .sort();
      return `{${keys.map((k) => `${JSON.stringify(k)}:${reference(obj[k])}`).join(',')}}`;
    }
    default:
      throw new TypeError(`cannot hold a ${typeof value}`);
  }
}

const value = fc.letrec((tie) => ({
  any: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.constant(-0)),
    fc.string({ unit: 'binary' }),
    fc.array(fc.oneof(tie('any'), fc.constant(undefined))),
    fc.dictionary(fc.string({ unit: 'binary' }), fc.oneof(tie('any'), fc.constant(undefined))),
  ),
})).any;

describe('canonical JSON and hashes', () => {
  it('property: the same bytes as the reference writer, for any JSON value (keys in any order, undefined members, -0, any string)', () => {
    fc.assert(
      fc.property(value, (v) => {
        assert.equal(canonicalJson(v), reference(v));
      }),
      { numRuns: 2000 },
    );
  });

  it('sorts keys only when they are out of order, by UTF-16 code units, and refuses what it cannot hold', () => {
    assert.equal(canonicalJson({ b: 1, a: [2, undefined], c: undefined, é: -0, Z: 'x' }), '{"Z":"x","a":[2,null],"b":1,"é":0}');
    assert.equal(canonicalJson({ '\u{1F600}': 1, '\uFFFF': 2 }), reference({ '\u{1F600}': 1, '\uFFFF': 2 }));
    assert.throws(() => canonicalJson({ a: 0.5 }), /safe integers/);
    assert.throws(() => canonicalJson({ a: 2 ** 53 }), /safe integers/);
    assert.throws(() => canonicalJson({ a: () => 1 }), /cannot hold a function/);
  });

  it('hashes as SHA-256 of the body, and links as SHA-256 of the two hashes’ bytes', () => {
    const body = '{"a":"澳門"}';
    assert.equal(sha256Hex(body), createHash('sha256').update(body).digest('hex'));
    const a = sha256Hex('a');
    const b = sha256Hex('b');
    assert.equal(chainHash(a, b), createHash('sha256').update(Buffer.from(a, 'hex')).update(Buffer.from(b, 'hex')).digest('hex'));
    // Each half decoded on its own: a malformed half does not shift the other.
    assert.equal(chainHash('abc', b), createHash('sha256').update(Buffer.from('abc', 'hex')).update(Buffer.from(b, 'hex')).digest('hex'));
  });
});
