import type { Logger } from 'pino';
import type { PowerSaveBlockerLike } from './electron-api.js';

/**
 * Keeps the displays on: a quiet table (no bets for an hour) must not blank its screens, nor let
 * the system sleep. `check()` starts the blocker again if it was lost (it is called when displays
 * change; a blocker ends with nothing to tell of it otherwise).
 */
export function keepDisplayAwake(blocker: PowerSaveBlockerLike, log: Logger): { check(): void; stop(): void } {
  let id = blocker.start('prevent-display-sleep');
  log.info({ blocker: id }, 'display sleep blocked');
  return {
    check() {
      if (blocker.isStarted(id)) return;
      id = blocker.start('prevent-display-sleep');
      log.warn({ blocker: id }, 'display sleep blocker was gone: started again');
    },
    stop() {
      if (blocker.isStarted(id)) blocker.stop(id);
    },
  };
}
