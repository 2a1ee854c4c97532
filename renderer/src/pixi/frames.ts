/**
 * Render on demand. A frame is drawn when something asked for one (a snapshot, a press, a
 * resize) or when the screen said, at its last frame, that it moves again at a time now reached
 * (a card in flight, a countdown's next second). A still screen draws nothing: on a cabinet's
 * GPU, and far more in software WebGL, a frame of an unchanged scene is pure waste.
 */
export interface FrameLoopOptions {
  /** Draws one frame at `now` (the screen's clock) and returns when the next is wanted (`NEVER`: only when asked). */
  draw(): number;
  /** The screen's clock (stepped in tests), against which `draw`'s answer is read. */
  now(): number;
  /** At most one frame per this many ms (`?fps=N` in tests; 0: every display frame). */
  minIntervalMs?: number;
  /** Told of each drawn frame with its animation-frame timestamp (`?trace=1`: the screens bench). */
  drawn?(frameTime: number): void;
  /** The display's clock, the animation frames' timebase, against which the cap is kept (`performance.now`; a test's own). */
  frameClock?(): number;
}

/** No frame is wanted until something changes. */
export { NEVER } from '../anim/wake.js';

export class FrameLoop {
  private raf: number | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastFrame = Number.NEGATIVE_INFINITY;
  /** Frames drawn since the page opened (tests read it). */
  count = 0;

  constructor(private readonly options: FrameLoopOptions) {}

  /** Something changed: a frame at the next display refresh. */
  request(): void {
    if (this.raf !== null) return;
    this.raf = requestAnimationFrame(this.frame);
  }

  /**
   * Something changed that should be on the glass at once (a snapshot, a press): drawn now if the
   * frame cap allows, else coalesced into the next frame it allows, which draws the state of then
   * (the last one: never dropped). Under `?fps=` a host at test timings sends snapshots faster than
   * the cap, and each drawn at once put a software GPU behind (a station drew 6.1 frames a second
   * under a cap of 5 and stopped answering: docs/benchmarks.md). Without a cap, always now.
   */
  drawSoon(): void {
    const min = this.options.minIntervalMs ?? 0;
    if (min > 0 && this.clock() - this.lastFrame < min - 1) this.request();
    else this.drawNow();
  }

  /**
   * A press is about to be hit-tested: the frame owed, if one is, drawn now whatever the cap, as
   * pixi hit-tests with the transforms of the last frame drawn (a button a coalesced snapshot
   * created is hit where the stage has it). Nothing owed: nothing drawn.
   */
  flush(): void {
    if (this.raf !== null) this.drawNow();
  }

  /** Draws a frame now, outside the display's rhythm and the cap (a test stepping its clock, a restored GPU context). */
  drawNow(): void {
    if (this.raf !== null) cancelAnimationFrame(this.raf);
    this.raf = null;
    this.run(this.clock());
  }

  private clock(): number {
    return this.options.frameClock ? this.options.frameClock() : performance.now();
  }

  private readonly frame = (t: number): void => {
    this.raf = null;
    const min = this.options.minIntervalMs ?? 0;
    // Under a frame cap, a frame asked too soon waits for its turn (never dropped).
    if (min > 0 && t - this.lastFrame < min - 1) {
      this.raf = requestAnimationFrame(this.frame);
      return;
    }
    this.run(t);
  };

  private run(t: number): void {
    this.lastFrame = t;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const next = this.options.draw();
    this.count++;
    this.options.drawn?.(t);
    const wait = next - this.options.now();
    if (wait <= 0) this.request();
    else if (Number.isFinite(wait)) this.timer = setTimeout(() => this.request(), wait);
  }
}

/**
 * A press, a key or the wheel may change what a screen shows: its frame asked for at once (after the
 * screen's own handlers, `drawSoon`); and before pixi hit-tests a pointer going down or lifted
 * (capture, on the window, ahead of pixi's listeners on the canvas), a frame still owed is drawn
 * (`flush`): a snapshot coalesced under the cap while the finger was down may have rebuilt the
 * button under it, which is then hit where it is drawn. A pointer going down forgets the button it
 * pressed before (`forgetPress`: ui/button.ts's, passed in, as ui/ builds on pixi/ and not the other way).
 */
export function listenForPresses(frames: FrameLoop, forgetPress: (pointerId: number) => void, target: EventTarget = window): void {
  target.addEventListener(
    'pointerdown',
    (e) => {
      frames.flush();
      forgetPress((e as PointerEvent).pointerId);
    },
    { capture: true, passive: true },
  );
  target.addEventListener('pointerup', () => frames.flush(), { capture: true, passive: true });
  for (const type of ['pointerdown', 'pointerup', 'keydown', 'wheel'] as const) target.addEventListener(type, () => frames.drawSoon(), { passive: true });
}
