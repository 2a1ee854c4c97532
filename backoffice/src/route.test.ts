import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { routeOf } from './route.js';

// The page's address after `#`, as a person may type or paste it. A malformed escape (`%E0`) threw
// URIError from decodeURIComponent, and the page said the engine's English words ("Could not load:
// URI malformed") in every language, in place of the page's own refusal.
describe("the page's route", () => {
  it('reads a table and a round, their escapes decoded', () => {
    assert.deepEqual(routeOf('#/table/T%3A1'), { page: 'table', table: 'T:1' });
    assert.deepEqual(routeOf('#/table/T1/round/T1-r%2F1'), { page: 'round', table: 'T1', round: 'T1-r/1' });
    assert.deepEqual(routeOf('#table/T1'), { page: 'table', table: 'T1' });
  });

  it('reads the other pages, and the floor for anything else', () => {
    for (const p of ['alarms', 'plots', 'report', 'audit'] as const) assert.deepEqual(routeOf(`#/${p}`), { page: p });
    for (const h of ['', '#', '#/', '#/floor', '#/nowhere']) assert.deepEqual(routeOf(h), { page: 'floor' }, h);
  });

  it('says a table or a round whose escape is malformed is none, never throws', () => {
    for (const h of ['#/table/%E0', '#/table/%', '#/table/T%ZZ1', '#/table/%E0/round/r1'])
      assert.deepEqual(routeOf(h), { page: 'unreadable', what: 'no-table' }, h);
    assert.deepEqual(routeOf('#/table/T1/round/%E0%A4'), { page: 'unreadable', what: 'no-round' });
  });
});
