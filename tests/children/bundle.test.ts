// The bundled `etg` the tests start their children from (tests/children/bundle.ts) is the same
// command line as bin/etg.js: the same help and version, and a tool's commands loaded and run (the
// ledger's `verify` on an empty folder refuses it the same way), which also shows each module
// finds the files beside its source (the catalogues, package.json) once bundled. The bundle is kept
// by the key of what it was made from: another process of the same run finds the same file, and a
// source changed, added or removed is a new key, so a stale bundle is never run.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { bundledChild, sourcesKey } from './bundle.js';

const root = path.resolve(import.meta.dirname, '../..');
const run = (script: string, args: string[]) => spawnSync(process.execPath, [script, ...args], { cwd: root, encoding: 'utf8' });

describe('etg bundled for the tests', () => {
  it('answers as bin/etg.js does: help, version, a tool command and its refusal', async () => {
    const etg = await bundledChild('tests/children/etg-entry.ts');
    assert.ok(etg.includes(`${path.sep}node_modules${path.sep}`), 'written under node_modules, where its packages resolve');
    const empty = mkdtempSync(path.join(os.tmpdir(), 'bundle-etg-'));
    try {
      for (const args of [['--help', '--json'], ['--version'], ['ledger', 'verify', '--data-dir', empty, '--json']]) {
        const [a, b] = [run(etg, args), run('bin/etg.js', args)];
        assert.equal(a.status, b.status, `etg ${args.join(' ')}: exit ${a.status} bundled, ${b.status} through tsx: ${a.stderr}`);
        assert.equal(a.stdout, b.stdout, `etg ${args.join(' ')}: the same output`);
        assert.equal(a.stderr, b.stderr, `etg ${args.join(' ')}: the same errors`);
      }
      assert.ok(bundledChild('tests/children/etg-entry.ts') === bundledChild('tests/children/etg-entry.ts'), 'built once per process');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
    assert.ok(existsSync(etg));
  });

  it('is one file for every process of the run while its sources are the same', async () => {
    const etg = await bundledChild('tests/children/etg-entry.ts');
    const lookup = "import('./tests/children/bundle.ts').then((m) => m.bundledChild('tests/children/etg-entry.ts')).then((f) => console.log(f))";
    const other = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', lookup], { cwd: root, encoding: 'utf8' });
    assert.equal(other.status, 0, other.stderr);
    assert.equal(other.stdout.trim(), etg, 'another process runs the same bundle');
  });

  it('is keyed by every input, the names of the sources and what the plugin read', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bundle-key-'));
    try {
      mkdirSync(path.join(dir, 'cli/sim'), { recursive: true });
      mkdirSync(path.join(dir, 'node_modules/p'), { recursive: true });
      writeFileSync(path.join(dir, 'entry.ts'), "import './cli/sim/a.ts';");
      writeFileSync(path.join(dir, 'cli/sim/a.ts'), 'export const a = 1;');
      writeFileSync(path.join(dir, 'node_modules/p/index.js'), 'module.exports = 1;');
      const inputs = ['entry.ts', 'cli/sim/a.ts', 'node_modules/p/index.js'];
      const key = sourcesKey(dir, 'entry.ts', inputs);
      assert.equal(sourcesKey(dir, 'entry.ts', [...inputs].reverse()), key, 'the same files, the same key');
      assert.notEqual(sourcesKey(dir, 'other.ts', inputs), key, 'another entry');

      writeFileSync(path.join(dir, 'cli/sim/a.ts'), 'export const a = 2;');
      const edited = sourcesKey(dir, 'entry.ts', inputs);
      assert.notEqual(edited, key, 'a source edited');
      writeFileSync(path.join(dir, 'node_modules/p/index.js'), 'module.exports = 2;');
      const upgraded = sourcesKey(dir, 'entry.ts', inputs);
      assert.notEqual(upgraded, edited, 'a package file changed');

      writeFileSync(path.join(dir, 'cli/sim/b.ts'), 'export const b = 1;');
      const added = sourcesKey(dir, 'entry.ts', inputs);
      assert.notEqual(added, upgraded, 'a source added where a pattern import could take it');
      writeFileSync(path.join(dir, 'node_modules/p/extra.js'), '');
      assert.equal(sourcesKey(dir, 'entry.ts', inputs), added, 'a package file no bundle read is not a source');

      rmSync(path.join(dir, 'cli/sim/a.ts'));
      assert.notEqual(sourcesKey(dir, 'entry.ts', inputs), added, 'an input removed');
      writeFileSync(path.join(dir, 'cli/sim/a.ts'), 'export const a = 2;');
      assert.equal(sourcesKey(dir, 'entry.ts', inputs), added, 'the same files again, the same key');

      const asRead = new Map([[path.join(dir, 'cli/sim/a.ts'), 'the hash of what the bundle took before an edit']]);
      assert.notEqual(sourcesKey(dir, 'entry.ts', inputs, asRead), added, 'keyed by what went into the bundle, not by the file as it is after');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
