import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { attributeCode } from './heap-attribution.js';
import { snapshot } from './fake-heap-snapshot.js';

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
