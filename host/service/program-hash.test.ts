import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { createHash } from 'node:crypto';
import { hashLargeFile, HOST_RUNTIME_PACKAGES, layoutAt, manifestDiff, programFiles, programLayout, programManifest, runtimePackages } from './program-hash.js';

const repo = path.resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(path.join(os.tmpdir(), 'program-hash-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function put(rel: string, text: string): void {
  mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  writeFileSync(path.join(dir, rel), text);
}

describe('program hash', () => {
  it('knows how the program runs from where the calling module is', () => {
    assert.deepEqual([programLayout('/opt/kiosk/host').mode, programLayout('/opt/kiosk/host').root], ['tsx', '/opt/kiosk']);
    assert.deepEqual([programLayout('/opt/kiosk/dist/electron').mode, programLayout('/opt/kiosk/dist/electron').root], ['electron', '/opt/kiosk']);
  });

  it('follows package-lock from the runtime packages through their dependencies, nested ones included, installed ones only', () => {
    put(
      'package-lock.json',
      JSON.stringify({
        packages: {
          '': {},
          'node_modules/a': { dependencies: { b: '1', c: '1' } },
          'node_modules/b': {},
          'node_modules/c': { dependencies: { b: '2' }, optionalDependencies: { 'other-os': '1' } },
          'node_modules/c/node_modules/b': {},
          'node_modules/other-os': {},
          'node_modules/dev-only': {},
        },
      }),
    );
    for (const p of ['a', 'b', 'c', 'c/node_modules/b', 'dev-only']) put(`node_modules/${p}/index.js`, p);
    assert.deepEqual(runtimePackages(dir, ['a']), ['node_modules/a', 'node_modules/b', 'node_modules/c', 'node_modules/c/node_modules/b']);
  });

  it('hashes what runs, names the file that changed, and leaves out tests, sources of native code and other packages', async () => {
    put('host/start-host.ts', 'start');
    put('host/start-host.test.ts', 'a test');
    put('cli/start.ts', 'cli');
    put('node_modules/a/lib/x.cjs', 'x');
    put('node_modules/a/build/Release/addon.node', 'binary');
    put('node_modules/a/deps/sqlite3.c', 'c source');
    put('node_modules/a/README.md', 'read me');
    put('node_modules/b/bin/tool', 'executable');
    const layout = { mode: 'tsx' as const, root: dir, parts: ['host', 'cli', 'dist/renderer'], packages: ['node_modules/a', 'node_modules/b'] };
    const files = await programFiles(layout);
    assert.deepEqual(files, [
      'cli/start.ts',
      'host/start-host.ts',
      'node_modules/a/build/Release/addon.node',
      'node_modules/a/index.js',
      'node_modules/a/lib/x.cjs',
      'node_modules/b/bin/tool',
      'node_modules/b/index.js',
    ]);
    const before = await programManifest(layout);
    assert.equal(before.files.length, files.length);
    assert.deepEqual(await programManifest(layout), before, 'the same files give the same hash');
    put('node_modules/a/lib/x.cjs', 'x, patched');
    put('host/extra.ts', 'new');
    const now = await programManifest(layout);
    assert.notEqual(now.hash, before.hash);
    assert.deepEqual(manifestDiff(before, now), { changed: ['node_modules/a/lib/x.cjs'], added: ['host/extra.ts'], removed: [] });
    put('host/start-host.test.ts', 'another test');
    assert.equal((await programManifest(layout)).hash, now.hash, 'a test file is not part of the program');
  });

  it("hashes a large file (an installation's app.asar) a chunk at a time, the event loop running between chunks", async () => {
    // 5 MiB and an odd tail: past the size read at once, and not a whole number of chunks.
    const bytes = Buffer.alloc(5 * 1024 * 1024 + 12_345);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + (i >> 13)) & 0xff;
    mkdirSync(path.join(dir, 'big/resources'), { recursive: true });
    writeFileSync(path.join(dir, 'big/resources/app.asar'), bytes);
    writeFileSync(path.join(dir, 'big/resources/small.js'), 'small');
    const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
    const m = await programManifest({ mode: 'tsx', root: path.join(dir, 'big'), parts: ['resources'], packages: [] });
    assert.deepEqual(m.files, [
      ['resources/app.asar', sha(bytes)],
      ['resources/small.js', sha('small')],
    ]);
    // A technician's program check runs beside a live table: the host's loop must keep turning.
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const alone = await hashLargeFile(path.join(dir, 'big/resources/app.asar'));
    ticking = false;
    assert.equal(alone, sha(bytes));
    assert.ok(turns >= 3, `the event loop turned ${turns} times while 6 chunks were read`);
  });

  it('in tsx mode covers the command line, the native addon and tsx; in the Electron layout the bundles and the native packages', () => {
    const tsx = layoutAt(repo, 'tsx');
    assert.ok(tsx.parts.includes('cli') && tsx.parts.includes('dist/renderer'));
    for (const p of ['node_modules/better-sqlite3', 'node_modules/fastify', 'node_modules/tsx', 'node_modules/ws']) assert.ok(tsx.packages.includes(p), p);
    assert.ok(
      !tsx.packages.includes('node_modules/pixi.js') && !tsx.packages.includes('node_modules/electron'),
      'screens and dev tools do not run in the host',
    );
    const electron = layoutAt(repo, 'electron');
    assert.deepEqual(electron.parts, ['dist/electron', 'dist/renderer', 'package.json']);
    assert.ok(electron.packages.includes('node_modules/better-sqlite3') && electron.packages.includes('node_modules/usb'));
    assert.ok(!electron.packages.includes('node_modules/fastify'), 'fastify is inside the bundle');
  });

  it("HOST_RUNTIME_PACKAGES names every package the host's layers import", () => {
    const imported = new Set<string>();
    const scan = (file: string) => {
      // Static imports, and the packages a module loads only when it needs them (`await import('…')`).
      for (const m of readFileSync(path.join(repo, file), 'utf8').matchAll(/^import [^'"]*from '([^'.][^']*)'|\bimport\('([^'.][^']*)'\)/gm)) {
        const spec = m[1] ?? m[2] ?? '';
        if (spec.startsWith('node:')) continue;
        imported.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] ?? spec));
      }
    };
    const walk = (rel: string) => {
      for (const name of readdirSync(path.join(repo, rel))) {
        const child = path.join(rel, name);
        if (statSync(path.join(repo, child)).isDirectory()) walk(child);
        else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) scan(child);
      }
    };
    for (const layer of ['engine', 'hardware', 'ledger', 'host', 'protocol']) walk(layer);
    // `etg start` (npm start): the dispatcher's files, then the start command's.
    for (const file of ['cli/etg.ts', 'cli/runtime.ts', 'cli/command.ts', 'cli/tool.ts', 'cli/subcommand.ts', 'cli/tools.ts', 'cli/start.ts']) scan(file);
    walk('cli/start');
    assert.deepEqual(
      [...imported].filter((p) => !(HOST_RUNTIME_PACKAGES as readonly string[]).includes(p)),
      [],
    );
  });
});
