import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { notPlainData } from './plain-data.js';

describe('plain data (what a checkpoint keeps exactly)', () => {
  it('takes objects, arrays, strings, finite numbers, booleans and null', () => {
    assert.equal(notPlainData({ a: [1, 'x', true, null, { b: -0.5 }], c: undefined }), null);
  });

  it('names the path of a function, a class instance, a Map, an undefined in an array, NaN, a bigint', () => {
    assert.equal(notPlainData({ bets: [{ id: 'anyPair', offered: () => true }] }), '$.bets[0].offered: a function');
    assert.equal(notPlainData({ when: new Date(0) }), '$.when: an instance of Date');
    assert.equal(notPlainData({ m: new Map() }), '$.m: an instance of Map');
    assert.equal(notPlainData({ a: [1, undefined] }), '$.a[1]: undefined in an array (JSON writes null)');
    assert.equal(notPlainData({ n: Number.NaN }), '$.n: NaN (JSON writes null)');
    assert.equal(notPlainData({ n: 1n }), '$.n: a bigint');
  });
});
