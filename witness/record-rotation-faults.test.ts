// The record's rotation when the disk or the clock misbehaves (a review of the rotation): a full
// disk during a rotation, an archive that cannot be removed, carried lines wider than the size, a
// clock set back, a stop between the archive's link and the rename. Faults are injected into
// node:fs's own exports (syncBuiltinESMExports), not into the code under test.
import assert from 'node:assert/strict';
import fs, { existsSync, linkSync, readdirSync, readlinkSync, statSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { archives, freshDirs, Journal, lines, ok, play, refused, testKey } from './test-kit.js';
import { Witness, type WitnessOptions } from './witness.js';
import type { Answer } from './wire.js';

const fresh = freshDirs('witness-rotation-faults-');
const real = { writeSync: fs.writeSync, rmSync: fs.rmSync, renameSync: fs.renameSync };
afterEach(() => {
  Object.assign(fs, real);
  syncBuiltinESMExports();
});

/** `count` more entries witnessed (a head, no fold or checkpoint). */
function advance(w: Witness, j: Journal, count: number): Answer {
  const from = j.head();
  j.add(count);
  return w.handle({ id: 9, op: 'witness', terminal: j.terminal, from, links: j.links.slice(from.seq), to: j.head() });
}

/** Bytes the folder's files hold (each file once, however many names it has). */
function used(dir: string): number {
  const seen = new Set<number>();
  let bytes = 0;
  for (const f of readdirSync(dir)) {
    const st = statSync(path.join(dir, f));
    if (st.isFile() && !seen.has(st.ino)) {
      seen.add(st.ino);
      bytes += st.size;
    }
  }
  return bytes;
}

/** The folder's disk holds `room` bytes more than now: a write past that fails with ENOSPC after what fitted. */
function fillDiskAfter(dir: string, room: number): void {
  const limit = used(dir) + room;
  fs.writeSync = function (fd: number, buf: unknown, ...rest: unknown[]): number {
    if (path.dirname(readlinkSync(`/proc/self/fd/${fd}`)) !== dir || !Buffer.isBuffer(buf))
      return (real.writeSync as (...a: unknown[]) => number)(fd, buf, ...rest);
    const offset = typeof rest[0] === 'number' ? rest[0] : 0;
    const free = limit - used(dir);
    if (free <= 0) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    return real.writeSync(fd, buf, offset, Math.min(buf.length - offset, free));
  } as typeof fs.writeSync;
  syncBuiltinESMExports();
}

const rotations = (logged: Record<string, unknown>[]) => logged.filter((l) => l.message === 'record.jsonl rotated').length;

describe("the witness's record rotated, against a failing disk and clock", () => {
  it('a full disk mid-rotation: the next file is removed at once, later lines are recorded, the rotation is tried again later, not at every line', () => {
    const dir = fresh();
    const logged: Record<string, unknown>[] = [];
    const o: WitnessOptions = { dir, key: testKey(), headEveryMs: 0, log: (l) => logged.push(l) };
    let w = new Witness(o);
    const a = new Journal('A', 40);
    const b = new Journal('B', 40);
    for (let i = 0; i < 20; i++) [a, b].forEach((j) => play(w, j, 5));
    w.close();
    const record = path.join(dir, 'record.jsonl');
    // Due at the next line; the disk has room for several head lines, not for the carried folds.
    w = new Witness({ ...o, rotateBytes: 1 });
    fillDiskAfter(dir, 6_000);
    const before = lines(record).length;
    for (let i = 0; i < 8; i++) ok(advance(w, a, 1));
    assert.equal(existsSync(path.join(dir, 'record.next.jsonl')), false, 'the unfinished next record does not hold the last free bytes');
    assert.equal(lines(record).length - before, 8, 'every head line recorded');
    const failures = logged.filter((l) => String(l.message).includes('could not be rotated: ENOSPC'));
    assert.equal(failures.length, 1, `one failed rotation, not one per line: ${JSON.stringify(failures.map((f) => f.message))}`);
    w.close();
  });

  it('an archive that cannot be removed: the rotation still takes, the next lines go into the new record, no rotation at every line', () => {
    const dir = fresh();
    const logged: Record<string, unknown>[] = [];
    const w = new Witness({ dir, key: testKey(), headEveryMs: 0, rotateBytes: 32 * 1024, keepArchives: 1, log: (l) => logged.push(l) });
    const a = new Journal('A', 40);
    while (archives(dir).length < 1) play(w, a, 5);
    const stuck = archives(dir)[0] as string; // an operator's chattr +i, say
    fs.rmSync = function (p: fs.PathLike, opts?: fs.RmOptions): void {
      if (path.basename(String(p)) === stuck) throw Object.assign(new Error(`EPERM: operation not permitted, unlink '${String(p)}'`), { code: 'EPERM' });
      real.rmSync(p, opts);
    } as typeof fs.rmSync;
    syncBuiltinESMExports();
    while (archives(dir).length < 2) play(w, a, 5);
    const n = rotations(logged);
    for (let i = 0; i < 10; i++) ok(advance(w, a, 1));
    refused(w.handle({ id: 1, op: 'witness', terminal: 'A', from: a.head(1), links: [], to: a.head(1) }));
    assert.equal(rotations(logged), n, 'no rotation at every line');
    assert.ok(archives(dir).length <= 2, `archives: ${archives(dir).join(', ')}`);
    assert.ok(
      lines(path.join(dir, 'record.jsonl')).some((l) => l.k === 'refused'),
      'the refusal is in the record, not in an archive',
    );
    assert.ok(
      logged.some((l) => l.message === 'record.jsonl rotated' && JSON.stringify(l.problems).includes('EPERM')),
      'the archive not removed is logged',
    );
    w.close();
  });

  it('carried lines wider than the rotation size: the record rotates once it has grown by the size, not at every line', () => {
    const dir = fresh();
    const logged: Record<string, unknown>[] = [];
    const w = new Witness({ dir, key: testKey(), headEveryMs: 0, rotateBytes: 64 * 1024, keepArchives: 3, log: (l) => logged.push(l) });
    // Three terminals of 400 stations: their folds alone (about 3 × 30 KB) are wider than 64 KiB.
    const js = ['A', 'B', 'C'].map((t) => new Journal(t, 400));
    for (const j of js) play(w, j, 400);
    const n = rotations(logged);
    for (let i = 0; i < 10; i++) ok(advance(w, js[0] as Journal, 1));
    assert.ok(rotations(logged) - n <= 1, `${rotations(logged) - n} rotations for 10 head lines`);
    w.close();
  });

  it('the clock set back: the new archive is kept and the oldest goes, as they were made', () => {
    const dir = fresh();
    let clock = Date.parse('2026-11-30T00:00:00.000Z');
    const w = new Witness({ dir, key: testKey(), rotateBytes: 32 * 1024, keepArchives: 2, clock: () => new Date((clock += 1_000)) });
    const a = new Journal('A', 40);
    while (archives(dir).length < 2) play(w, a, 5);
    const [oldest, newer] = archives(dir);
    clock = Date.parse('2020-01-01T00:00:00.000Z');
    const carried = () => {
      const first = lines(path.join(dir, 'record.jsonl'))[0];
      return first?.k === 'carried' ? first.archive : '';
    };
    const was = carried();
    while (carried() === was) play(w, a, 5);
    assert.ok(existsSync(path.join(dir, carried())), `the archive the record names (${carried()}) is kept`);
    assert.ok(!archives(dir).includes(oldest as string), 'the oldest archive went');
    assert.ok(archives(dir).includes(newer as string));
    w.close();
  });

  it('stopped between the archive link and the rename: at the next start no archive is a second name of the record; a rename that fails undoes the link', () => {
    const dir = fresh();
    const o: WitnessOptions = { dir, key: testKey(), headEveryMs: 0, rotateBytes: 32 * 1024 };
    let w = new Witness(o);
    const a = new Journal('A', 40);
    let once = true;
    fs.renameSync = function (from: fs.PathLike, to: fs.PathLike): void {
      if (once && path.basename(String(from)) === 'record.next.jsonl') {
        once = false;
        throw Object.assign(new Error('EIO: i/o error, rename'), { code: 'EIO' });
      }
      real.renameSync(from, to);
    } as typeof fs.renameSync;
    syncBuiltinESMExports();
    while (once) play(w, a, 5);
    const ino = (f: string) => statSync(path.join(dir, f)).ino;
    assert.ok(!archives(dir).some((f) => ino(f) === ino('record.jsonl')), 'the failed rename left no second name of the record');
    w.close();
    // A power cut between the link and the rename leaves just that: the archive's name on the live record.
    const stray = 'record-00000099-20261130T000000000Z.jsonl';
    linkSync(path.join(dir, 'record.jsonl'), path.join(dir, stray));
    w = new Witness(o);
    assert.ok(!archives(dir).includes(stray), 'removed at the start');
    assert.equal(w.headOf('A')?.seq, a.head().seq);
    w.close();
  });
});
