import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import { parseAst } from 'vite';
import { wrapModule } from './vite-flushable-chunks.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'flushable-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
/** Writes `files` into a folder of their own and imports `main` from it. */
async function load(files: Record<string, string>, main: string): Promise<Record<string, unknown>> {
  const sub = path.join(dir, String(n++));
  mkdirSync(sub);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(sub, name), text);
  return (await import(pathToFileURL(path.join(sub, main)).href)) as Record<string, unknown>;
}

// A chunk as the bundler writes them: imports first, minified names, one export statement at the end.
const dep = 'var e=40;export{e as t};';
const chunk = `import{t as a}from"./dep.js";var b=a+2,c=(x)=>x*b;function d(){return b}var f=class{get v(){return d()}};const g={ok:!0};export{b as n,c as r,d as i,f as o,g as default};`;

describe('wrapModule: a chunk whose top level runs in a function called once', () => {
  it('exports the same values, its top level is the wrapper alone, and every character keeps its place a line down', async () => {
    const source = chunk;
    const original = await load({ 'dep.js': dep, 'chunk.js': source }, 'chunk.js');
    const { code, unwrapped } = wrapModule(source, parseAst);
    assert.equal(unwrapped, null);
    const wrapped = await load({ 'dep.js': dep, 'chunk.js': code }, 'chunk.js');
    assert.equal(wrapped.n, 42);
    assert.equal((wrapped.r as (x: number) => number)(2), 84);
    assert.equal((wrapped.i as () => number)(), 42);
    assert.equal(new (wrapped.o as new () => { v: number })().v, 42);
    assert.deepEqual(wrapped.default, { ok: true });
    assert.deepEqual(Object.keys(wrapped).sort(), Object.keys(original).sort());
    // The module's own statements: the call of the wrapper, the hoisted import, the aliases, the export.
    const top = parseAst(code).body.map((s) => s.type);
    assert.deepEqual(top, ['ExpressionStatement', 'ImportDeclaration', 'VariableDeclaration', 'ExportNamedDeclaration']);
    // Line 2 is the original line, each character where it was or a space for what moved.
    const line = code.split('\n')[1]!;
    assert.equal(line.length, source.length);
    for (let i = 0; i < source.length; i++) assert.ok(line[i] === source[i] || line[i] === ' ', `column ${i}`);
    assert.ok(line.includes('var b=a+2,c=(x)=>x*b;function d(){return b}'));
  });

  it('leaves a chunk alone when an exported variable may change after it ran (a live binding would go stale)', async () => {
    const source = 'var e=0;function t(){e++}export{e as n,t as r};';
    const { code, unwrapped } = wrapModule(source, parseAst);
    assert.equal(code, source);
    assert.match(unwrapped ?? '', /export e may be assigned/);
    const m = await load({ 'live.js': source }, 'live.js');
    (m.r as () => void)();
    assert.equal(m.n, 1);
  });

  it('tells a function\u2019s own variable from the exported one (minified names are reused in every scope)', () => {
    // Shadowed by a parameter, a `var` anywhere in the function, its body's own `let`: wrapped.
    for (const inner of ['function f(e){e=2}', 'function f(){if(1){var e;e=2}}', 'var f=()=>{let e;e++}', 'var f=function e(){e=1}'])
      assert.equal(wrapModule(`var e=1;${inner};export{e as n,f as r};`, parseAst).unwrapped, null, inner);
    // Written in the module's scope, by destructuring or a loop's head, or shadowed only in a nested
    // block or a catch (counted as written: the answer errs towards leaving the chunk alone).
    for (const inner of [
      'function f(){[e]=[2]}',
      'function f(){for(e of [1]);}',
      'function f(){if(1){let e;e=2}}',
      'function f(){try{}catch(e){e=2}}',
      'var f=()=>{({e}={e:1})}',
    ])
      assert.match(wrapModule(`var e=1;${inner};export{e as n,f as r};`, parseAst).unwrapped ?? '', /may be assigned/, inner);
  });

  it('leaves a chunk alone with a top-level await, or an export of another module', () => {
    const awaits = 'var e=await Promise.resolve(1);export{e as t};';
    assert.equal(wrapModule(awaits, parseAst).code, awaits);
    assert.match(wrapModule(awaits, parseAst).unwrapped ?? '', /does not parse/);
    const reexport = 'export{t}from"./x.js";var e=1;export{e as n};';
    assert.equal(wrapModule(reexport, parseAst).code, reexport);
    assert.match(wrapModule(reexport, parseAst).unwrapped ?? '', /cannot carry/);
  });

  it('wraps a chunk with nothing to export (the page\u2019s entry) and one whose names would clash with the aliases is left', () => {
    const entry = 'import"./a.js";console.log(1);';
    assert.equal(wrapModule(entry, parseAst).unwrapped, null);
    const clash = 'var $flush0=1;export{$flush0 as t};';
    assert.match(wrapModule(clash, parseAst).unwrapped ?? '', /aliases are taken/);
  });
});
