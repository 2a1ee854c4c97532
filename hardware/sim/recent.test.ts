import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CMD as ID003 } from '../billacceptor/id003/constants.js';
import { encodeId003 } from '../billacceptor/id003/frame.js';
import { Id003Simulator } from '../billacceptor/id003/simulator.js';
import { CMD as SSP } from '../billacceptor/ssp/constants.js';
import { encodeSsp } from '../billacceptor/ssp/frame.js';
import { SspSimulator } from '../billacceptor/ssp/simulator.js';
import { TclPrinterSimulator } from '../printer/simulator.js';
import { encodeCommand } from '../printer/tcl.js';
import { ShoeSimulator } from '../shoe/simulator.js';
import { encodeShoeFrame, MSG } from '../shoe/framed.js';
import type { DeviceSide } from './device-side.js';
import { keepRecent, RECENT_FRAMES } from './recent.js';

/** Each simulator that records the host's frames, with one frame its parser takes whole. */
const devices: { name: string; make: (keepReceived?: boolean) => DeviceSide & { readonly received: unknown[] }; frame: Uint8Array }[] = [
  { name: 'ID-003 acceptor', make: (k) => new Id003Simulator(k === undefined ? {} : { keepReceived: k }), frame: encodeId003(ID003.STATUS_REQUEST) },
  { name: 'SSP acceptor', make: (k) => new SspSimulator(k === undefined ? {} : { keepReceived: k }), frame: encodeSsp(0x80, [SSP.SYNC]) },
  { name: 'TCL printer', make: (k) => new TclPrinterSimulator(k === undefined ? {} : { keepReceived: k }), frame: encodeCommand('S') },
  {
    name: 'framed shoe',
    make: (k) => new ShoeSimulator({ protocol: 'framed', ...(k === undefined ? {} : { keepReceived: k }) }),
    frame: encodeShoeFrame(0, MSG.GET_STATUS, []),
  },
];

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

  for (const d of devices) {
    it(`a ${d.name} keeps no frame unless a test asks: as etg start makes it, none (a real driver keeps none)`, () => {
      // Kept for every simulator, the simulated acceptors' records filled for the host's first ~600
      // rounds and were most of the heap growth the long-run bench judged (issue 52).
      for (const sim of [d.make(), d.make(false)]) {
        for (let i = 0; i < 50; i++) sim.receive(d.frame);
        assert.throws(() => sim.received, /keeps no record of the frames it received/);
      }
    });

    it(`a ${d.name} made for a test keeps the newest frames, bounded, for weeks`, () => {
      const sim = d.make(true);
      sim.receive(d.frame);
      assert.equal(sim.received.length, 1, 'the frame is kept');
      for (let i = 0; i < 5 * RECENT_FRAMES; i++) sim.receive(d.frame);
      assert.equal(sim.received.length, RECENT_FRAMES, `${sim.received.length} frames kept`);
    });
  }
});
