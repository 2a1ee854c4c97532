// The runner's preload stops what a test file left running when the file's process exits, so a
// child holding the file's stdout cannot keep the runner waiting (docs/toolchain.md).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { describe, it } from 'node:test';
import { descendants, isTooling, processTable, type ProcessEntry } from './leftovers.js';

const entry = (pid: number, ppid: number, command = `p${pid}`): ProcessEntry => ({ pid, ppid, command });

describe('descendants', () => {
  it('finds children and their children, nothing above or beside', () => {
    const table = [entry(1, 0), entry(10, 1), entry(11, 10), entry(12, 11), entry(13, 10), entry(20, 1), entry(21, 20)];
    assert.deepEqual(
      descendants(table, 10).map((e) => e.pid),
      [11, 13, 12],
    );
    assert.deepEqual(descendants(table, 12), []);
  });

  it('reads this process from /proc as its parent’s child', () => {
    const table = processTable();
    assert.ok(
      descendants(table, process.ppid).some((e) => e.pid === process.pid),
      'this process is among its parent’s descendants',
    );
  });
});

describe('what is stopped without being named', () => {
  it("is tsx's esbuild service, also on its way out (no command line left), and nothing else", () => {
    assert.ok(isTooling('/repo/node_modules/@esbuild/linux-x64/bin/esbuild --service=0.28.2 --ping'));
    assert.ok(isTooling('[esbuild] state R'));
    assert.ok(!isTooling('[node] state R'), 'a test child on its way out is named');
    assert.ok(!isTooling('sleep 300'));
    assert.ok(!isTooling('node /repo/node_modules/.cache/etg-test-children/esbuild-x.mjs start'));
  });
});

const root = path.resolve(import.meta.dirname, '../..');

describe('a test file that exits with a child still holding its stdout', () => {
  it('exits, its stdout closes at once, and the child is stopped and named', async () => {
    const file = spawn(process.execPath, ['--import', 'tsx', '--import', './tests/runner/report-drain.ts', 'tests/runner/leftovers-child.ts'], {
      cwd: root,
      env: { ...process.env, NODE_TEST_CONTEXT: 'child-v8' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    file.stderr.setEncoding('utf8');
    file.stderr.on('data', (s: string) => (stderr += s));
    file.stdout.resume();
    const started = Date.now();
    const [code] = (await once(file, 'close')) as [number | null];
    const waited = Date.now() - started;
    assert.equal(code, 1, stderr);
    assert.ok(waited < 60_000, `the pipes closed ${waited} ms after the start, not when sleep 300 ended`);
    const pid = Number(/left (\d+)/.exec(stderr)?.[1]);
    assert.ok(pid > 0, stderr);
    assert.match(stderr, new RegExp(`left running, stopped: pid ${pid} sleep 300`));
    assert.ok(!processTable().some((e) => e.pid === pid), 'the sleep is gone (or a zombie nobody has reaped yet)');
  });
});
