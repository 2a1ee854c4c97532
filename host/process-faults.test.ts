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
  const { exitOnUncaught, lastResortFromStart } = await import('./process-faults.js');
  // 'before-log': installed before the host's log exists, as the entries do before the start.
  if (child === 'before-log') lastResortFromStart();
  else if (child === 'log-throws') {
    // As Electron's main process installs it (its exit returns), with a log that always throws.
    const exits: number[] = [];
    let tries = 0;
    const broken = () => {
      tries += 1;
      throw new Error('EIO: the log is gone');
    };
    exitOnUncaught({ fatal: broken, error: broken, flush: broken }, (code) => exits.push(code), { laterFaults: 'logged' });
    for (const at of [10, 30, 50])
      setTimeout(() => {
        throw new Error(`SQLITE_FULL: fault at ${at}`);
      }, at);
    setTimeout(() => {
      console.log(JSON.stringify({ exits, tries }));
      process.exit(0);
    }, 300);
  } else exitOnUncaught(createLogger(process.env.PROCESS_FAULTS_DIR ?? '', { console: null }));
  if (child === 'log-throws') {
    // its own timers above
  } else if (child === 'throw' || child === 'before-log')
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

    it('before the host has a log: the fatal line with its stack on stderr as JSON, the process exits 70', () => {
      const r = runInChild(import.meta.url, { case: 'before-log', expectStatus: 70 });
      assert.equal(r.status, 70, `exit ${r.status}: ${r.stdout} ${r.stderr.slice(0, 400)}`);
      assert.doesNotMatch(r.stdout, /went on/);
      const fatal = r.stderr
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { level: number; err?: { stack?: string } })
        .find((l) => l.level === 60);
      assert.ok(fatal, r.stderr.slice(0, 400));
      assert.match(fatal.err?.stack ?? '', /SQLITE_FULL[\s\S]*process-faults\.test\.ts/);
    });

    it('faults after the first, logged where the process goes on, with a log that throws: no loop, no second exit, the process lives', () => {
      const r = runInChild(import.meta.url, { case: 'log-throws' });
      assert.equal(r.status, 0, `exit ${r.status}: ${r.stderr.slice(0, 400)}`);
      const seen = JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '{}') as { exits: number[]; tries: number };
      assert.deepEqual(seen.exits, [70]);
      // The first fault's fatal, then one `error` per later fault: each tried once, never again.
      assert.equal(seen.tries, 3);
      assert.equal((r.stderr.match(/another exception nothing handled, and the log failed too/g) ?? []).length, 2);
    });

    it('both entries of the host process install it before the start and point it at the host log: the utility process and the plain-Node start', () => {
      for (const entry of [path.join(here, 'utility-process.ts'), path.join(here, '../cli/start.ts')]) {
        const text = readFileSync(entry, 'utf8');
        const installed = text.indexOf('lastResortFromStart()');
        assert.ok(installed > 0, entry);
        assert.ok(installed < text.indexOf('startHost('), `${entry}: installed after the start`);
        assert.match(text, /\{ onLog: \(log\) => lastResort\.logTo\(log\) \}/, entry);
      }
    });
  });
}
