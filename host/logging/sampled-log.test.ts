// A line that may come many times a second (a screen's refused message, a SAS poll the station
// cannot answer while its disk refuses writes: 40 polls a second) is logged sampled: the first of a
// kind at once, then one line per interval carrying how many were held back since.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SampledLog } from './sampled-log.js';

function fakeLog() {
  const lines: { level: string; fields: Record<string, unknown>; msg: string }[] = [];
  const at = (level: string) => (fields: Record<string, unknown>, msg: string) => void lines.push({ level, fields, msg });
  return { lines, log: { warn: at('warn'), error: at('error') } };
}

describe('a sampled log', () => {
  it('logs the first of a kind at once, then one line an interval with how many were held back, kinds apart', () => {
    const { lines, log } = fakeLog();
    let now = 0;
    const s = new SampledLog(log, () => now, 1000);
    for (let i = 0; i < 40; i++) s.error('station 1 0x1f', { station: 1, i }, 'SAS poll failed');
    s.error('station 2 0x1f', { station: 2 }, 'SAS poll failed');
    now = 999;
    s.error('station 1 0x1f', { station: 1 }, 'SAS poll failed');
    now = 1000;
    s.error('station 1 0x1f', { station: 1, last: true }, 'SAS poll failed');
    s.warn('other', { x: 1 }, 'something else');
    assert.deepEqual(lines, [
      { level: 'error', fields: { station: 1, i: 0 }, msg: 'SAS poll failed' },
      { level: 'error', fields: { station: 2 }, msg: 'SAS poll failed' },
      { level: 'error', fields: { station: 1, last: true, suppressed: 40 }, msg: 'SAS poll failed' },
      { level: 'warn', fields: { x: 1 }, msg: 'something else' },
    ]);
  });

  it('keeps a bounded number of kinds: a flood of new kinds cannot grow it without end', () => {
    const { lines, log } = fakeLog();
    const s = new SampledLog(log, () => 0, 1000, 100);
    for (let i = 0; i < 10_000; i++) s.warn(`kind ${i}`, {}, 'x');
    assert.ok(s.size <= 100);
    assert.equal(lines.length, 10_000);
  });
});

/** A timer the test fires: each scheduled callback with its delay, cancelled or not. */
function fakeTimer() {
  const timers: { fn: () => void; ms: number; cancelled: boolean }[] = [];
  const schedule = (fn: () => void, ms: number) => {
    const t = { fn, ms, cancelled: false };
    timers.push(t);
    return () => void (t.cancelled = true);
  };
  /** Fires every timer due, as the event loop would: those scheduled by a fired one too. */
  const fire = () => {
    for (let t = timers.find((x) => !x.cancelled); t; t = timers.find((x) => !x.cancelled)) {
      t.cancelled = true;
      t.fn();
    }
  };
  return { timers, schedule, fire, pending: () => timers.filter((t) => !t.cancelled) };
}

