import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { snapshot } from './fake-heap-snapshot.js';
import { heapGraph, heapRetainedGrowth } from './heap-retained.js';

/**
 * A page: the root holds a screen, the screen a log (an Array) and its state; the log holds `n`
 * entries, each an object with a string. The state is replaced (a new object) between snapshots.
 */
function page(n: number, stateSize: number): string {
  const nodes: [string, string, number][] = [
    ['hidden', '(root)', 0],
    ['object', 'Screen', 40],
    ['object', 'Array', 16],
    ['object', 'State', stateSize],
  ];
  const edges: [number, string, number][] = [
    [0, 'screen', 1],
    [1, 'log', 2],
    [1, 'state', 3],
  ];
  for (let i = 0; i < n; i++) {
    const entry = nodes.push(['object', 'Entry', 32]) - 1;
    const text = nodes.push(['string', `round ${i}`, 24]) - 1;
    edges.push([2, String(i), entry], [entry, 'text', text]);
  }
  return snapshot(nodes, edges, []);
}

describe('what a page keeps more of between two snapshots (heap-retained)', () => {
  it('follows the growth down to the array that holds more entries, and names the path that keeps it', () => {
    // Ids are node indices in the fake: the entries of the first snapshot keep theirs in the second.
    const early = heapGraph(page(3, 100));
    const late = heapGraph(page(10, 100));
    assert.equal(late.retained[0], 40 + 16 + 100 + 10 * 56);
    const [top, ...rest] = heapRetainedGrowth(early, late, 8, 0.5, 1);
    assert.ok(top);
    assert.equal(top.kind, 'Array');
    assert.equal(top.after - top.before, 7 * 56);
    assert.equal(top.heldBefore, 6);
    assert.equal(top.heldAfter, 20);
    assert.deepEqual(top.path, ['screen (Screen)', 'log (Array)']);
    assert.deepEqual(top.more, [{ kind: 'Entry', count: 7, bytes: 7 * 56 }]);
    assert.equal(rest.length, 0, 'nothing else grew');
  });

  it('finds nothing where the page holds the same (a state replaced by one of its size is not growth)', () => {
    assert.deepEqual(heapRetainedGrowth(heapGraph(page(4, 100)), heapGraph(page(4, 100)), 8, 0.5, 1), []);
    // Retained sizes from the dominator tree: an entry reachable from two holders is neither's alone.
    const shared = heapGraph(
      snapshot(
        [
          ['hidden', '(root)', 0],
          ['object', 'A', 10],
          ['object', 'B', 10],
          ['object', 'Big', 1000],
        ],
        [
          [0, 'a', 1],
          [0, 'b', 2],
          [1, 'x', 3],
          [2, 'x', 3],
        ],
        [],
      ),
    );
    assert.equal(shared.retained[1], 10);
    assert.equal(shared.retained[0], 1020);
  });
  it('looks past the root when the growth is spread over holders none of which carries half of it (a Node process)', () => {
    // The root holds three logs, each growing by a third: the growth fans out at the root, which is
    // no place to fix; each log is. Entries are added round by round after the logs, so that an
    // entry's id (its index in the fake) is the same in both snapshots.
    const host = (n: number) => {
      const nodes: [string, string, number][] = [['hidden', '(root)', 0]];
      const edges: [number, string, number][] = [];
      const logs = ['a', 'b', 'c'].map((name) => {
        const log = nodes.push(['object', 'Array', 16]) - 1;
        edges.push([0, name, log]);
        return log;
      });
      for (let i = 0; i < n; i++) for (const log of logs) edges.push([log, String(i), nodes.push(['object', 'Entry', 32]) - 1]);
      return snapshot(nodes, edges, []);
    };
    const places = heapRetainedGrowth(heapGraph(host(2)), heapGraph(host(6)), 8, 0.5, 1);
    const logs = places.filter((p) => p.kind === 'Array');
    assert.deepEqual(
      logs.map((p) => [p.path, p.after - p.before]),
      ['a', 'b', 'c'].map((name) => [[`${name} (Array)`], 4 * 32]),
    );
  });
});
