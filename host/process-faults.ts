import pino, { type Logger } from 'pino';

/** The host's exit status after an exception nothing handled (EX_SOFTWARE): its supervisor restarts it. */
export const UNCAUGHT_EXIT = 70;

/** What the last resort writes with: the host's log, or the stand-in on stderr before it opens (`error`: the faults after the first). */
export type FatalLog = Pick<Logger, 'fatal' | 'error' | 'flush'>;

/** What the last resort does with the faults after the first. */
export interface LastResortOptions {
  /**
   * 'ignored' (the host's): its process is exiting. 'logged': `exit` may leave the process running
   * (Electron's main process past its relaunch policy, on the out-of-service page), and each later
   * fault is logged at error level with its stack and `faults`, its count, nothing else done.
   */
  laterFaults?: 'ignored' | 'logged';
  /**
   * What follows the first fault, said on its fatal line: the first line a technician reads in the
   * log. Default: the host's (it exits for its supervisor); Electron's main process relaunches.
   */
  then?: string;
}

const HOST_EXITS = 'the host exits for its supervisor to start it again';

/**
 * A fault after the first, logged only. A log that throws is not let out of the handler (Node would
 * end the process, exit 7) nor retried: one line on stderr, and if that fails too, nothing.
 */
function logLater(log: () => FatalLog, fault: { err: unknown; kind: string; faults: number }): void {
  try {
    log().error(fault, 'another exception nothing handled after the first: logged only, the process goes on as the first left it');
  } catch (logged) {
    try {
      console.error('another exception nothing handled, and the log failed too', fault, logged);
    } catch {
      // stderr gone as well: nowhere left to write.
    }
  }
}

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
export function exitOnUncaught(
  log: FatalLog | (() => FatalLog),
  exit: (code: number) => void = (code) => process.exit(code),
  { laterFaults = 'ignored', then = HOST_EXITS }: LastResortOptions = {},
): () => void {
  let faults = 0;
  const fatal = (kind: 'uncaughtException' | 'unhandledRejection') => (err: unknown) => {
    faults += 1;
    if (faults > 1) {
      if (laterFaults === 'logged') logLater(typeof log === 'function' ? log : () => log, { err, kind, faults });
      return;
    }
    try {
      const to = typeof log === 'function' ? log() : log;
      to.fatal({ err, kind }, `an exception nothing handled: ${then}`);
      to.flush();
    } catch (logged) {
      console.error(`an exception nothing handled, and the log failed too: ${then}`, err, logged);
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
