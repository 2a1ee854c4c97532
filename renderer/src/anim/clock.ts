/**
 * Where animations read the time. The screens pass the pixi ticker's frame time through a clock
 * so a test can step it frame by frame instead of waiting (and a benchmark can run it flat out).
 */
export interface Clock {
  now(): number;
}

/** The wall clock, in ms (the host's countdowns use the same base). */
export const wallClock: Clock = { now: () => Date.now() };

/** A clock that moves only when told to: for unit tests and deterministic screenshots. */
export class SteppedClock implements Clock {
  constructor(private t = 0) {}
  now(): number {
    return this.t;
  }
  step(ms: number): number {
    this.t += ms;
    return this.t;
  }
}
