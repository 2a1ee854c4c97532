// A fault whose entry the journal refused was journalled only when something else committed: on a
// table the fault stopped, nothing else may commit for minutes, and a host killed meanwhile lost
// the fault's record (only the log had it). A source saying "condition gone" at every poll while
// the disk was full logged an error per poll; a raise refused for a reason a retry cannot mend (an
// entry the schema refuses, a bug) was tried again, with an error line, at every commit forever.
// The manager now retries what it holds unjournalled on a timer of its own (backed off, stopped
// when nothing waits and at close), logs a refusal once and then a summary at most once a minute,
// and holds a fault refused for good without trying it again.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { Ledger, LedgerWriteLost, openTilts, verifyLedger } from '../../ledger/index.js';
import { manualTimers } from '../testing/manual-timers.js';
import { refusingWith } from '../testing/refusing-ledger.js';
import { TiltManager } from './tilt-manager.js';

/** As better-sqlite3 throws it: a `SqliteError` whose `code` says the disk is full. */
const diskFull = () => Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });

type Line = { level: number; msg: string; repeats?: number; refusals?: number; kind?: string; detail?: string };

function rig() {
  const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-RETRY' });
  const clock = manualTimers();
  const lines: Line[] = [];
  const log = pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s) as Line) });
  const tilts = new TiltManager({ ledger, log, timers: clock.timers });
  const note = () => ledger.append({ type: 'service.denied', payload: { staff: '1', reason: 'unknown' } });
  const tiltTypes = () => [...ledger.entries(1)].map((e) => e.type).filter((t) => t.startsWith('tilt.'));
  const errors = () => lines.filter((l) => l.level >= 50);
  /** Advances the clock `ms` in steps of `step`, calling `each` at every step (a source's poll). */
  const run = (ms: number, step: number, each: () => void = () => {}) => {
    for (let t = 0; t < ms; t += step) {
      clock.advance(step);
      each();
    }
  };
  return { ledger, clock, tilts, note, tiltTypes, errors, lines, run };
}

describe('a fault held unjournalled: the retry timer', () => {
  it('journals a held raise once the disk has space, with nothing else committing, trying it a bounded number of times meanwhile', () => {
    const { ledger, clock, tilts, tiltTypes, run } = rig();
    try {
      const disk = refusingWith(ledger, 'tilt.raise', diskFull);
      tilts.raise('shoe-alarm', { detail: 'a card out of order' });
      assert.equal(tilts.effects().halted, true);
      run(10 * 60_000, 1_000);
      assert.deepEqual(tiltTypes(), [], 'the disk still full: nothing journalled');
      const tried = disk.attempts();
      assert.ok(tried >= 10, `tried again while the disk was full (${tried} times in 10 minutes)`);
      assert.ok(tried <= 40, `backed off: ${tried} attempts in 10 minutes`);
      disk.release();
      run(30_000, 1_000);
      assert.deepEqual(tiltTypes(), ['tilt.raise'], 'journalled within the retry cap of the disk freed, nothing else written');
      assert.deepEqual(
        openTilts(ledger).map((t) => t.kind),
        ['shoe-alarm'],
        'a host killed now restores the halt',
      );
      assert.equal(clock.pending(), 0, 'the timer stopped: nothing is held unjournalled');
      run(5 * 60_000, 10_000);
      assert.deepEqual(tiltTypes(), ['tilt.raise'], 'journalled once');
      assert.equal(verifyLedger(ledger).ok, true);
    } finally {
      tilts.close();
      ledger.close();
    }
  });

  it('journals a refused automatic clear once the disk has space, with its condition not seen again', () => {
    const { ledger, clock, tilts, tiltTypes, run } = rig();
    try {
      tilts.raise('printer-paper-out', { station: 2 });
      const disk = refusingWith(ledger, 'tilt.clear', diskFull);
      tilts.conditionGone('printer-paper-out', 2);
      assert.deepEqual(
        tilts.list().map((t) => t.kind),
        ['printer-paper-out'],
        'held while its clear is refused',
      );
      run(2 * 60_000, 1_000);
      disk.release();
      run(30_000, 1_000);
      assert.deepEqual(tilts.list(), [], 'cleared by the timer');
      assert.deepEqual(tiltTypes(), ['tilt.raise', 'tilt.clear']);
      assert.deepEqual(openTilts(ledger), []);
      assert.equal(clock.pending(), 0);
    } finally {
      tilts.close();
      ledger.close();
    }
  });

  it('stops when another commit journals what was held, and at close', () => {
    const { ledger, clock, tilts, note, tiltTypes, run } = rig();
    try {
      const disk = refusingWith(ledger, 'tilt.raise', diskFull);
      tilts.raise('shoe-alarm');
      assert.ok(clock.pending() > 0, 'a retry set');
      disk.release();
      note();
      assert.deepEqual(tiltTypes(), ['tilt.raise']);
      assert.equal(clock.pending(), 0, 'nothing held: no timer');

      const again = refusingWith(ledger, 'tilt.raise', diskFull);
      tilts.raise('card-hold');
      assert.ok(clock.pending() > 0);
      tilts.close();
      assert.equal(clock.pending(), 0, 'no timer after close');
      again.release();
      run(60_000, 1_000);
      assert.deepEqual(tiltTypes(), ['tilt.raise'], 'nothing journalled after close');
    } finally {
      ledger.close();
    }
  });
});

