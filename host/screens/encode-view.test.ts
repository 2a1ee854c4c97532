import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { encodeView } from './encode-view.js';

describe('encodeView', () => {
  it('writes the same text as JSON.stringify, whether a part was encoded before or not', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.oneof(fc.jsonValue(), fc.constant(undefined))), fc.boolean(), (state, warm) => {
        const parts = new WeakMap<object, string>();
        if (warm) encodeView(state, parts);
        assert.equal(encodeView(state, parts), JSON.stringify(state));
      }),
      { numRuns: 500 },
    );
  });

  it('encodes a shared part once: a part changed in place would not show, which is why views never change one', () => {
    const round = { phase: 'betting' };
    const parts = new WeakMap<object, string>();
    assert.equal(encodeView({ kind: 'table', round }, parts), '{"kind":"table","round":{"phase":"betting"}}');
    round.phase = 'dealing';
    assert.equal(encodeView({ kind: 'station', round }, parts), '{"kind":"station","round":{"phase":"betting"}}');
  });
});
