import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ShoeSimulator } from '../shoe/simulator.js';
import { encodeShoeFrame, MSG } from '../shoe/framed.js';
import { keepRecent, RECENT_FRAMES } from './recent.js';

describe("a simulated device's record of what it received", () => {
  it('keeps the newest frames, bounded, in order', () => {
    const list: number[] = [];
    for (let i = 0; i < 10 * RECENT_FRAMES; i++) keepRecent(list, i);
    assert.ok(list.length <= 2 * RECENT_FRAMES && list.length >= RECENT_FRAMES);
    assert.equal(list.at(-1), 10 * RECENT_FRAMES - 1);
    for (let i = 1; i < list.length; i++) assert.equal(list[i], list[i - 1]! + 1);
  });

  it('a simulated shoe talked to for weeks keeps a bounded record', () => {
    const shoe = new ShoeSimulator({ protocol: 'framed' });
    const frame = encodeShoeFrame(0, MSG.GET_STATUS, []);
    for (let i = 0; i < 5 * RECENT_FRAMES; i++) shoe.receive(frame);
    assert.ok(shoe.received.length <= 2 * RECENT_FRAMES, `${shoe.received.length} frames kept`);
  });
});
