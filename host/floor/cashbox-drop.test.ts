import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dropEntry } from './cashbox-drop.js';

describe('the drop count against the credits (cashbox-drop.ts)', () => {
  it('lists each face value counted or credited, ascending, with the totals and the difference counted − credited', () => {
    const e = dropEntry(
      3,
      'MOP',
      new Map([
        [500, 2],
        [100, 0],
        [1000, 1],
      ]),
      {
        notes: new Map([
          [100, 4],
          [500, 2],
        ]),
        sinceSeq: 41,
      },
      ['Ana Lei (1001)', 'Bo Chan (1002)'],
    );
    assert.deepEqual(e.notes, [
      { denomination: 10_000, counted: 0, credited: 4 },
      { denomination: 50_000, counted: 2, credited: 2 },
      { denomination: 100_000, counted: 1, credited: 0 },
    ]);
    assert.equal(e.counted, 200_000);
    assert.equal(e.credited, 140_000);
    assert.equal(e.difference, 60_000);
    assert.equal(e.sinceSeq, 41);
  });

  it('an empty cashbox and nothing credited since the last drop is a drop of nothing', () => {
    const e = dropEntry(101, 'HKD', new Map(), { notes: new Map(), sinceSeq: null }, ['A (1)', 'B (2)']);
    assert.deepEqual([e.notes, e.counted, e.credited, e.difference, 'sinceSeq' in e], [[], 0, 0, 0, false]);
  });
});
