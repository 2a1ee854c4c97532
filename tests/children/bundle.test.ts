// The bundled `etg` the tests start their children from (tests/children/bundle.ts) is the same
// command line as bin/etg.js: the same help and version, and a tool's commands loaded and run (the
// ledger's `verify` on an empty folder refuses it the same way), which also shows each module
// finds the files beside its source (the catalogues, package.json) once bundled.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { bundledChild } from './bundle.js';

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
});
