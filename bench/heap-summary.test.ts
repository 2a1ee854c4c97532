import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { heapGrowth, heapKinds, heapSplit } from './heap-summary.js';

/** A snapshot of `nodes`, each [type index, name, self size], in V8's layout. */
function snapshot(nodes: [number, string, number][]): string {
  const strings = [...new Set(nodes.map((n) => n[1]))];
  return JSON.stringify({
    snapshot: {
      meta: {
        node_fields: ['type', 'name', 'id', 'self_size', 'edge_count'],
        node_types: [['hidden', 'array', 'string', 'object', 'code', 'closure', 'native']],
      },
    },
    nodes: nodes.flatMap(([type, name, size], id) => [type, strings.indexOf(name), id, size, 0]),
    strings,
  });
}

describe('a heap snapshot, by kind', () => {
  it('counts objects by constructor, closures by function, the rest by type; and says what grew', () => {
    const before = heapKinds(
      snapshot([
        [3, 'Text', 100],
        [5, 'onTick', 32],
        [2, 'abc', 20],
      ]),
    );
    assert.deepEqual(before.get('Text'), { kind: 'Text', count: 1, bytes: 100 });
    assert.deepEqual(before.get('ƒ onTick'), { kind: 'ƒ onTick', count: 1, bytes: 32 });
    assert.deepEqual(before.get('(string)'), { kind: '(string)', count: 1, bytes: 20 });
    const after = heapKinds(
      snapshot([
        [3, 'Text', 100],
        [3, 'Text', 100],
        [3, 'Texture', 60],
        [5, 'onTick', 32],
        [2, 'abc', 20],
      ]),
    );
    assert.deepEqual(heapGrowth(before, after), [
      { kind: 'Text', count: 1, bytes: 100 },
      { kind: 'Texture', count: 1, bytes: 60 },
    ]);
  });

  it("splits V8's code from Blink's native nodes and from the rest of the heap", () => {
    const split = heapSplit(
      heapKinds(
        snapshot([
          [4, 'BytecodeArray', 300],
          [4, 'feedback vector', 50],
          [6, 'HTMLCanvasElement', 1000],
          [3, 'Text', 100],
          [5, 'onTick', 32],
          [1, '', 40],
        ]),
      ),
    );
    assert.deepEqual(split, { code: 350, native: 1000, objects: 172 });
  });

  it('refuses what is not a snapshot', () => {
    assert.throws(
      () => heapKinds(JSON.stringify({ snapshot: { meta: { node_fields: ['id'], node_types: [[]] } }, nodes: [], strings: [] })),
      /no node field "type"/,
    );
  });
});
