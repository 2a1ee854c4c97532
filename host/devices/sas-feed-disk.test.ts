// The SAS exception feed (sas-feed.ts) when `sas-reported.json` cannot be written or is damaged (a
// review): a save that fails must not cut a batch short nor stall the feed, and a damaged file at
// start must not silently drop what the casino system had not acknowledged. Wired as
// host/start/sas-links.ts wires it: each call guarded, its error kept and swallowed.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { ExceptionQueue } from '../../hardware/sas/exceptions.js';
import { billCredit } from '../../ledger/fixtures.js';
import { Ledger } from '../../ledger/index.js';
import { FEED_SAVE_EVERY, FIFO_KEPT, journalFacts, REPORTED_FILE, ReportedStore, StationFeed } from './sas-feed.js';

const STATION = 1;
const machine = () => {
  const q = new ExceptionQueue(20);
  return { exceptions: q, raise: (code: number, tag?: string) => void q.raise(code, tag) };
};

describe('sas-reported.json on a failing disk', () => {
  let dir: string;
  let ledger: Ledger;
  const warnings: string[] = [];
  const errors: { detail: object; message: string }[] = [];
  const log = {
    warn: (_d: object, m: string) => void warnings.push(m),
    error: (detail: object, message: string) => void errors.push({ detail, message }),
  };
  const file = () => path.join(dir, REPORTED_FILE);
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sas-feed-disk-'));
    ledger = Ledger.open({ file: ':memory:', terminalId: 'T-1' });
    ledger.append({ type: 'power.reset', payload: { clean: true, softwareVersion: '0.1.0' } });
    warnings.length = 0;
    errors.length = 0;
  });
  afterEach(() => {
    ledger.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const open = () => {
    const m = machine();
    const feed = new StationFeed(STATION, { ledger, store: new ReportedStore(dir, log), machine: m, facts: journalFacts(ledger), log });
    const thrown: unknown[] = [];
    const guard = (fn: () => void) => {
      try {
        fn();
      } catch (e) {
        thrown.push(e);
      }
    };
    const off = ledger.onAppended((e) => guard(() => feed.appended(e)));
    /** General polls, each acknowledged, until the queue is empty: the tags heard. */
    const read = (): string[] => {
      const tags: string[] = [];
      for (let code = m.exceptions.peek(); code !== 0; code = m.exceptions.peek()) {
        const done = m.exceptions.acknowledge(code);
        tags.push(done?.tag ?? `untagged:${code.toString(16)}`);
        if (done?.tag !== undefined) guard(() => feed.acknowledged(done.tag!));
      }
      return tags;
    };
    return { feed, read, off, m, thrown };
  };
  /** The disk refuses the file: a folder where it was (the rename fails, EISDIR). */
  const refuse = () => {
    rmSync(file(), { recursive: true, force: true });
    mkdirSync(file());
  };
  const restart = (f: ReturnType<typeof open>) => {
    f.off();
    ledger.append({ type: 'power.reset', payload: { clean: false, softwareVersion: '0.1.0' } });
    return open();
  };

  it('a save that fails in the middle of an appended batch (an overflow episode) cuts nothing short: every entry of the batch is reported, the save is made later', () => {
    let f = open();
    f.read();
    // Past the feed's bound: the first drop raises 70 and saves; then 63 drops unsaved, so the batch's first drop saves.
    for (let i = 0; i < FIFO_KEPT + 1 + (FEED_SAVE_EVERY - 1); i++) ledger.append(billCredit(STATION, 10_000, `n${i}`));
    refuse();
    const before = ledger.headOf().seq;
    ledger.appendMany([billCredit(STATION, 10_000, 'b1'), billCredit(STATION, 10_000, 'b2'), billCredit(STATION, 10_000, 'b3')]);
    const batch = [before + 1, before + 2, before + 3].map((s) => `${s}.0`);
    rmSync(file(), { recursive: true });
    for (let i = 0; i < 5; i++) ledger.append(billCredit(STATION, 10_000, `after${i}`));
    assert.ok(statSync(file()).isFile(), 'the save owed is made at the next append, the disk fine again');
    const first = f.read();
    f = restart(f);
    const heard = new Set([...first, ...f.read()]);
    assert.deepEqual(
      batch.map((k) => heard.has(k)),
      [true, true, true],
      'b1, b2 and b3 each reported (before: b1 only)',
    );
    assert.ok(
      errors.some((e) => e.message.includes(REPORTED_FILE) || JSON.stringify(e.detail).includes(REPORTED_FILE)),
      'the failed save is logged as an error',
    );
  });

  it('an acknowledgement whose save fails does not stall the feed: what waits behind is raised at once, the failure logged', () => {
    const f = open();
    f.read();
    for (let i = 0; i < 25; i++) ledger.append(billCredit(STATION, 10_000, `n${i}`)); // 20 in the machine, 5 waiting
    refuse();
    const got = f.read();
    assert.equal(got.length, 25, 'the 20 queued and the 5 behind them, without another append (before: 20, 5 left waiting)');
    assert.equal(f.feed.outstanding, 0);
    assert.ok(errors.length > 0, 'each failed save is logged as an error');
    // The disk is fine again: the save owed is made at the next acknowledgement or append.
    rmSync(file(), { recursive: true });
    ledger.append(billCredit(STATION, 10_000, 'later'));
    f.read();
    const again = restart(f).read();
    assert.deepEqual(again, [`${ledger.headOf().seq}.0`, `${ledger.headOf().seq}.1`], 'after a restart only the new power-up, nothing acknowledged again');
  });

  it('a damaged file at start (not JSON) is logged as an error naming the file, and its older copy is read: nothing unacknowledged is lost', () => {
    let f = open();
    f.read();
    ledger.append(billCredit(STATION, 5_000, 'x0'));
    f.read(); // a second write: the first is kept as `.prev`
    const n1 = ledger.append(billCredit(STATION, 10_000, 'x1')).entry.seq;
    const n2 = ledger.append(billCredit(STATION, 2_000, 'x2')).entry.seq;
    assert.equal(f.m.exceptions.queued, 2, 'two notes raised, not acknowledged');
    writeFileSync(file(), '{"v":1,"stations":{"1":{"thro');
    f = restart(f);
    const got = f.read();
    assert.ok(got.includes(`${n1}.0`) && got.includes(`${n2}.0`), `the two notes reported after the restart (before: not): ${got.join(' ')}`);
    assert.ok(!got.includes('overflow'), 'the older copy loses nothing: no 70');
    assert.ok(
      errors.some((e) => JSON.stringify(e.detail).includes(REPORTED_FILE)),
      `an error names the file (before: nothing logged): ${JSON.stringify(errors)}`,
    );
  });

  it('both copies damaged or unreadable (a folder): the feed re-reads from the run before this one and raises 70; duplicates, never a loss', () => {
    let f = open();
    f.read();
    const old = ledger.append(billCredit(STATION, 10_000, 'acked')).entry.seq;
    f.read();
    const n1 = ledger.append(billCredit(STATION, 10_000, 'x1')).entry.seq;
    refuse();
    writeFileSync(`${file()}.prev`, 'garbage');
    f = restart(f);
    const got = f.read();
    assert.ok(got.includes(`${n1}.0`), `the unacknowledged note is reported (before: dropped): ${got.join(' ')}`);
    assert.ok(got.includes(`${old}.0`), 'the acknowledged one again (a duplicate, harmless)');
    assert.equal(got[0], 'overflow', '70 first: the system is told exceptions may have been lost');
    assert.ok(errors.length >= 1, 'logged as an error');
  });

  it('a missing file (first use) starts at this run’s power-up and logs nothing', () => {
    ledger.append(billCredit(STATION, 10_000, 'before-install'));
    ledger.append({ type: 'power.reset', payload: { clean: true, softwareVersion: '0.1.0' } });
    const got = open().read();
    assert.deepEqual(got, [`${ledger.headOf().seq}.0`, `${ledger.headOf().seq}.1`]);
    assert.deepEqual(errors, []);
  });
});
