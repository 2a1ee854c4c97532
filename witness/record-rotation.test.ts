// The witness's record over weeks: past its size it is rotated — the current file archived under
// its time, a new one begun with what a restart needs (each terminal's forgets, first and newest
// head, newest fold and checkpoint) and a `carried` line naming the archive by its SHA-256 — and
// the oldest archives beyond the number kept are removed. Everything the witness refused before a
// rotation it refuses after it, across restarts.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { forgetTerminal } from './forget.js';
import { archives, freshDirs, Journal, lines, play, refused, testKey } from './test-kit.js';
import { Witness, type WitnessOptions } from './witness.js';

const fresh = freshDirs('witness-rotation-');
const key = testKey;

describe("the witness's record rotated", () => {
  it('rotates past its size, keeps the newest archives, and refuses after a restart what it refused before', () => {
    const dir = fresh();
    const k = key();
    let clock = Date.parse('2026-11-30T00:00:00.000Z');
    const o: WitnessOptions = { dir, key: k, rotateBytes: 64 * 1024, keepArchives: 3, headEveryMs: 0, clock: () => new Date((clock += 1_000)) };
    let w = new Witness(o);
    const a = new Journal('A', 40);
    const b = new Journal('B', 3);
    for (let i = 0; i < 60; i++) {
      play(w, a, 5);
      if (i % 10 === 0) play(w, b, 2);
    }
    w.close();
    const record = path.join(dir, 'record.jsonl');
    const kept = archives(dir);
    // Each fold of A is about 4 KB: 60 of them are far over 64 KiB, so the record was rotated,
    // and only the three newest archives are left.
    assert.equal(kept.length, 3, `archives: ${kept.join(', ')}`);
    assert.ok(statSync(record).size < 64 * 1024 + 16 * 1024, `record.jsonl holds ${statSync(record).size} bytes`);
    for (const f of kept) assert.ok(statSync(path.join(dir, f)).size >= 64 * 1024, `${f} is a whole record`);
    // The new record begins with the archive it carries on from, named by its digest.
    const first = lines(record)[0];
    assert.equal(first?.k, 'carried');
    if (first?.k !== 'carried') return;
    assert.equal(first.archive, kept.at(-1));
    assert.equal(
      first.sha256,
      createHash('sha256')
        .update(readFileSync(path.join(dir, first.archive)))
        .digest('hex'),
    );
    // A restart reads the new record alone, and holds what it held.
    w = new Witness(o);
    assert.deepEqual(w.headOf('A')?.seq, a.head().seq);
    assert.equal(refused(w.handle({ id: 4, op: 'checkpoint', terminal: 'A', ...a.head(), state: a.state('2026-01-02T00:00:00.000Z') })), 'checkpoint-conflict');
    assert.deepEqual(w.handle({ id: 5, op: 'folded', terminal: 'A' }), { id: 5, ok: true, op: 'folded', folded: a.head() });
    assert.deepEqual(w.handle({ id: 6, op: 'folded', terminal: 'B' }), { id: 6, ok: true, op: 'folded', folded: b.head() });
    assert.equal(refused(w.handle({ id: 7, op: 'witness', terminal: 'A', from: a.head(3), links: a.links.slice(3, 5), to: a.head(5) })), 'lower');
    play(w, a, 5);
    play(w, b, 2);
    w.close();
  });

  it('keeps a forgotten terminal forgotten, and the head the record shows, across a rotation', () => {
    const dir = fresh();
    const k = key();
    const o: WitnessOptions = { dir, key: k, rotateBytes: 32 * 1024, keepArchives: 2 };
    let w = new Witness(o);
    const a = new Journal('A', 40);
    const gone = new Journal('GONE', 2);
    play(w, gone, 4);
    w.close();
    forgetTerminal(dir, 'GONE', 'test');
    w = new Witness(o);
    for (let i = 0; i < 30; i++) play(w, a, 5);
    w.close();
    assert.ok(archives(dir).length > 0, 'rotated');
    const carried = lines(path.join(dir, 'record.jsonl'));
    assert.ok(
      carried.some((l) => l.k === 'forget' && l.terminal === 'GONE'),
      'the forget is carried',
    );
    // The head file of A put back to an older copy: the carried head still shows it lost.
    const slots = path.join(dir, 'heads', 'A');
    writeFileSync(slots, Buffer.alloc(0));
    w = new Witness(o);
    assert.equal(w.headOf('GONE'), null);
    const answer = w.handle({ id: 1, op: 'head', terminal: 'A' });
    assert.equal(refused(answer), 'failed');
    assert.match(answer.ok === false ? answer.message : '', /record\.jsonl shows head 150/);
    w.close();
  });

  it('starts after a rotation a power cut left half done, with nothing lost', () => {
    const dir = fresh();
    const k = key();
    const o: WitnessOptions = { dir, key: k, rotateBytes: 1024 * 1024 };
    let w = new Witness(o);
    const a = new Journal('A', 10);
    for (let i = 0; i < 5; i++) play(w, a, 4);
    w.close();
    // The next record was being written when the power went: a torn file beside the whole one.
    const next = path.join(dir, 'record.next.jsonl');
    writeFileSync(next, '{"k":"carried","at":"2026-');
    const logged: string[] = [];
    w = new Witness({ ...o, log: (l) => logged.push(String(l.message)) });
    assert.equal(existsSync(next), false, 'the unfinished next record is removed');
    assert.ok(
      logged.some((m) => /record\.next\.jsonl/.test(m)),
      logged.join('\n'),
    );
    assert.equal(w.headOf('A')?.seq, 20);
    assert.equal(refused(w.handle({ id: 1, op: 'checkpoint', terminal: 'A', ...a.head(), state: a.state('x') })), 'checkpoint-conflict');
    play(w, a, 4);
    w.close();
  });

  it('etg witness serve takes the rotation size and the archives kept, and refuses what is no whole number before it opens anything', () => {
    const dir = fresh();
    const run = (...args: string[]) =>
      spawnSync(
        process.execPath,
        ['bin/etg.js', 'witness', 'serve', '--dir', dir, '--key-file', path.join(dir, 'none.key'), '--socket', path.join(dir, 's'), ...args],
        {
          cwd: path.resolve(import.meta.dirname, '..'),
          encoding: 'utf8',
          timeout: 60_000,
        },
      );
    const bad = run('--record-keep', 'eight');
    assert.equal(bad.status, 2, bad.stderr);
    assert.match(bad.stderr, /--record-keep must be a whole number 0–100000, got "eight"/);
    const zero = run('--record-rotate-mb', '0');
    assert.equal(zero.status, 2, zero.stderr);
    assert.match(zero.stderr, /--record-rotate-mb must be a whole number 1–1048576/);
    assert.equal(existsSync(dir), false, 'nothing was made');
  });
});
