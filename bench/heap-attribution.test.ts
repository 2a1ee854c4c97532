import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { attributeCode } from './heap-attribution.js';

/**
 * A snapshot in V8's layout: nodes [type, name, self size], edges [from, name, to], and closures'
 * locations [closure, line, column].
 */
function snapshot(nodes: [string, string, number][], edges: [number, string, number][], locations: [number, number, number][]): string {
  const types = ['hidden', 'array', 'string', 'object', 'code', 'closure'];
  const strings: string[] = [];
  const str = (x: string) => (strings.includes(x) ? strings.indexOf(x) : strings.push(x) - 1);
  const nodeFields = ['type', 'name', 'id', 'self_size', 'edge_count'];
  const flatNodes = nodes.flatMap(([type, name, size], i) => [types.indexOf(type), str(name), i, size, edges.filter((e) => e[0] === i).length]);
  const flatEdges = nodes.flatMap((_, i) => edges.filter((e) => e[0] === i).flatMap(([, name, to]) => [2, str(name), to * nodeFields.length]));
  return JSON.stringify({
    snapshot: {
      meta: {
        node_fields: nodeFields,
        node_types: [types],
        edge_fields: ['type', 'name_or_index', 'to_node'],
        edge_types: [['context', 'element', 'property', 'internal', 'hidden', 'shortcut', 'weak']],
        location_fields: ['object_index', 'script_id', 'script_object_index', 'line', 'column'],
      },
    },
    nodes: flatNodes,
    edges: flatEdges,
    strings,
    locations: locations.flatMap(([k, line, column]) => [k * nodeFields.length, 1, 0, line, column]),
  });
}

describe('a heap snapshot, its code by source module', () => {
  it("counts a function's machine code, bytecode and closures to the module its location maps to", () => {
    const json = snapshot(
      [
        ['closure', 'parse', 64], // 0: in zod
        ['code', 'system / SharedFunctionInfo / parse', 40], // 1
        ['code', 'system / Script', 10], // 2
        ['string', 'http://host/assets/index.js', 30], // 3
        ['code', 'system / BytecodeArray', 500], // 4
        ['code', 'system / Code', 100], // 5
        ['code', 'system / InstructionStream', 2000], // 6
        ['closure', 'draw', 32], // 7: in the kiosk's code
        ['code', 'system / SharedFunctionInfo / draw', 40], // 8
        ['code', 'system / BytecodeArray', 300], // 9
        ['code', 'system / InstructionStream', 700], // 10: retained by nothing that leads to a function
      ],
      [
        [0, 'shared', 1],
        [1, 'script', 2],
        [2, 'name', 3],
        [1, 'function_data', 4],
        [0, 'code', 5],
        [5, 'instruction_stream', 6],
        [7, 'shared', 8],
        [8, 'script', 2],
        [8, 'function_data', 9],
      ],
      [
        [0, 0, 10],
        [7, 0, 5000],
      ],
    );
    const located: string[] = [];
    const by = attributeCode(json, (url, line, column) => {
      located.push(`${url}@${line}:${column}`);
      return column < 1000 ? 'zod' : 'renderer/src/screens';
    });
    assert.deepEqual(by.get('zod'), { jit: 2100, bytecode: 500, closure: 64, all: 2664 });
    assert.deepEqual(by.get('renderer/src/screens'), { jit: 0, bytecode: 300, closure: 32, all: 332 });
    assert.deepEqual(by.get('(no function)'), { jit: 700, bytecode: 0, closure: 0, all: 700 });
    assert.ok(located.includes('http://host/assets/index.js@0:10'), 'located in the script its function names');
  });
});
