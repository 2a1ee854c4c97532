import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { thrownSaid } from './thrown-said.js';

// PGlite (Emscripten) can throw what is not an Error: a refusal then read "cannot be opened
// ([object Object])" (a review saw it with two services initialising one folder at once).
describe('what a throw says', () => {
  it('an Error its message; an object its message or exit status; anything else its JSON, bounded', () => {
    assert.equal(thrownSaid(new Error('disk full')), 'disk full');
    assert.equal(thrownSaid({ name: 'ExitStatus', message: 'Program terminated with exit(1)', status: 1 }), 'Program terminated with exit(1)');
    assert.equal(thrownSaid({ status: 3 }), 'exit status 3');
    assert.equal(thrownSaid({ code: 'XX000', detail: 'bad' }), '{"code":"XX000","detail":"bad"}');
    assert.equal(thrownSaid('plain words'), 'plain words');
    assert.equal(thrownSaid(undefined), 'undefined');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    assert.equal(thrownSaid(cyclic), 'an object that is not an Error');
    assert.ok(thrownSaid({ text: 'x'.repeat(10_000) }).length <= 300);
    assert.doesNotMatch(thrownSaid({ a: 1 }), /\[object Object\]/);
  });
});