describe('a sampled log, its count of lines held back', () => {
  it('is said within an interval though no line of the kind comes again: a SAS disk failure of 9 s at 40 polls a second', () => {
    const { lines, log } = fakeLog();
    const timer = fakeTimer();
    let now = 0;
    const s = new SampledLog(log, () => now, 10_000, 10_000, timer.schedule);
    for (let i = 0; i < 360; i++) {
      now = i * 25;
      s.error('station 1 disk', { station: 1, i }, 'SAS poll failed');
    }
    assert.equal(lines.length, 1);
    // One timer, due when the kind's interval ends (10 s after its first line).
    assert.deepEqual(
      timer.pending().map((t) => t.ms),
      [10_000 - 25],
    );
    now = 10_000;
    timer.fire();
    assert.deepEqual(lines, [
      { level: 'error', fields: { station: 1, i: 0 }, msg: 'SAS poll failed' },
      // The last held back, said late, with the count of the others held back before it.
      { level: 'error', fields: { station: 1, i: 359, suppressed: 358, heldMs: 10_000 - 359 * 25 }, msg: 'SAS poll failed' },
    ]);
    // Every poll accounted for: each line once, and its count.
    assert.equal(
      lines.reduce((n, l) => n + 1 + Number(l.fields.suppressed ?? 0), 0),
      360,
    );
    assert.equal(timer.pending().length, 0, 'nothing held back: no timer');
    // The next failure is an interval after the line said: held back, said by the next timer.
    now = 10_500;
    s.error('station 1 disk', { station: 1, i: 360 }, 'SAS poll failed');
    assert.equal(lines.length, 2);
    now = 20_000;
    timer.fire();
    assert.deepEqual(lines.at(-1), { level: 'error', fields: { station: 1, i: 360, heldMs: 9_500 }, msg: 'SAS poll failed' });
  });

  it('a line of the kind after the interval carries the count, and the timer then says nothing more', () => {
    const { lines, log } = fakeLog();
    const timer = fakeTimer();
    let now = 0;
    const s = new SampledLog(log, () => now, 1000, 100, timer.schedule);
    s.warn('k', { n: 0 }, 'm');
    now = 10;
    s.warn('k', { n: 1 }, 'm');
    s.warn('k', { n: 2 }, 'm');
    now = 1000;
    s.warn('k', { n: 3 }, 'm');
    now = 1001;
    timer.fire();
    assert.deepEqual(lines, [
      { level: 'warn', fields: { n: 0 }, msg: 'm' },
      { level: 'warn', fields: { n: 3, suppressed: 2 }, msg: 'm' },
    ]);
  });

  it('a timer that fires early says nothing yet and comes again when the interval ends', () => {
    const { lines, log } = fakeLog();
    const timer = fakeTimer();
    let now = 0;
    const s = new SampledLog(log, () => now, 1000, 100, timer.schedule);
    s.warn('k', {}, 'm');
    s.warn('k', { n: 1 }, 'm');
    now = 600;
    const [first] = timer.pending();
    if (first) {
      first.cancelled = true;
      first.fn();
    }
    assert.equal(lines.length, 1);
    assert.deepEqual(
      timer.pending().map((t) => t.ms),
      [400],
    );
    now = 1000;
    timer.fire();
    assert.deepEqual(lines.at(-1), { level: 'warn', fields: { n: 1, heldMs: 1000 }, msg: 'm' });
  });

  it('is said when its kind is forgotten to make room for another', () => {
    const { lines, log } = fakeLog();
    const timer = fakeTimer();
    const now = 0;
    const s = new SampledLog(log, () => now, 1000, 2, timer.schedule);
    s.warn('a', { k: 'a' }, 'm');
    for (let i = 0; i < 5; i++) s.warn('a', { k: 'a', i }, 'm');
    s.warn('b', { k: 'b' }, 'm');
    s.warn('c', { k: 'c' }, 'm'); // a is forgotten
    assert.deepEqual(
      lines.map((l) => l.fields),
      [{ k: 'a' }, { k: 'b' }, { k: 'a', i: 4, suppressed: 4, heldMs: 0 }, { k: 'c' }],
    );
    timer.fire();
    assert.equal(lines.length, 4, 'said once');
    assert.equal(s.size, 2);
  });

  it('is said on close, and close leaves no timer', () => {
    const { lines, log } = fakeLog();
    const timer = fakeTimer();
    let now = 0;
    const s = new SampledLog(log, () => now, 1000, 100, timer.schedule);
    s.error('a', {}, 'x');
    now = 5;
    s.error('a', { last: true }, 'x');
    s.error('a', { last: true }, 'x');
    now = 7;
    s.close();
    assert.deepEqual(lines.at(-1), { level: 'error', fields: { last: true, suppressed: 1, heldMs: 2 }, msg: 'x' });
    assert.equal(timer.pending().length, 0);
  });

  it('by default, on a timer that does not keep the process alive', async () => {
    const { lines, log } = fakeLog();
    const timeouts = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timeouts();
    const s = new SampledLog(log, () => performance.now(), 20);
    s.warn('k', {}, 'm');
    s.warn('k', { n: 1 }, 'm');
    assert.equal(timeouts(), before, 'the timer is unref()ed');
    await new Promise((r) => setTimeout(r, 60));
    assert.deepEqual(lines.at(-1)?.fields.n, 1, 'said by the timer');
  });
});
