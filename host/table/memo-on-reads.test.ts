import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { memoOnReads } from './memo-on-reads.js';

// The memo records the fields a projection reads through one proxy handler made per memo (issue 52:
// not a handler and its traps made anew at every call): what each call reads must still be its own.
describe('a projection memoised on the fields it read', () => {
  type S = { a: number; b: number; c?: number; list: readonly number[] };
  const base: S = { a: 1, b: 2, list: [1] };

  it('builds once while the fields it read are the same; a field it did not read replaced leaves it', () => {
    let built = 0;
    const m = memoOnReads((s: S) => ({ built: ++built, a: s.a }));
    const first = m(base);
    assert.equal(m({ ...base }), first);
    assert.equal(m({ ...base, b: 3 }), first);
    assert.equal(built, 1);
    assert.deepEqual(m({ ...base, a: 5 }), { built: 2, a: 5 });
  });

  it('a field read through `in`, listed keys or a descriptor is in the key', () => {
    let built = 0;
    const viaIn = memoOnReads((s: S) => ({ built: ++built, has: 'c' in s }));
    viaIn(base);
    viaIn({ ...base, c: 1 });
    assert.equal(built, 2);
    built = 0;
    const viaKeys = memoOnReads((s: S) => ({ built: ++built, keys: Object.keys(s).length }));
    viaKeys(base);
    viaKeys({ ...base, b: 9 });
    assert.equal(built, 2, 'listing the keys reads every field');
    built = 0;
    const viaDescriptor = memoOnReads((s: S) => ({ built: ++built, d: Object.getOwnPropertyDescriptor(s, 'b')?.value }));
    viaDescriptor(base);
    viaDescriptor({ ...base, a: 9 });
    viaDescriptor({ ...base, a: 9, b: 7 });
    assert.equal(built, 2);
  });

  it('each call has its own reads: a second run reads other fields, a projection calling its own memo inside', () => {
    let built = 0;
    const m = memoOnReads((s: S): number => {
      built++;
      return s.a > 0 ? s.a : s.b;
    });
    m(base);
    m({ ...base, a: -1 }); // reads a and b now
    assert.equal(built, 2);
    m({ ...base, a: -1, b: 5 });
    assert.equal(built, 3, 'the second run read b: b replaced builds again');
    m({ ...base, a: -1, b: 5, list: [2] });
    assert.equal(built, 3);

    // A projection that calls its own memo on another state: the inner run's reads are not the outer's.
    let inner = 0;
    const nested: (s: S) => number = memoOnReads((s: S): number => {
      inner++;
      return s.list.length > 1 ? s.a : nested({ a: s.b, b: 0, list: [1, 2] });
    });
    assert.equal(nested(base), 2);
    const calls = inner;
    assert.equal(calls, 2, 'the outer run and the inner one');
    // The outer run read `list` and `b` of its own state, not `a` (the inner run read that of its own).
    assert.equal(nested({ ...base, a: 7 }), 2);
    assert.equal(inner, calls, 'a, read only by the inner run, replaced alone: the last result stands');
    assert.equal(nested({ ...base, b: 3 }), 3);
    assert.equal(inner, calls + 2);
  });

  it('a projection that throws leaves the last result standing', () => {
    const m = memoOnReads((s: S) => {
      if (s.a < 0) throw new Error('no');
      return { a: s.a };
    });
    const first = m(base);
    assert.throws(() => m({ ...base, a: -1 }));
    assert.equal(m({ ...base }), first);
  });
});
