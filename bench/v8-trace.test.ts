import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readTraceLine, recompiled, recurring, TraceCounter } from './v8-trace.js';

// Lines as Node 24's V8 prints them with --trace-opt --trace-deopt.
const LINES = {
  marking: '[marking 0x315adc363eb9 <JSFunction f (sfi = 0x2706f61e7da9)> for optimization to MAGLEV, ConcurrencyMode::kConcurrent, reason: hot and stable]',
  compiling: '[compiling method 0x315adc363eb9 <JSFunction f (sfi = 0x2706f61e7da9)> (target MAGLEV), mode: ConcurrencyMode::kConcurrent]',
  maglev: '[completed compiling 0x315adc363eb9 <JSFunction f (sfi = 0x2706f61e7da9)> (target MAGLEV) - took 0.001, 0.423, 0.008 ms]',
  turbofan: '[completed compiling 0x315adc363eb9 <JSFunction f (sfi = 0x2706f61e7da9)> (target TURBOFAN_JS) - took 0.044, 1.212, 0.014 ms]',
  installed: '[completed optimizing 0x315adc363eb9 <JSFunction f (sfi = 0x2706f61e7da9)> (target TURBOFAN_JS)]',
  osr: '[completed compiling 0x315adc363589 <JSFunction (sfi = 0x2706f61e7d39)> (target MAGLEV) OSR - took 0.001, 0.546, 0.007 ms]',
  eager:
    '[bailout (kind: deopt-eager, reason: wrong map): begin. deoptimizing 0x2706f61eaa51 <JSFunction f (sfi = 0x2706f61e7da9)>, 0x0ff9e17c1c29 <Code TURBOFAN_JS>, opt id 1, bytecode offset 0, deopt exit 1, FP to SP delta 32, caller SP 0x7ffcfc9a2680, pc 0x7f82d20045a2]',
  anonymous:
    '[bailout (kind: deopt-eager, reason: Insufficient type feedback for compare operation): begin. deoptimizing 0x2706f61eaa91 <JSFunction (sfi = 0x2706f61e7d39)>, 0x0ff9e17c2169 <Code TURBOFAN_JS>, opt id 3, bytecode offset 59]',
  lazy: '[marking dependent code 0x170dbdf41cf9 <Code TURBOFAN_JS> (0x3a9f6a5a7e39 <SharedFunctionInfo A>) (opt id 2) for deoptimization, reason: dependent prototype chain changed]',
  method: '[completed compiling 0x1 <JSFunction ViewHub.deliverChange (sfi = 0x2)> (target TURBOFAN_JS) - took 0.1, 2.0, 0.1 ms]',
};

describe("V8's optimization trace, read (bench/host-heap.ts, issue 52)", () => {
  it('reads an optimization by function and tier, a deopt by function, kind and reason, and nothing else', () => {
    assert.deepEqual(readTraceLine(LINES.maglev), { kind: 'optimized', fn: 'f', tier: 'MAGLEV', osr: false });
    assert.deepEqual(readTraceLine(LINES.turbofan), { kind: 'optimized', fn: 'f', tier: 'TURBOFAN_JS', osr: false });
    assert.deepEqual(readTraceLine(LINES.osr), { kind: 'optimized', fn: '(anonymous 0x2706f61e7d39)', tier: 'MAGLEV', osr: true });
    assert.deepEqual(readTraceLine(LINES.method), { kind: 'optimized', fn: 'ViewHub.deliverChange', tier: 'TURBOFAN_JS', osr: false });
    assert.deepEqual(readTraceLine(LINES.eager), { kind: 'deopt', fn: 'f', how: 'deopt-eager', reason: 'wrong map' });
    assert.deepEqual(readTraceLine(LINES.anonymous), {
      kind: 'deopt',
      fn: '(anonymous 0x2706f61e7d39)',
      how: 'deopt-eager',
      reason: 'Insufficient type feedback for compare operation',
    });
    assert.deepEqual(readTraceLine(LINES.lazy), { kind: 'deopt', fn: 'A', how: 'lazy', reason: 'dependent prototype chain changed' });
    for (const other of [LINES.marking, LINES.compiling, LINES.installed, 'a line of the program', '']) assert.equal(readTraceLine(other), null);
  });

  it('counts in windows, a line cut across chunks once, and names the deopts that come back window after window', () => {
    const c = new TraceCounter();
    const text = [LINES.marking, LINES.maglev, LINES.turbofan, LINES.installed, LINES.eager, ''].join('\n');
    c.push(text.slice(0, 150));
    c.push(text.slice(150));
    const first = c.cut();
    assert.deepEqual(first.optimized, { MAGLEV: 1, TURBOFAN_JS: 1 });
    assert.equal(first.deopts, 1);
    assert.deepEqual(first.optimizedFns, { f: 2 });
    c.push(`${LINES.eager}\n${LINES.lazy}\n`);
    c.cut();
    c.push(`${LINES.eager}\n`);
    c.cut();
    c.push(`${LINES.osr}\n`);
    c.cut();
    assert.deepEqual(recurring(c.windows, 1), [{ key: 'f (deopt-eager: wrong map)', perWindow: [1, 1, 0] }]);
    assert.deepEqual(recurring(c.windows, 3), []);
  });

  it('names TurboFan compiles by their source with --print-opt-source (not the functions inlined), and the ones compiled again window after window', () => {
    // As Node 24 prints them: the compiled function's source (inlining -1), then each function inlined into it.
    const compile = (id: number) =>
      [
        '[compiling method 0x1 <JSFunction (sfi = 0x2)> (target TURBOFAN_JS), mode: ConcurrencyMode::kConcurrent]',
        `--- FUNCTION SOURCE (file:///work/kiosk/host/table/memo-on-reads.ts:) id{${id},-1} start{812} ---`,
        '(key, value) => Reflect.get(state, key) === value',
        '--- END ---',
        `--- FUNCTION SOURCE (/work/kiosk/engine/baccarat/roads.ts:layoutStreaks) id{${id},0} start{40} ---`,
        '(streaks, rows) {',
        '  return 1;',
        '}',
        '--- END ---',
        `INLINE (layoutStreaks) id{${id},0} AS 0 AT <-1:115>`,
        '[completed compiling 0x1 <JSFunction (sfi = 0x2)> (target TURBOFAN_JS) - took 0.026, 1.684, 0.066 ms]',
      ].join('\n');
    const named = '--- FUNCTION SOURCE (/work/kiosk/host/table/runtime.ts:TableRuntime.runEffects) id{9,-1} start{5000} ---\n(effects) {\n--- END ---';
    const c = new TraceCounter();
    c.push(`${compile(1)}\n`);
    c.cut();
    c.push(`${compile(2)}\n${compile(3)}\n${named}\n`);
    c.cut();
    c.push(`${compile(4)}\n${compile(5)}\n${named}\n`);
    const last = c.cut();
    assert.deepEqual(last.compiledSources, {
      'table/memo-on-reads.ts@812 (key, value) => Reflect.get(state, key) === value': 2,
      'table/runtime.ts@5000 TableRuntime.runEffects: (effects) {': 1,
    });
    assert.deepEqual(last.optimized, { TURBOFAN_JS: 2 });
    assert.deepEqual(recompiled(c.windows, 1), [{ key: 'table/memo-on-reads.ts@812 (key, value) => Reflect.get(state, key) === value', perWindow: [2, 2] }]);
  });
});
