import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FrameTrace } from './frame-trace.js';

const tx = (hex: string) => ({ dir: 'tx' as const, hex, meaning: `tx ${hex}` });
const rx = (hex: string) => ({ dir: 'rx' as const, hex, meaning: `rx ${hex}` });

describe('frame trace', () => {
  it('counts a repeated poll-and-answer pair instead of filling the trace with it', () => {
    const t = new FrameTrace(10);
    for (let i = 0; i < 50; i++) {
      t.add('BA-1', tx('11'), `t${i}a`);
      t.add('BA-1', rx('1A'), `t${i}b`);
    }
    t.add('BA-1', tx('41'), 'stack');
    t.add('BA-1', rx('50'), 'ack');
    assert.deepEqual(
      t.of('BA-1', 10).map((f) => [f.hex, f.count]),
      [
        ['50', 1],
        ['41', 1],
        ['1A', 50],
        ['11', 50],
      ],
    );
    assert.equal(t.of('BA-1', 10)[2]?.ts, 't49b', 'a repeat carries the time it was last seen');
  });

  it('keeps each device apart, bounded, newest first; a single repeated frame is counted too', () => {
    const t = new FrameTrace(3);
    for (const h of ['01', '02', '03', '04', '05']) t.add('shoe', rx(h), h);
    t.add('shoe', rx('05'), 'again');
    t.add('BA-2', tx('11'), 'x');
    assert.deepEqual(
      t.of('shoe', 10).map((f) => [f.hex, f.count]),
      [
        ['05', 2],
        ['04', 1],
        ['03', 1],
      ],
    );
    assert.deepEqual(
      t.of('BA-2', 10).map((f) => f.hex),
      ['11'],
    );
    assert.deepEqual(t.of('BA-9', 10), []);
  });

  it('shows a frame that may start a repeat at once, and does not lose it when the pattern breaks', () => {
    const t = new FrameTrace(10);
    t.add('BA-1', tx('11'), 'a');
    t.add('BA-1', rx('1A'), 'b');
    t.add('BA-1', tx('11'), 'c');
    assert.deepEqual(
      t.of('BA-1', 10).map((f) => f.hex),
      ['11', '1A', '11'],
    );
    t.add('BA-1', rx('13'), 'd');
    assert.deepEqual(
      t.of('BA-1', 10).map((f) => [f.hex, f.count]),
      [
        ['13', 1],
        ['11', 1],
        ['1A', 1],
        ['11', 1],
      ],
    );
  });
});
