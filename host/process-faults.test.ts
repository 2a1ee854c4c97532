// The host process's last resort (host/process-faults.ts), in a child process as the host runs it:
// an exception thrown where nothing catches it (a timer), or a promise rejected that nobody
// awaits, is logged at fatal level with its stack in the host's own log file, and the process
// exits non-zero (70) for its supervisor to start it again; it never goes on.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { childCase, runInChild } from './testing/in-child.js';

const here = path.dirname(fileURLToPath(import.meta.url));

const child = childCase();
if (child) {
  const { createLogger } = await import('./logger.js');
  const { exitOnUncaught } = await import('./process-faults.js');
  const log = createLogger(process.env.PROCESS_FAULTS_DIR ?? '', { console: null });
  exitOnUncaught(log);
  if (child === 'throw')
    setTimeout(() => {
      throw new Error('SQLITE_FULL: database or disk is full');
    }, 10);
  else void Promise.reject(new Error('SQLITE_FULL: database or disk is full'));
  // Had it gone on, it would say so.
  setTimeout(() => {
    console.log('went on');
    process.exit(0);
  }, 500);
} else {
  describe("the host process's last resort", () => {
    for (const how of ['throw', 'reject'])
      it(`an uncaught ${how === 'throw' ? 'exception in a timer' : 'rejection'}: logged fatal with its stack, the process exits 70`, () => {
        const dir = mkdtempSync(path.join(os.tmpdir(), 'process-faults-'));
        const r = runInChild(import.meta.url, { case: how, env: { PROCESS_FAULTS_DIR: dir }, expectStatus: 70 });
        assert.equal(r.status, 70, `exit ${r.status}: ${r.stdout} ${r.stderr.slice(0, 400)}`);
        assert.doesNotMatch(r.stdout, /went on/);
        const lines = readFileSync(path.join(dir, 'host.log'), 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as { level: number; msg: string; err?: { stack?: string } });
        const fatal = lines.find((l) => l.level === 60);
        assert.ok(fatal, JSON.stringify(lines));
        assert.match(fatal.err?.stack ?? '', /SQLITE_FULL[\s\S]*process-faults\.test\.ts/);
      });

    it('both entries of the host process install it: the utility process and the plain-Node start', () => {
      for (const entry of [path.join(here, 'utility-process.ts'), path.join(here, '../cli/start.ts')])
        assert.match(readFileSync(entry, 'utf8'), /exitOnUncaught\(running\.log\)/, entry);
    });
  });
}
