import type { Logger } from 'pino';
import type { Handpays } from '../floor/handpays.js';
import type { Timers } from '../table/timers.js';

/**
 * Autoplay's floor attendant: a simulated player's cash-out locks its station until a handpay is
 * confirmed, so in autoplay (and the soak) an attendant pays each pending handpay after a short
 * while, with a second person where the amount needs one. Journalled like any handpay, under
 * names that say they were simulated; never started outside `--autoplay`.
 */
export function startSimAttendant(handpays: Handpays, timers: Timers, log: Logger, everyMs = 500): () => void {
  let handle: unknown = null;
  let stopped = false;
  const round = () => {
    for (const p of handpays.pending()) {
      const r = handpays.confirm(p.requestTxId, 'autoplay-attendant', p.needsWitness ? 'autoplay-witness' : undefined);
      if (!r.ok) log.warn({ requestTxId: p.requestTxId, reason: r.reason }, 'simulated attendant could not pay a handpay');
    }
    if (!stopped) handle = timers.setTimeout(round, everyMs);
  };
  handle = timers.setTimeout(round, everyMs);
  return () => {
    stopped = true;
    if (handle !== null) timers.clearTimeout(handle);
  };
}
