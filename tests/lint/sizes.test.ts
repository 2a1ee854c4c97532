import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import path from 'node:path';
import { readSources } from '../../scripts/cycles/import-cycles.js';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import {
  FILE_LIMIT,
  FUNCTION_LIMIT,
  functionLengths,
  judge,
  MEMBER_LIMIT,
  overLimits,
  overMembers,
  publicMembers,
  RUNTIME_FOLDERS,
} from '../../scripts/sizes/measure.js';

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

  it('finds a file over 600 lines and a function over 80 in every runtime folder; never tests, never outside them', () => {
    const sources = new Map([
      ['engine/long.ts', lines(FILE_LIMIT + 1)],
      ['engine/fine.ts', lines(FILE_LIMIT)],
      ['engine/long-function.ts', forms(FUNCTION_LIMIT + 1).declaration],
      ['host/long-function.ts', forms(FUNCTION_LIMIT + 1).method],
      ['renderer/src/fine-function.ts', forms(FUNCTION_LIMIT).arrow],
      ['host/long.test.ts', lines(FILE_LIMIT + 1)],
      ['cli/long.ts', lines(FILE_LIMIT + 2)],
      ['ledger/long-function.ts', forms(FUNCTION_LIMIT + 2).arrow],
      ['scripts/long.ts', lines(FILE_LIMIT + 1)],
      ['tests/long.ts', lines(FILE_LIMIT + 1)],
    ]);
    assert.deepEqual(overLimits(sources), [
      { what: 'cli/long.ts', lines: 602 },
      { what: 'engine/long.ts', lines: 601 },
      { what: 'ledger/long-function.ts: big', lines: 82 },
      { what: 'engine/long-function.ts: big', lines: 81 },
      { what: 'host/long-function.ts: Hub.build', lines: 81 },
    ]);
    for (const folder of ['engine', 'host', 'renderer', 'ledger', 'hardware', 'protocol', 'upstream', 'witness', 'cli', 'electron']) {
      assert.ok(RUNTIME_FOLDERS.includes(folder), `${folder} is measured`);
    }
  });

  it('counts the public members of an exported class or interface with behaviour: once per name, private, protected, # and the constructor aside', () => {
    const klass = `export class Hub {\n  private a = 1;\n  protected b() {}\n  #c = 2;\n  constructor() {}\n  get d() { return 1; }\n  set d(v: number) {}\n  e(): void {}\n  readonly f = 3;\n  static g() {}\n}\nclass Hidden {\n  x() {}\n}\n`;
    assert.deepEqual(publicMembers('host/a.ts', klass), [{ what: 'host/a.ts: Hub', lines: 4 }]);
    const face = `export interface Live {\n  readonly state: number;\n  input(i: number): void;\n  onChange: (l: () => void) => void;\n}\nexport interface Row {\n  a: number;\n  b: string;\n}\n`;
    assert.deepEqual(publicMembers('host/a.ts', face), [{ what: 'host/a.ts: Live', lines: 3 }], 'a record of data alone is not counted');
    const alias = `export type Hub = {\n  a(): void;\n  b: () => void;\n  readonly c: number;\n};\nexport type Row = { a: number; b: string };\ntype Local = { x(): void };\n`;
    assert.deepEqual(publicMembers('host/a.ts', alias), [{ what: 'host/a.ts: Hub', lines: 3 }], 'an object type alias is an interface by another name');
    const params = `export class Shell {\n  constructor(\n    readonly rules: number,\n    public game: string,\n    private readonly d: number,\n    protected e: number,\n    plain: number,\n  ) {}\n  run(): void {}\n}\n`;
    assert.deepEqual(publicMembers('host/a.ts', params), [{ what: 'host/a.ts: Shell', lines: 3 }], 'readonly and public constructor parameters are members');
    const big = (n: number) => `export class Big {\n${Array.from({ length: n }, (_, i) => `  m${i}() {}`).join('\n')}\n}\n`;
    assert.equal(MEMBER_LIMIT, 20);
    assert.deepEqual(
      overMembers(
        new Map([
          ['host/big.ts', big(21)],
          ['host/fine.ts', big(20)],
          ['host/big.test.ts', big(30)],
        ]),
      ),
      [{ what: 'host/big.ts: Big', lines: 21 }],
    );
    const bigAlias = `export type Big = {\n${Array.from({ length: 21 }, (_, i) => `  m${i}(): void;`).join('\n')}\n};\n`;
    const bigShell = `export class Big {\n  constructor(${Array.from({ length: 11 }, (_, i) => `readonly p${i}: number`).join(', ')}) {}\n${Array.from({ length: 10 }, (_, i) => `  m${i}() {}`).join('\n')}\n}\n`;
    assert.deepEqual(overMembers(new Map([['engine/a.ts', bigAlias]])), [{ what: 'engine/a.ts: Big', lines: 21 }]);
    assert.deepEqual(overMembers(new Map([['ledger/a.ts', bigShell]])), [{ what: 'ledger/a.ts: Big', lines: 21 }]);
  });

  it('holds functions of host/ and renderer/ to 80 lines: 81 is over, 80 is not', () => {
    assert.equal(FUNCTION_LIMIT, 80);
    assert.deepEqual(overLimits(new Map([['host/a.ts', forms(81).method]])), [{ what: 'host/a.ts: Hub.build', lines: 81 }]);
    assert.deepEqual(overLimits(new Map([['renderer/src/a.ts', forms(80).argument]])), []);
  });

  it("holds the table's runtime to 15 public members and the table's interface under the limit (issue 53)", () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const count = (file: string, name: string) =>
      publicMembers(file, readFileSync(path.join(root, file), 'utf8')).find((m) => m.what === `${file}: ${name}`)?.lines ?? Number.NaN;
    assert.ok(
      count('host/table/runtime.ts', 'TableRuntime') <= 15,
      'TableRuntime hands out its parts (reads, shoe, supervisor, commands, countdowns, checkpoints)',
    );
    assert.ok(count('host/table/live-table.ts', 'LiveTable') <= 15);
    assert.ok(count('host/table/live-table.ts', 'TableReads') <= MEMBER_LIMIT);
  });

  it('finds nothing in the repository over its limit beyond the allowed lists, and nothing listed grown', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const sources = new Map([...readSources(root)].map(([file, text]) => [path.relative(root, file), text]));
    const list = (name: string) => z.record(z.string(), z.number().int()).parse(JSON.parse(readFileSync(path.join(root, 'scripts', 'sizes', name), 'utf8')));
    assert.deepEqual(judge(overLimits(sources), list('allowed.json')).failures, []);
    assert.deepEqual(judge(overMembers(sources), list('allowed-members.json'), () => MEMBER_LIMIT).failures, []);
  });

  it('knows a listed anonymous function when an edit above it moved its line', () => {
    const listed = { 'upstream/a.ts: build > (line 173)': 122 };
    assert.deepEqual(judge([{ what: 'upstream/a.ts: build > (line 180)', lines: 122 }], listed), { failures: [], shrunk: [] });
    assert.deepEqual(judge([{ what: 'upstream/a.ts: build > (line 180)', lines: 123 }], listed).failures, [
      'upstream/a.ts: build > (line 180): 123 lines, more than the 122 it had when the limit came (80)',
    ]);
  });

  it('holds what was over to what it was (a ratchet): anything new or grown fails, anything shorter is said', () => {
    const over = [
      { what: 'host/hub.ts', lines: 650 },
      { what: 'host/hub.ts: Hub.build', lines: 130 },
      { what: 'host/new.ts: grow', lines: 81 },
    ];
    const v = judge(over, { 'host/hub.ts': 640, 'host/hub.ts: Hub.build': 140, 'host/gone.ts': 700 });
    assert.deepEqual(v.failures, [
      'host/hub.ts: 650 lines, more than the 640 it had when the limit came (600)',
      'host/new.ts: grow: 81 lines, over the limit of 80',
    ]);
    assert.deepEqual(v.shrunk, ['host/hub.ts: Hub.build', 'host/gone.ts']);
  });
});
