import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inputsKey, memoOnInputs } from './memo-on-inputs.js';

describe('a view memoised on its declared inputs (issue 32 item 6)', () => {
  const inputs = { params: { limits: 1 }, history: [1, 2], shoeNo: 3, streaks: [{ seat: 1, wins: 2 }] };
  type I = typeof inputs;

  it('builds once while every field is the same, a content field rebuilt equal included', () => {
    let built = 0;
    const view = memoOnInputs((i: I) => ({ built: ++built, i }), ['streaks']);
    const first = view(inputs);
    assert.equal(view({ ...inputs }), first);
    assert.equal(view({ ...inputs, streaks: [{ seat: 1, wins: 2 }] }), first);
    assert.equal(built, 1);
  });

  it('builds again when any one declared field is replaced alone, with no list of fields kept by hand', () => {
    const replaced: Record<keyof I, unknown> = { params: { limits: 1 }, history: [1, 2], shoeNo: 4, streaks: [{ seat: 1, wins: 3 }] };
    for (const field of Object.keys(inputs) as (keyof I)[]) {
      let built = 0;
      const view = memoOnInputs((i: I) => ({ built: ++built, i }), ['streaks']);
      view(inputs);
      view({ ...inputs, [field]: replaced[field] });
      assert.equal(built, 2, `${field} replaced alone leaves the view stale`);
    }
  });

  it('a field added to the record is in the key from then on', () => {
    assert.equal(inputsKey(inputs, []).length, 4);
    assert.equal(inputsKey({ ...inputs, jackpot: null }, []).length, 5);
    assert.deepEqual(inputsKey({ a: [1], b: undefined }, ['a', 'b']), ['[1]', 'null']);
  });
});