describe('a refusal said once, then summarised', () => {
  it('100 polls of a condition gone while the disk is full log one error, a summary a minute, and a line when it goes through', () => {
    const { ledger, tilts, tiltTypes, errors, lines, run } = rig();
    try {
      tilts.raise('upstream-offline');
      const disk = refusingWith(ledger, 'tilt.clear', diskFull);
      run(10_000, 100, () => tilts.conditionGone('upstream-offline'));
      assert.ok(disk.attempts() >= 100, 'each poll tried the clear');
      assert.equal(errors().length, 1, `100 polls, one error line (${errors().length})`);
      run(115_000, 100, () => tilts.conditionGone('upstream-offline'));
      const said = errors();
      assert.ok(said.length >= 2 && said.length <= 3, `two minutes of polls: the first line and a summary a minute (${said.length})`);
      const summary = said[1];
      assert.ok(summary?.repeats !== undefined && summary.repeats > 500, `the summary counts the repeats (${summary?.repeats})`);
      assert.equal(tilts.effects().newBetsStopped, true, 'still held');
      disk.release();
      tilts.conditionGone('upstream-offline');
      assert.equal(tilts.effects().newBetsStopped, false);
      assert.deepEqual(tiltTypes(), ['tilt.raise', 'tilt.clear']);
      const through = lines.findLast((l) => l.refusals !== undefined);
      assert.ok(through && through.level < 50 && (through.refusals ?? 0) > 1000, `a final line counts the refusals: ${JSON.stringify(through)}`);
      assert.equal(errors().length, said.length, 'no error once through');
    } finally {
      tilts.close();
      ledger.close();
    }
  });
});

describe('a raise refused for a reason a retry cannot mend', () => {
  it('is held (the table stays stopped), logged once at fatal with its entry, and not retried at every commit or by the timer', () => {
    const { ledger, clock, tilts, note, tiltTypes, errors, run } = rig();
    try {
      const schema = refusingWith(ledger, 'tilt.raise', () =>
        Object.assign(new Error('CHECK constraint failed: payload'), { code: 'SQLITE_CONSTRAINT_CHECK' }),
      );
      tilts.raise('shoe-alarm', { detail: 'a card out of order' });
      assert.equal(tilts.effects().halted, true, 'held: the table stays stopped (the safe side)');
      for (let i = 0; i < 50; i++) note();
      run(10 * 60_000, 1_000);
      assert.equal(schema.attempts(), 1, `tried once (${schema.attempts()})`);
      const said = errors();
      assert.equal(said.length, 1, `one line (${said.length})`);
      assert.equal(said[0]?.level, 60, 'at fatal: a technician is needed');
      assert.equal(said[0]?.kind, 'shoe-alarm');
      assert.equal(said[0]?.detail, 'a card out of order', 'with the entry refused');
      assert.equal(clock.pending(), 0, 'no retry timer for it');
      assert.deepEqual(tiltTypes(), []);
      assert.equal(tilts.effects().halted, true);
    } finally {
      tilts.close();
      ledger.close();
    }
  });

  it('a schema changed under the host (LedgerWriteLost) is one that can be put right: retried', () => {
    const { ledger, tilts, note, tiltTypes } = rig();
    try {
      const lost = refusingWith(ledger, 'tilt.raise', () => new LedgerWriteLost('ledger schema changed while open'));
      tilts.raise('ledger-integrity');
      lost.release();
      note();
      assert.deepEqual(tiltTypes(), ['tilt.raise']);
    } finally {
      tilts.close();
      ledger.close();
    }
  });
});

