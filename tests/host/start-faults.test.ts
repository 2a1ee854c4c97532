// The host process's last resort during its start, in both of its entries (the plain-Node
// `etg start` and Electron's utility process), each run in a child process as it runs for real.
// Before, the last resort was installed once the host had started: a start refused by the journal
// exited with its stack on stderr alone, and a promise rejected during the start (a device's open
// failing asynchronously) ended the process with Node's own exit 1, nothing in host.log. Now a
// start that fails writes a fatal line naming its cause to host.log, and what nothing handled
// during the start is logged fatal with its stack there and exits 70 as it would after.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { childCase, runInChild } from '../../host/testing/in-child.js';

/** The message of the hostile start's fault: the journal refusing the start's first write, or a device's open rejected. */
const REFUSED = 'SQLITE_FULL: database or disk is full';
const REJECTED = "the shoe's serial port could not be opened (EIO)";

const child = childCase();
if (child) {
  const [entry, how] = child.split(':');
  const dir = process.env.START_FAULTS_DIR ?? '';
  const { Ledger } = await import('../../ledger/index.js');
  // The journal of this process, made hostile at the start's first write (power.reset).
  const append = Ledger.prototype.append;
  Ledger.prototype.append = function (this: typeof Ledger.prototype, e) {
    if (e.type === 'power.reset') {
      if (how === 'refused') throw new Error(REFUSED);
      // Nobody awaits it: as a device opened in the background whose open fails.
      void Promise.reject(new Error(REJECTED));
    }
    return append.call(this, e);
  };
  if (how === 'rejected') {
    // The start's listeners open a moment later, as a slow machine's would: the rejection falls
    // while the start is still under way, not after it.
    const net = await import('node:net');
    const listen = net.Server.prototype.listen;
    net.Server.prototype.listen = function (this: InstanceType<typeof net.Server>, ...args: unknown[]) {
      setTimeout(() => listen.apply(this, args as Parameters<typeof listen>), 300);
      return this;
    } as typeof listen;
  }
  if (entry === 'cli') {
    const { run } = await import('../../cli/start.js');
    const code = await run(['--headless', `--data-dir=${dir}`, '--port=0']).catch((e: unknown) => {
      console.error('start failed:', e);
      return 1;
    });
    process.exit(code);
  } else {
    (process as unknown as { parentPort: unknown }).parentPort = { on: () => undefined, postMessage: (m: unknown) => console.log(JSON.stringify(m)) };
    process.argv.push(`--data-dir=${dir}`, `--renderer-dir=${path.join(dir, 'renderer')}`);
    await import('../../host/utility-process.js');
  }
  // A start that went on would still be serving: say so and end.
  setTimeout(() => {
    console.log('went on');
    process.exit(0);
  }, 3_000);
} else {
  type Line = { level: number; msg: string; err?: { message?: string; stack?: string } };
  const hostLog = (dir: string): Line[] => {
    let text: string;
    try {
      text = readFileSync(path.join(dir, 'logs', 'host.log'), 'utf8');
    } catch {
      return [];
    }
    return text
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Line);
  };

  describe("the host's last resort during its start", () => {
    for (const entry of ['cli', 'utility']) {
      const name = entry === 'cli' ? 'etg start (plain Node)' : "Electron's utility process";
      it(`${name}: a start the journal refuses writes a fatal line naming the cause to host.log and exits non-zero`, () => {
        const dir = mkdtempSync(path.join(os.tmpdir(), 'start-faults-'));
        const r = runInChild(import.meta.url, { case: `${entry}:refused`, env: { START_FAULTS_DIR: dir }, expectStatus: 1, timeoutMs: 60_000 });
        assert.notEqual(r.status, 0, r.stdout);
        assert.doesNotMatch(r.stdout, /went on/);
        const fatal = hostLog(dir).filter((l) => l.level === 60);
        assert.equal(fatal.length, 1, JSON.stringify(hostLog(dir)));
        assert.match(`${fatal[0]?.msg} ${fatal[0]?.err?.message}`, /SQLITE_FULL/);
      });

      it(`${name}: a rejection nobody handles during the start is logged fatal with its stack in host.log, the process exits 70`, () => {
        const dir = mkdtempSync(path.join(os.tmpdir(), 'start-faults-'));
        const r = runInChild(import.meta.url, { case: `${entry}:rejected`, env: { START_FAULTS_DIR: dir }, expectStatus: 70, timeoutMs: 60_000 });
        assert.equal(r.status, 70, `exit ${r.status}`);
        assert.doesNotMatch(r.stdout, /went on/);
        const fatal = hostLog(dir).find((l) => l.level === 60);
        assert.ok(fatal, JSON.stringify(hostLog(dir)));
        assert.match(fatal.err?.stack ?? '', /serial port could not be opened[\s\S]*start-faults\.test\.ts/);
      });
    }

    // An unclean stop is told by the marker `host.running` (host/power-marker.ts) and recorded by
    // the next start's `power.reset` (clean: false). A start that could not journal that entry (a
    // full disk) removed the marker as it gave up, so the start after read a clean stop: the kill
    // or power cut was in no entry at all.
    it('a start that could not journal its power reset leaves an unclean stop for the next start to record', () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'start-faults-'));
      const marker = path.join(dir, 'host.running');
      writeFileSync(marker, '12345\n');
      const r = runInChild(import.meta.url, { case: 'cli:refused', env: { START_FAULTS_DIR: dir }, expectStatus: 1, timeoutMs: 60_000 });
      assert.notEqual(r.status, 0, r.stdout);
      assert.ok(existsSync(marker), 'the unclean stop before it forgotten: the marker removed by a start that recorded nothing');
    });
  });
}
