import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import path from 'node:path';
import { readSources } from '../../scripts/cycles/import-cycles.js';
import { FILE_LIMIT, FUNCTION_LIMIT, functionLengths, judge, overLimits } from '../../scripts/sizes/measure.js';

const lines = (n: number, line = 'x;') => Array.from({ length: n }, () => line).join('\n') + '\n';
/** A function of `n` lines in each form the check must see. */
const forms = (n: number) => ({
  declaration: `function big() {\n${lines(n - 2, '  x();')}}\n`,
  method: `class Hub {\n  build() {\n${lines(n - 2, '    x();')}  }\n}\n`,
  arrow: `const big = () => {\n${lines(n - 2, '  x();')}};\n`,
  argument: `app.get('/', (req) => {\n${lines(n - 2, '  x();')}});\n`,
});

describe('the size check (no god objects)', () => {
  it('measures a function in every form, by the name its file gives it, nested ones apart', () => {
    const f = forms(FUNCTION_LIMIT + 1);
    assert.deepEqual(functionLengths('host/a.ts', f.declaration), [{ what: 'host/a.ts: big', lines: 81 }]);
    assert.deepEqual(functionLengths('host/a.ts', f.method), [{ what: 'host/a.ts: Hub.build', lines: 81 }]);
    assert.deepEqual(functionLengths('host/a.ts', f.arrow), [{ what: 'host/a.ts: big', lines: 81 }]);
    assert.deepEqual(functionLengths('host/a.ts', f.argument), [{ what: 'host/a.ts: (line 1)', lines: 81 }]);
    assert.deepEqual(
      functionLengths('host/a.ts', 'function outer() {\n  const inner = () => 1;\n}\n').map((m) => m.what),
      ['host/a.ts: outer', 'host/a.ts: outer > inner'],
    );
  });

  it('finds a file over 600 lines in engine/, host/, renderer/, a function over 80 in host/ and renderer/; never tests', () => {
    const sources = new Map([
      ['engine/long.ts', lines(FILE_LIMIT + 1)],
      ['engine/fine.ts', lines(FILE_LIMIT)],
      ['engine/long-function.ts', forms(FUNCTION_LIMIT + 1).declaration],
      ['host/long-function.ts', forms(FUNCTION_LIMIT + 1).method],
      ['renderer/src/fine-function.ts', forms(FUNCTION_LIMIT).arrow],
      ['host/long.test.ts', lines(FILE_LIMIT + 1)],
      ['cli/long.ts', lines(FILE_LIMIT + 1)],
    ]);
    assert.deepEqual(overLimits(sources), [
      { what: 'engine/long.ts', lines: 601 },
      { what: 'host/long-function.ts: Hub.build', lines: 81 },
    ]);
  });

  it('holds functions of host/ and renderer/ to 80 lines: 81 is over, 80 is not', () => {
    assert.equal(FUNCTION_LIMIT, 80);
    assert.deepEqual(overLimits(new Map([['host/a.ts', forms(81).method]])), [{ what: 'host/a.ts: Hub.build', lines: 81 }]);
    assert.deepEqual(overLimits(new Map([['renderer/src/a.ts', forms(80).argument]])), []);
  });

  it('finds nothing over its limit in the repository (the allowed list is empty)', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const sources = new Map([...readSources(root)].map(([file, text]) => [path.relative(root, file), text]));
    assert.deepEqual(overLimits(sources), []);
  });

  it('holds what was over to what it was (a ratchet): anything new or grown fails, anything shorter is said', () => {
    const over = [
      { what: 'host/hub.ts', lines: 650 },
      { what: 'host/hub.ts: Hub.build', lines: 130 },
      { what: 'host/new.ts: grow', lines: 81 },
    ];
    const v = judge(over, { 'host/hub.ts': 640, 'host/hub.ts: Hub.build': 140, 'host/gone.ts': 700 });
    assert.deepEqual(v.failures, [
      'host/hub.ts: 650 lines, longer than the 640 it had when the limit came (600)',
      'host/new.ts: grow: 81 lines, over the limit of 80',
    ]);
    assert.deepEqual(v.shrunk, ['host/hub.ts: Hub.build', 'host/gone.ts']);
  });
});
