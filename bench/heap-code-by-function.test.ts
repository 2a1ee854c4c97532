import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { codeByFunction } from './heap-code-by-function.js';
import { snapshot } from './fake-heap-snapshot.js';

describe('a heap snapshot, its machine code by function and tier', () => {
  it("counts baseline code to its SharedFunctionInfo's function and optimized code to its closure's, each with what it alone holds", () => {
    const json = snapshot(
      [
        ['closure', 'draw', 32], // 0
        ['code', 'system / SharedFunctionInfo / draw', 40], // 1
        ['code', 'system / Script', 10], // 2
        ['string', 'http://host/assets/index.js', 30], // 3
        ['code', 'system / Code', 72], // 4: draw's baseline code (Sparkplug)
        ['code', 'system / InstructionStream', 900], // 5
        ['code', 'system / TrustedByteArray', 60], // 6: its bytecode offset table
        ['code', 'system / BytecodeArray', 300], // 7: the function's bytecode, not its machine code
        ['code', 'system / Code', 72], // 8: draw's optimized code, on its closure
        ['code', 'system / InstructionStream', 2000], // 9
        ['code', 'system / TrustedByteArray', 400], // 10: its deoptimization data
        ['code', 'system / InstructionStream', 5000], // 11: held twice, so no one's alone
        ['closure', 'other', 32], // 12
      ],
      [
        [0, 'shared', 1],
        [1, 'script', 2],
        [2, 'name', 3],
        [1, 'trusted_function_data', 4],
        [4, 'instruction_stream', 5],
        [4, 'bytecode_offset_table', 6],
        [4, 'interpreter_data', 7],
        [0, 'code', 8],
        [8, 'instruction_stream', 9],
        [8, 'deoptimization_data', 10],
        [8, 'shared_stream', 11],
        [12, 'shared_stream', 11],
      ],
      [[0, 4, 2]],
    );
    const located: [string, number, number][] = [];
    const byFn = codeByFunction(json, (url, line, column) => (located.push([url, line, column]), 'renderer/src/roads'));
    assert.deepEqual([...byFn.entries()].sort(), [
      ['draw @ renderer/src/roads (baseline)', { fn: 'draw @ renderer/src/roads', tier: 'baseline', count: 1, bytes: 72 + 900 + 60 }],
      ['draw @ renderer/src/roads (optimized)', { fn: 'draw @ renderer/src/roads', tier: 'optimized', count: 1, bytes: 72 + 2000 + 400 }],
    ]);
    assert.deepEqual(located[0], ['http://host/assets/index.js', 4, 2]);
  });
});
