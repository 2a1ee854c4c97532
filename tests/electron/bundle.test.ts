import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { buildElectron } from '../../scripts/build-electron.js';

// The Electron binary cannot be installed here, so this proves what can be proved without it:
// main, preload and the host's utility entry bundle, the preload is self-contained, and the
// host bundle loads in Node and refuses to run outside Electron with a clear message.
describe('electron bundle', () => {
  // Inside the repository, as dist/electron is, so the host bundle finds node_modules (native addons stay external).
  const dist = path.resolve(import.meta.dirname, '../../dist');
  mkdirSync(dist, { recursive: true });
  const out = mkdtempSync(path.join(dist, 'electron-bundle-test-'));
  after(() => rmSync(out, { recursive: true, force: true }));

  it('bundles main, preload and host; the preload requires nothing but electron', async () => {
    const [main, preload, host] = await buildElectron(out);
    assert.ok(main && preload && host);
    const requires = [...readFileSync(preload, 'utf8').matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]);
    assert.deepEqual([...new Set(requires)], ['electron']);
    assert.match(readFileSync(main, 'utf8'), /require\("electron"\)/);

    const run = spawnSync(process.execPath, [host], { encoding: 'utf8', timeout: 20_000 });
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /runs inside Electron/);
  });
});
