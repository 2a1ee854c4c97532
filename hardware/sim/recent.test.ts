import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ShoeSimulator } from '../shoe/simulator.js';
import { encodeShoeFrame, MSG } from '../shoe/framed.js';
import { keepRecent, RECENT_FRAMES } from './recent.js';

describe("a simulated device's record of what it received", () => {
  it('keeps the newest frames, bounded, in order', () => {
    const list: number[] = [];
    for (let i = 0; i < 10 * RECENT_FRAMES; i++) keepRecent(list, i);
    assert.equal(list.length, RECENT_FRAMES);
    assert.equal(list.at(-1), 10 * RECENT_FRAMES - 1);
    for (let i = 1; i < list.length; i++) assert.equal(list[i], list[i - 1]! + 1);
  });

  it('once full, holds the same count for good: one dropped for each one kept (no sawtooth in a long run)', () => {
    // Kept between the bound and twice it, the table host's heap rose by the acceptors' and the shoe's
    // frames for hundreds of rounds and fell 0.5-0.7 MB at once (issue 52, bench/host-heap.ts).
    const list: number[] = [];
    const lengths = new Set<number>();
    for (let i = 0; i < 5 * RECENT_FRAMES; i++) {
      keepRecent(list, i);
      if (i >= RECENT_FRAMES) lengths.add(list.length);
    }
    assert.deepEqual([...lengths], [RECENT_FRAMES]);
    assert.equal(list[0], 4 * RECENT_FRAMES);
  });

  it('a simulated shoe talked to for weeks keeps a bounded record', () => {
    const shoe = new ShoeSimulator({ protocol: 'framed' });
    const frame = encodeShoeFrame(0, MSG.GET_STATUS, []);
    for (let i = 0; i < 5 * RECENT_FRAMES; i++) shoe.receive(frame);
    assert.equal(shoe.received.length, RECENT_FRAMES, `${shoe.received.length} frames kept`);
  });
});
