import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { snapshot } from './fake-heap-snapshot.js';
import { callCounts, callRates, codeLedger, windows } from './heap-code-windows.js';

/**
 * A page's snapshot by hand: functions by literal id, each with bytecode, maybe a feedback vector,
 * and maybe TurboFan code of a given machine-code size (its deoptimization data naming the function).
 */
function page(fns: { lit: number; name: string; feedback?: boolean; turbofan?: number }[]): string {
  const nodes: [string, string, number][] = [
    ['code', 'system / Script', 80],
    ['string', 'http://host/assets/index.js', 0],
  ];
  const edges: [number, string, number][] = [[0, 'name', 1]];
  const add = (type: string, name: string, size: number) => nodes.push([type, name, size]) - 1;
  for (const f of fns) {
    const sfi = add('code', `system / SharedFunctionInfo / ${f.name}`, 48);
    edges.push([sfi, 'script', 0]);
    for (const [field, value] of [
      ['function_literal_id', f.lit],
      ['end_position', f.lit * 100],
    ] as const) {
      const n = add('hidden', 'int', 0);
      edges.push([sfi, field, n], [n, 'value', add('string', String(value), 0)]);
    }
    const bc = add('code', 'system / BytecodeArray', 100);
    edges.push([sfi, 'trusted_function_data', bc], [bc, 'table', add('code', 'system / TrustedByteArray', 20)]);
    if (f.feedback) edges.push([add('code', 'system / FeedbackVector', 60), 'shared', sfi]);
    if (f.turbofan !== undefined) {
      const code = add('code', 'system / Code', 72);
      const is = add('code', 'system / InstructionStream', f.turbofan);
      const dd = add('code', 'system / ProtectedFixedArray', 300);
      const wrapper = add('code', 'system / SharedFunctionInfoWrapper', 8);
      edges.push([code, 'instruction_stream', is], [code, 'deoptimization_data', dd], [dd, 'wrapper', wrapper], [wrapper, 'shared', sfi]);
      edges.push([dd, 'translation', add('code', 'system / TrustedByteArray', 200)]);
    }
  }
  return snapshot(nodes, edges, []);
}

describe("a page's code, snapshot by snapshot", () => {
  it('counts the bytes by category, and follows each function across snapshots by its literal id', () => {
    const first = codeLedger(
      page([
        { lit: 1, name: 'draw', feedback: true, turbofan: 2000 },
        { lit: 2, name: 'show', feedback: true },
        { lit: 3, name: 'boot' },
      ]),
    );
    assert.equal(first.bytes['turbofan code'], 72 + 2000);
    assert.equal(first.bytes['deopt data'], 300 + 200);
    assert.equal(first.bytes.bytecode, 3 * (100 + 20));
    assert.equal(first.bytes['feedback vectors'], 2 * 60);
    assert.equal(first.unowned, 0);
    const draw = [...first.fns.values()].find((f) => f.name === 'draw')!;
    assert.equal(draw.turbofanBytes, 72 + 2000 + 300 + 200);
    const later = (drawCode: number) =>
      codeLedger(
        page([
          { lit: 1, name: 'draw', feedback: true, turbofan: drawCode },
          { lit: 2, name: 'show', feedback: true, turbofan: 900 },
          { lit: 3, name: 'boot' },
          { lit: 4, name: 'late' },
        ]),
      );
    const [w0, same, other] = windows([first, later(2000), later(2600)]);
    assert.equal(w0!.firstOptimised.length, 1);
    assert.deepEqual(same!.firstOptimised, ['show @ index.js@NaN'.replace('NaN', '?')]);
    assert.deepEqual(same!.reoptimised, []);
    assert.equal(same!.firstBytecode, 1);
    assert.deepEqual(other!.reoptimised, ['draw @ index.js@?'], 'new code of another size for a function that had TurboFan code');
    assert.deepEqual(other!.firstOptimised, []);
  });

  it('tells code lost, regained and bytecode flushed and made again', () => {
    const a = codeLedger(page([{ lit: 1, name: 'draw', feedback: true, turbofan: 2000 }]));
    const b = codeLedger(page([]));
    const c = codeLedger(page([{ lit: 1, name: 'draw', feedback: true, turbofan: 2000 }]));
    const [, lost, back] = windows([a, b, c]);
    assert.deepEqual(lost!.lostTurbofan, ['draw @ index.js@?']);
    assert.equal(lost!.flushed, 1);
    assert.deepEqual(back!.regained, ['draw @ index.js@?']);
    assert.equal(back!.remade, 1);
    assert.equal(back!.firstBytecode, 0);
  });

  it("joins precise coverage's call counts to the functions by script and end offset, a round", () => {
    const ledger = codeLedger(
      page([
        { lit: 1, name: 'draw', feedback: true, turbofan: 2000 },
        { lit: 2, name: 'show', feedback: true },
        { lit: 3, name: 'boot', feedback: true },
        { lit: 4, name: 'cold' },
      ]),
    );
    const coverage = JSON.stringify([
      {
        url: 'http://127.0.0.1:4000/assets/index.js',
        functions: [
          { functionName: 'draw', ranges: [{ startOffset: 90, endOffset: 100, count: 5000 }] },
          { functionName: 'show', ranges: [{ startOffset: 150, endOffset: 200, count: 125 }] },
          { functionName: 'cold', ranges: [{ startOffset: 390, endOffset: 400, count: 7 }] },
        ],
      },
    ]);
    const rates = callRates(ledger, callCounts(coverage), 250);
    assert.deepEqual(
      rates.map((r) => [r.f.name, r.perRound, r.turbofan]),
      [
        ['draw', 20, true],
        ['show', 0.5, false],
        ['boot', undefined, false],
      ],
      'functions with a feedback vector only; one coverage does not name has no rate',
    );
  });
});
