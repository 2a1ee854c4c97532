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
