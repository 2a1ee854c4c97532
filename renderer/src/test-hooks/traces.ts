import { setCardTrace, setFrameTrace, setJackpotTrace } from '../trace.js';
import type { KioskTestHooks } from './kiosk-hooks.js';

/** With `?trace=1` (benchmarks): the card, jackpot and frame traces are recorded into the hooks as they happen. */
export function installTraces(hooks: KioskTestHooks): void {
  // A benchmark deletes the list when it has what it measures: recording stops with it.
  hooks.cardTrace = [];
  setCardTrace((code) => hooks.cardTrace?.push({ code, t: performance.now() }));
  hooks.jackpotTrace = [];
  setJackpotTrace((pools) => hooks.jackpotTrace?.push({ pools, t: performance.now() }));
  const drawn = { at: new Float64Array(1 << 16), n: 0 };
  hooks.frameTrace = drawn;
  setFrameTrace((t) => {
    if (drawn.n < drawn.at.length) drawn.at[drawn.n++] = t;
  });
}
