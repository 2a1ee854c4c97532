// The log on a full disk (a review of failed writes): the log file's writes were synchronous
// through pino's destination with no 'error' listener, so a write the disk refused threw out of
// `log.info/warn/error` wherever it was called — a handler that only logs a failure threw instead,
// a timer that logs ended the process, and a ledger listener that logged made a committed append
// look failed. The disk is made to refuse writes through node:fs's own exports
// (syncBuiltinESMExports), for the log file's descriptor only.
import assert from 'node:assert/strict';
import fs, { mkdtempSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, afterEach, describe, it } from 'node:test';
import { createLogger, HOST_LOG } from '../logger.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'log-disk-full-'));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const realWrite = fs.writeSync;
afterEach(() => {
  fs.writeSync = realWrite;
  syncBuiltinESMExports();
});

/**
 * The disk under `file` refuses writes while `full()`. `partial`: as a disk that fills mid-write,
 * a write first takes half its bytes (a short count), and the next, for the rest, fails.
 */
function disk(file: string, full: () => boolean, partial = false): void {
  let cut = false;
  fs.writeSync = function (fd: number, buf: unknown, ...rest: unknown[]): number {
    let target = '';
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      /* not a file */
    }
    if (target !== file || !full()) return (realWrite as (...a: unknown[]) => number)(fd, buf, ...rest);
    if (partial && !cut && Buffer.isBuffer(buf)) {
      cut = true;
      const offset = typeof rest[0] === 'number' ? rest[0] : 0;
      return realWrite(fd, buf, offset, Math.max(1, Math.floor((buf.length - offset) / 2)));
    }
    cut = false;
    throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
  } as typeof fs.writeSync;
  syncBuiltinESMExports();
}

const parsed = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { msg?: string; lost?: number; n?: number; app?: string });

describe('the log on a full disk', () => {
  it('never throws at the call site; the lines refused are counted and said by the first line written after', () => {
    const dir = path.join(root, `d${++n}`);
    const log = createLogger(dir, { console: null });
    const file = path.join(dir, HOST_LOG);
    log.info('before the disk filled');
    let full = true;
    disk(file, () => full);
    let thrown: unknown = null;
    try {
      for (let i = 0; i < 1000; i++) log.error({ station: 1, n: i }, 'SAS exceptions from the journal');
    } catch (e) {
      thrown = e;
    }
    assert.equal(thrown, null, `a log call threw: ${String(thrown)}`);
    full = false;
    log.info('the disk has room again');
    const lines = parsed(file);
    assert.deepEqual(
      lines.map((l) => l.msg),
      ['before the disk filled', 'log lines lost: the disk refused them', 'the disk has room again'],
    );
    assert.equal(lines[1]?.lost, 1000);
    assert.equal(lines[1]?.app, lines[2]?.app, 'the lost lines are said with the process that lost them');
    assert.ok(lines[1]?.app, 'named');
    assert.ok(!lines.some((l) => l.n !== undefined), 'nothing refused was kept in memory and written later');
  });

  it('a line the disk cut short is cut off again: every line of the file parses', () => {
    const dir = path.join(root, `d${++n}`);
    const log = createLogger(dir, { console: null });
    const file = path.join(dir, HOST_LOG);
    log.info('before');
    let full = true;
    disk(file, () => full, true);
    for (let i = 0; i < 3; i++) log.warn({ n: i, pad: 'x'.repeat(200) }, 'cut short');
    full = false;
    log.info('after');
    assert.deepEqual(
      parsed(file).map((l) => l.msg),
      ['before', 'log lines lost: the disk refused them', 'after'],
    );
  });
});
