import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UnwitnessedAges } from './unwitnessed-ages.js';

describe('the ages of the entries the witness has not signed', () => {
  it('counts from the oldest entry still waiting as the witness signs part of them', () => {
    const a = new UnwitnessedAges();
    a.appended(1, 0);
    a.appended(2, 5_000);
    a.appended(3, 9_000);
    assert.equal(a.oldest(), 0);
    a.witnessedThrough(1, 3);
    assert.equal(a.oldest(), 5_000, 'entry 2 waits since 5 s');
    a.witnessedThrough(2, 3);
    assert.equal(a.oldest(), 9_000);
    a.witnessedThrough(3, 3);
    assert.equal(a.oldest(), null);
  });

  it('commits within a second share the first one’s time (never younger than they are)', () => {
    const a = new UnwitnessedAges();
    a.appended(1, 0);
    a.appended(2, 400);
    a.appended(3, 999);
    a.appended(4, 1_000);
    a.witnessedThrough(2, 4);
    assert.equal(a.oldest(), 0, 'entry 3 came at 999 ms: counted from 0, older, not younger');
    a.witnessedThrough(3, 4);
    assert.equal(a.oldest(), 1_000);
  });

  it('past an hour of marks a new commit takes the newest mark’s time: older, so the limit stops sooner, never later', () => {
    const a = new UnwitnessedAges();
    for (let i = 0; i < 3_600; i++) a.appended(i + 1, i * 1_000);
    a.appended(3_601, 10_000_000);
    a.witnessedThrough(3_600, 3_601);
    assert.equal(a.oldest(), 3_599_000, 'the newest mark, not the commit’s own 10,000 s');
  });

  it('a head signed that is not yet the journal’s keeps the run that holds the next entry', () => {
    const a = new UnwitnessedAges();
    a.appended(1, 0);
    a.appended(5, 2_000);
    a.witnessedThrough(3, 6);
    assert.equal(a.oldest(), 0, 'entry 4 came with the run from 1');
    a.witnessedThrough(4, 6);
    assert.equal(a.oldest(), 2_000);
  });
});
