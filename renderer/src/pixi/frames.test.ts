import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { FrameLoop, listenForPresses, NEVER } from './frames.js';

/** A display that refreshes only when the test says, and a clock the test moves. */
let callbacks: ((t: number) => void)[] = [];
let now = 0;
const g = globalThis as unknown as { requestAnimationFrame: unknown; cancelAnimationFrame: unknown };
const saved = { raf: g.requestAnimationFrame, caf: g.cancelAnimationFrame };
beforeEach(() => {
  callbacks = [];
  now = 0;
  g.requestAnimationFrame = (cb: (t: number) => void) => callbacks.push(cb);
  g.cancelAnimationFrame = (id: number) => {
    callbacks[id - 1] = () => {};
  };
});
afterEach(() => {
  g.requestAnimationFrame = saved.raf;
  g.cancelAnimationFrame = saved.caf;
});
/** One display refresh, 16 ms after the last: the frames asked for by then run. */
function refresh(): void {
  now += 16;
  const due = callbacks;
  callbacks = [];
  for (const cb of due) cb(now);
}

describe('render on demand', () => {
  it('a still screen draws one frame when asked, then none however long it waits', () => {
    let drawn = 0;
    const loop = new FrameLoop({ now: () => now, draw: () => (drawn++, NEVER) });
    loop.request();
    loop.request();
    for (let i = 0; i < 100; i++) refresh();
    assert.equal(drawn, 1);
    assert.equal(loop.count, 1);
    loop.request();
    refresh();
    assert.equal(drawn, 2);
  });

  it('a screen that moves draws every refresh until it stops', () => {
    let moving = 5;
    const loop = new FrameLoop({ now: () => now, draw: () => (moving-- > 0 ? now : NEVER) });
    loop.request();
    for (let i = 0; i < 20; i++) refresh();
    assert.equal(loop.count, 6, 'five moving frames and the one that found it still');
  });

  it('a countdown sleeps until its next second, on a timer, not on the display', async () => {
    let wake = 30;
    const loop = new FrameLoop({ now: () => now, draw: () => wake });
    loop.request();
    refresh(); // at 16: the next change is at 30
    assert.equal(loop.count, 1);
    assert.equal(callbacks.length, 0, 'no frame asked of the display meanwhile');
    now = 30;
    wake = NEVER;
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(callbacks.length, 1, 'the timer asked for a frame');
    refresh();
    assert.equal(loop.count, 2);
  });

  it('under a frame cap, a frame asked too soon waits for its turn and is not lost', () => {
    const loop = new FrameLoop({ now: () => now, draw: () => NEVER, minIntervalMs: 50 });
    loop.request();
    refresh(); // drawn at 16
    loop.request();
    refresh(); // 32: too soon
    refresh(); // 48: too soon
    refresh(); // 64: 48 ms after the last, still too soon
    assert.equal(loop.count, 1);
    refresh(); // 80: its turn
    assert.equal(loop.count, 2);
  });
});

describe('a frame drawn at once', () => {
  it('draws before the next display refresh (a snapshot, a press) and keeps no frame of the display asked for', () => {
    const loop = new FrameLoop({ now: () => now, draw: () => NEVER });
    loop.request();
    loop.drawNow();
    assert.equal(loop.count, 1);
    refresh();
    assert.equal(loop.count, 1, 'the frame asked for before was the one drawn at once');
  });
});

describe('frames asked for at once under a frame cap (a snapshot, a press)', () => {
  /** A loop under a 200 ms cap (`?fps=5`) whose draw records the state it found; the display's clock is the test's. */
  function capped() {
    let state = 0;
    const drawn: number[] = [];
    const loop = new FrameLoop({ now: () => now, frameClock: () => now, draw: () => (drawn.push(state), NEVER), minIntervalMs: 200 });
    return { loop, drawn, set: (s: number) => (state = s) };
  }

  it('N snapshots within one cap interval draw at most one frame, and the last state is drawn', () => {
    const { loop, drawn, set } = capped();
    loop.drawSoon(); // the first: nothing drawn before, so at once
    assert.deepEqual(drawn, [0]);
    for (let s = 1; s <= 10; s++) {
      now += 15; // ten snapshots in 150 ms, within the cap's 200 ms
      set(s);
      loop.drawSoon();
    }
    assert.deepEqual(drawn, [0], 'none drawn within the interval');
    while (now < 1000) refresh();
    assert.deepEqual(drawn, [0, 10], 'one frame when the cap allows, of the last state; none after');
  });

  it('a snapshot after the interval has passed draws at once', () => {
    const { loop, drawn, set } = capped();
    loop.drawSoon();
    now += 250;
    set(1);
    loop.drawSoon();
    assert.deepEqual(drawn, [0, 1]);
  });

  it('without a cap a snapshot draws at once, every time', () => {
    let drawn = 0;
    const loop = new FrameLoop({ now: () => now, frameClock: () => now, draw: () => (drawn++, NEVER) });
    for (let i = 0; i < 5; i++) loop.drawSoon();
    assert.equal(drawn, 5);
  });

  it('a press draws the frame owed before it is hit-tested, and nothing when none is owed', () => {
    const { loop, drawn, set } = capped();
    loop.drawSoon();
    now += 20;
    set(1);
    loop.drawSoon(); // owed, waiting for its turn
    loop.flush();
    assert.deepEqual(drawn, [0, 1], 'the owed frame drawn at the press');
    loop.flush();
    while (now < 1000) refresh();
    assert.deepEqual(drawn, [0, 1], 'nothing owed: nothing more drawn');
  });

  it('a pointerdown draws the owed frame once; a key under the cap waits for its turn', () => {
    const { loop, drawn, set } = capped();
    const target = new EventTarget();
    listenForPresses(loop, () => undefined, target);
    loop.drawSoon();
    now += 20;
    set(1);
    loop.drawSoon();
    target.dispatchEvent(new Event('pointerdown'));
    assert.deepEqual(drawn, [0, 1], 'the owed frame, and no second one for the press itself within the cap');
    now += 20;
    set(2);
    target.dispatchEvent(new Event('keydown'));
    assert.deepEqual(drawn, [0, 1]);
    while (now < 1000) refresh();
    assert.deepEqual(drawn, [0, 1, 2]);
  });

  it('a pointer lifted draws the frame owed first: a snapshot while the finger was down is hit-tested as drawn', () => {
    const { loop, drawn, set } = capped();
    const target = new EventTarget();
    listenForPresses(loop, () => undefined, target);
    loop.drawSoon();
    target.dispatchEvent(new Event('pointerdown'));
    now += 20;
    // A snapshot rebuilds the row under the finger; its frame waits for the cap.
    set(1);
    loop.drawSoon();
    assert.deepEqual(drawn, [0]);
    target.dispatchEvent(new Event('pointerup'));
    assert.deepEqual(drawn, [0, 1], 'drawn before pixi hit-tests the release');
  });
});
