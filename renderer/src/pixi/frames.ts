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

  /** Draws a frame now, outside the display's rhythm (a snapshot, a press, a test stepping its clock). */
  drawNow(): void {
    if (this.raf !== null) cancelAnimationFrame(this.raf);
    this.raf = null;
    this.run(performance.now());
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