// A read-only review of 2 December found three ways the retry still lost a fault.
describe('what the retry missed (a review of 2 December)', () => {
  it("a failing disk (better-sqlite3's extended code, SQLITE_IOERR_WRITE) is retried, not held for good", () => {
    const { ledger, tilts, run, tiltTypes } = rig();
    try {
      const ioErr = () => Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_WRITE' });
      const disk = refusingWith(ledger, 'tilt.raise', ioErr);
      tilts.raise('upstream-offline');
      disk.release();
      run(60_000, 1_000);
      assert.deepEqual(tiltTypes(), ['tilt.raise'], 'journalled by the timer once the disk writes again');
      tilts.conditionGone('upstream-offline');
      assert.deepEqual(tilts.list(), [], 'and cleared when its condition goes');
      assert.equal(tilts.effects().newBetsStopped, false);
    } finally {
      tilts.close();
      ledger.close();
    }
  });

  it('a fault raised and refused while the retry pass journals a clear is still retried', () => {
    const { ledger, tilts, run } = rig();
    try {
      tilts.raise('upstream-offline');
      const clearDisk = refusingWith(ledger, 'tilt.clear', diskFull);
      tilts.conditionGone('upstream-offline');
      // A part of the host reacting to the fault list raises another fault, whose raise the disk refuses.
      let raiseDisk: { release: () => void } | null = null;
      tilts.onChange(() => {
        if (!raiseDisk && tilts.list().every((t) => t.kind !== 'upstream-offline')) {
          raiseDisk = refusingWith(ledger, 'tilt.raise', diskFull);
          tilts.raise('shoe-lost');
        }
      });
      clearDisk.release();
      run(2_000, 1_000);
      assert.deepEqual(
        tilts.list().map((t) => t.kind),
        ['shoe-lost'],
      );
      assert.ok(raiseDisk, 'the listener raised shoe-lost during the pass');
      (raiseDisk as { release: () => void }).release();
      run(300_000, 1_000);
      assert.deepEqual(
        openTilts(ledger).map((t) => t.kind),
        ['shoe-lost'],
        'shoe-lost journalled by the retry',
      );
    } finally {
      tilts.close();
      ledger.close();
    }
  });

  it('a raise refused for good, of a fault that clears by itself, goes when its condition goes (as a restart would drop it), logged', () => {
    const { ledger, tilts, tiltTypes, lines } = rig();
    try {
      const bug = () => Object.assign(new Error('CHECK constraint failed'), { code: 'SQLITE_CONSTRAINT_CHECK' });
      refusingWith(ledger, 'tilt.raise', bug);
      tilts.raise('upstream-offline');
      assert.equal(tilts.effects().newBetsStopped, true, 'held: the table stops as the fault says');
      tilts.conditionGone('upstream-offline');
      assert.deepEqual(tilts.list(), [], 'let go: no person may clear a fault that clears by itself');
      assert.equal(tilts.effects().newBetsStopped, false);
      assert.deepEqual(tiltTypes(), [], 'neither its raise nor a clear in the journal');
      assert.ok(
        lines.some((l) => l.level >= 50 && l.kind === 'upstream-offline' && /never journalled/.test(l.msg)),
        'the log says it went unjournalled',
      );
    } finally {
      tilts.close();
      ledger.close();
    }
  });
});
