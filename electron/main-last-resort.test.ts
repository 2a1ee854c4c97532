// Electron's own main process and what nothing in it handles (a throw in a timer or a listener, a
// promise rejected nobody awaits), against a fake Electron (electron/testing/fake-electron.ts), in
// a child process: the throw is the child's, never this runner's. Before, the main process had no
// last resort: the throw ended it (Electron's own dialog on a desktop), nothing in host.log, and
// nothing relaunched the kiosk. Now it is logged fatal with its stack in host.log, flushed, and the
// kiosk relaunches itself as it does when the table host dies (exit 70, the relaunch counted on the
// command line), or shows the out-of-service page past the relaunch policy. Past it the process
// lives on, and a later fault was dropped without a line (the guard was one-shot, for a process
// that exits): now each later one is logged with its stack and its count, and nothing relaunches
// or exits again.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { childCase, runInChild } from '../host/testing/in-child.js';

const here = path.dirname(fileURLToPath(import.meta.url));

const child = childCase();
if (child) {
  const dir = process.env.MAIN_FAULTS_DIR ?? '';
  const { createLogger } = await import('../host/logger.js');
  const { startKiosk } = await import('./kiosk-main.js');
  const { resetFake } = await import('./testing/fake-electron.js');
  const { electron, fake } = resetFake();
  fake.screen.displays.push({ id: 1, bounds: { x: 0, y: 0, width: 1920, height: 1080 } });
  const log = createLogger(path.join(dir, 'logs'), { app: 'kiosk-main', console: null });
  const pastPolicy = child === 'past-policy' || child === 'later-faults';
  const relaunches = pastPolicy ? ['--relaunches=3'] : [];
  const kiosk = startKiosk(electron, {
    argv: [`--data-dir=${dir}`, '--screens=table', ...relaunches],
    here: path.join(dir, 'dist/electron'),
    log,
    readMounts: () => '',
    relaunchArgv: ['/app', '--screens=table', ...relaunches],
    lastResort: true,
  });
  if (!kiosk) process.exit(3);
  fake.app.ready();
  setTimeout(() => {
    if (child === 'reject') void Promise.reject(new Error('EMFILE: too many open files, watch'));
    else throw new Error('EMFILE: too many open files, watch');
  }, 20);
  // After the first fault has been dealt with (the fake's exit returns, as past the policy the
  // real process goes on): a second throw, then a rejection.
  if (child === 'later-faults' || child === 'throw')
    setTimeout(() => {
      setTimeout(() => void Promise.reject(new Error('ENOSPC: third fault')), 20);
      throw new Error('ENOSPC: second fault');
    }, 200);
  // The fake's `app.exit` records its code and returns: what the main process did is said here.
  setTimeout(() => {
    console.log(JSON.stringify({ exitCodes: fake.app.exitCodes, relaunched: fake.app.relaunched, outOfService: kiosk.outOfService() }));
    process.exit(0);
  }, 600);
} else {
  type Line = { level: number; msg: string; app?: string; kind?: string; faults?: number; err?: { stack?: string } };
  const run = (how: string) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'main-faults-'));
    const r = runInChild(import.meta.url, { case: how, env: { MAIN_FAULTS_DIR: dir } });
    assert.equal(r.status, 0, `the main process died: exit ${r.status}`);
    const seen = JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '{}') as { exitCodes: number[]; relaunched: { args?: string[] }[]; outOfService: boolean };
    const lines = readFileSync(path.join(dir, 'logs', 'host.log'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Line);
    const fatal = lines.find((l) => l.level === 60 && l.err);
    assert.ok(fatal, JSON.stringify(lines.map((l) => l.msg)));
    assert.equal(fatal.app, 'kiosk-main');
    // The first line a technician reads: the process that failed and what follows, not "the host exits".
    assert.match(fatal.msg, /the kiosk's main process relaunches/);
    assert.doesNotMatch(fatal.msg, /host exits/);
    assert.match(fatal.err?.stack ?? '', /EMFILE[\s\S]*main-last-resort\.test\.ts/);
    return { seen, lines };
  };

  describe("Electron's main process: its last resort", () => {
    for (const how of ['throw', 'reject'])
      it(`an uncaught ${how === 'throw' ? 'exception in a timer' : 'rejection'}: logged fatal with its stack, the kiosk relaunched (counted), exit 70`, () => {
        const { seen } = run(how);
        assert.deepEqual(seen.exitCodes, [70]);
        assert.deepEqual(seen.relaunched, [{ args: ['/app', '--screens=table', '--relaunches=1'] }]);
      });

    it('past the relaunch policy: logged fatal, the out-of-service page, no relaunch loop', () => {
      const { seen } = run('past-policy');
      assert.deepEqual(seen.relaunched, []);
      assert.equal(seen.outOfService, true);
    });

    const laterLines = (lines: Line[]) => lines.filter((l) => l.err && /ENOSPC/.test(l.err.stack ?? ''));

    it('past the policy, later faults: each logged with its stack and count, still out of service, no relaunch or exit', () => {
      const { seen, lines } = run('later-faults');
      assert.deepEqual(seen.relaunched, []);
      assert.deepEqual(seen.exitCodes, []);
      assert.equal(seen.outOfService, true);
      const later = laterLines(lines);
      assert.deepEqual(
        later.map((l) => [l.faults, l.kind]),
        [
          [2, 'uncaughtException'],
          [3, 'unhandledRejection'],
        ],
      );
      assert.match(later[0]?.err?.stack ?? '', /second fault[\s\S]*main-last-resort\.test\.ts/);
      assert.match(later[1]?.err?.stack ?? '', /third fault[\s\S]*main-last-resort\.test\.ts/);
      assert.equal(lines.filter((l) => l.level === 60 && l.err).length, 1, 'only the first fault is fatal');
    });

    it('a fault after the relaunch was asked for: logged, not a second relaunch or exit', () => {
      const { seen, lines } = run('throw');
      assert.deepEqual(seen.exitCodes, [70]);
      assert.equal(seen.relaunched.length, 1);
      assert.deepEqual(
        laterLines(lines).map((l) => l.faults),
        [2, 3],
      );
    });

    it('electron/main.ts installs it', () => {
      assert.match(readFileSync(path.join(here, 'main.ts'), 'utf8'), /lastResort: true/);
    });
  });
}
