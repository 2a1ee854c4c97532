import type { Timers } from '../table/timers.js';

/** Timers that fire only when the test advances the clock. */
export function manualTimers() {
  let now = 1_000_000;
  const due: { at: number; fn: () => void; id: number }[] = [];
  let ids = 0;
  const timers: Timers = {
    now: () => now,
    setTimeout: (fn, ms) => {
      const id = ++ids;
      due.push({ at: now + ms, fn, id });
      return id;
    },
    clearTimeout: (h) => {
      const i = due.findIndex((d) => d.id === h);
      if (i >= 0) due.splice(i, 1);
    },
  };
  const advance = (ms: number) => {
    now += ms;
    for (let d = due.sort((a, b) => a.at - b.at)[0]; d && d.at <= now; d = due.sort((a, b) => a.at - b.at)[0]) {
      due.splice(due.indexOf(d), 1);
      d.fn();
    }
  };
  /** Runs the clock to the end of the current countdown. */
  const runOut = (endsAt: number | null) => {
    if (endsAt === null) throw new Error('no countdown is running');
    advance(endsAt - now);
  };
  /** How many timers are set and not yet fired or cleared (a timer an owner forgot to stop shows here). */
  const pending = () => due.length;
  return { timers, advance, runOut, now: () => now, pending };
}
