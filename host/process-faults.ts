import type { Logger } from 'pino';

/** The host's exit status after an exception nothing handled (EX_SOFTWARE): its supervisor restarts it. */
export const UNCAUGHT_EXIT = 70;

/**
 * The last resort of the host's process: an exception thrown where nothing catches it (a timer, a
 * socket's listener) or a promise rejected that nobody awaits is logged at fatal level with its
 * stack, the log flushed (the host's log file is written synchronously), and the process exits
 * non-zero so its supervisor (Electron's main process, systemd) starts it again. It never goes on:
 * what threw may have left the table half way through a step, and a fresh start rebuilds it from
 * the journal. The parts that can fail in the ordinary way (a full disk) catch their own failures;
 * this is for what they missed. Returns the handlers' removal (tests).
 */
export function exitOnUncaught(log: Pick<Logger, 'fatal' | 'flush'>, exit: (code: number) => void = (code) => process.exit(code)): () => void {
  let exiting = false;
  const fatal = (kind: 'uncaughtException' | 'unhandledRejection') => (err: unknown) => {
    if (exiting) return;
    exiting = true;
    try {
      log.fatal({ err, kind }, 'an exception nothing handled: the host exits for its supervisor to start it again');
      log.flush();
    } catch (logged) {
      console.error('an exception nothing handled, and the log failed too: the host exits', err, logged);
    } finally {
      exit(UNCAUGHT_EXIT);
    }
  };
  const onException = fatal('uncaughtException');
  const onRejection = fatal('unhandledRejection');
  process.on('uncaughtException', onException);
  process.on('unhandledRejection', onRejection);
  return () => {
    process.off('uncaughtException', onException);
    process.off('unhandledRejection', onRejection);
  };
}
