import pino, { type Logger } from 'pino';

/** The host's exit status after an exception nothing handled (EX_SOFTWARE): its supervisor restarts it. */
export const UNCAUGHT_EXIT = 70;

/** What the last resort writes with: the host's log, or the stand-in on stderr before it opens. */
export type FatalLog = Pick<Logger, 'fatal' | 'flush'>;

/**
 * The last resort of the host's process: an exception thrown where nothing catches it (a timer, a
 * socket's listener) or a promise rejected that nobody awaits is logged at fatal level with its
 * stack, the log flushed (the host's log file is written synchronously), and the process exits
 * non-zero so its supervisor (Electron's main process, systemd) starts it again. It never goes on:
 * what threw may have left the table half way through a step, and a fresh start rebuilds it from
 * the journal. The parts that can fail in the ordinary way (a full disk) catch their own failures;
 * this is for what they missed. `log` may be a function: the log of the moment, read at the fault
 * (`lastResortFromStart`). Returns the handlers' removal (tests).
 */
export function exitOnUncaught(log: FatalLog | (() => FatalLog), exit: (code: number) => void = (code) => process.exit(code)): () => void {
  let exiting = false;
  const fatal = (kind: 'uncaughtException' | 'unhandledRejection') => (err: unknown) => {
    if (exiting) return;
    exiting = true;
    try {
      const to = typeof log === 'function' ? log() : log;
      to.fatal({ err, kind }, 'an exception nothing handled: the host exits for its supervisor to start it again');
      to.flush();
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

/** The last resort installed before the host starts, and where it writes. */
export interface LastResort {
  /** From here on it writes to `log` (the host's, once it exists: `startHost`'s `onLog`); null: back to stderr (the host's log closed). */
  logTo(log: FatalLog | null): void;
  remove(): void;
}

/**
 * The last resort installed first thing in a host process's entry, before its start: a throw or a
 * rejection nobody handles while the host starts (a device's open failing in the background) ends
 * the process as it would once started, exit 70. Until the host's log opens it writes one JSON
 * line to stderr (the supervisor's journal keeps it), then to host.log from `logTo`.
 */
export function lastResortFromStart(exit?: (code: number) => void): LastResort {
  const onStderr: FatalLog = pino({ base: { app: 'table-host' } }, pino.destination({ dest: 2, sync: true }));
  let current: FatalLog = onStderr;
  const remove = exitOnUncaught(() => current, exit);
  return {
    logTo(log) {
      current = log ?? onStderr;
    },
    remove,
  };
}
