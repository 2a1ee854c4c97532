import path from 'node:path';
import pino, { type Logger } from 'pino';
import { CLIENT_BUDGET, ClientLogBudget, type ClientBudgetLimits } from './logging/client-budget.js';
import { logFormat, type LogMethodHook } from './logging/log-options.js';
import { DEFAULT_ROTATION, RotatingFile, type RotationLimits } from './logging/rotating-file.js';

export { logFormat, REDACT_PATHS, scrubUrlSecrets, type LogMethodHook } from './logging/log-options.js';
export { DEFAULT_ROTATION, RotatingFile, type RotationLimits } from './logging/rotating-file.js';
export { CLIENT_BUDGET, type ClientBudgetLimits } from './logging/client-budget.js';

export interface LoggerOptions {
  level?: pino.Level;
  /** The process writing (`table-host`, or `kiosk-main` for Electron's main process). */
  app?: string;
  rotation?: RotationLimits;
  /** Runs in front of every log call (see logging/log-options.ts). */
  logMethod?: LogMethodHook;
  /** Warnings and errors also go here (stderr by default; null: nowhere else). */
  console?: NodeJS.WritableStream | null;
  /** The log budget of each client (lines of a logger bound to `{ client }`); default CLIENT_BUDGET. */
  clientBudget?: Partial<ClientBudgetLimits>;
  /** The clock of the client budget and its summaries (ms; a test's own); default performance.now. */
  clock?: () => number;
}

/** The summary of the lines a client's budget dropped. */
export const DROPPED_LINES = 'log lines dropped over their client budget';

/** The host's log file in a data dir's `logs/`: the host and Electron's main process both write it. */
export const HOST_LOG = 'host.log';

/**
 * Structured JSON logs: everything from `info` up to `<logDir>/host.log` (size-capped, rotated),
 * and warnings and errors also to stderr so an operator watching the console sees faults. SIGHUP
 * reopens the file (for an outside logrotate).
 */
export function createLogger(logDir: string, levelOrOptions: pino.Level | LoggerOptions = 'info'): Logger & { logFile: RotatingFile } {
  const o: LoggerOptions = typeof levelOrOptions === 'string' ? { level: levelOrOptions } : levelOrOptions;
  const level = o.level ?? 'info';
  // Synchronous: a log line about a fault must be on disk before a crash or an exit that follows it.
  const file = new RotatingFile(path.join(logDir, HOST_LOG), o.rotation ?? DEFAULT_ROTATION);
  const streams: pino.StreamEntry[] = [{ level, stream: file }];
  const console = o.console === undefined ? process.stderr : o.console;
  if (console) streams.push({ level: 'warn', stream: console });
  const clock = o.clock ?? (() => performance.now());
  const budget = new ClientLogBudget({ ...CLIENT_BUDGET, ...o.clientBudget }, clock);
  let summary: ReturnType<typeof setTimeout> | null = null;
  let summedAt = clock();
  const sumUp = (): void => {
    if (summary) clearTimeout(summary);
    summary = null;
    summedAt = clock();
    const d = budget.drain();
    if (d.total > 0)
      logger.warn(
        {
          dropped: d.total,
          clients: d.clients,
          ...(d.unlisted > 0 ? { unlisted: d.unlisted } : {}),
          budget: { burst: budget.limits.burst, perMinute: budget.limits.perMinute, total: budget.limits.total },
        },
        DROPPED_LINES,
      );
  };
  const next = o.logMethod;
  // A line of a logger bound to a client (`log.child({ client })`: a connection's address, a
  // screen's view) spends that client's budget, and an address's the budget all addresses share
  // (a view is bound with `known`); over either, the line is dropped and counted, and the
  // drops are summed up in one line every `summaryMs` while they go on (at the next drop once that
  // long has passed, or by a timer when they stop). Other lines pass.
  const logMethod: LogMethodHook = function (args, method, level) {
    const bound = this.bindings();
    const client: unknown = bound.client;
    if (typeof client === 'string' && !budget.admit(client, messageOf(args), bound.known === true)) {
      if (clock() - summedAt >= budget.limits.summaryMs) sumUp();
      else summary ??= setTimeout(sumUp, budget.limits.summaryMs).unref();
      return;
    }
    if (next) return next.call(this, args, method, level);
    return method.apply(this, args);
  };
  const logger = pino(logFormat({ app: o.app ?? 'table-host', level, logMethod }), pino.multistream(streams)) as Logger & { logFile: RotatingFile };
  logger.logFile = file;
  reopenOnHangup(file);
  return logger;
}

const hangup = new Set<RotatingFile>();
let hangupHandled = false;

/**
 * Closes the log file of a logger `createLogger` made, the last thing a host does at its stop: no
 * descriptor is left on `host.log`, and SIGHUP no longer reopens it. The logger writes nowhere after.
 */
export function closeLogFile(file: RotatingFile): Promise<void> {
  hangup.delete(file);
  return file.close();
}

/** One SIGHUP handler for every log file of the process (a test may create many loggers). */
function reopenOnHangup(file: RotatingFile): void {
  // Once per process, not per first file: a host started and stopped again empties the set.
  if (!hangupHandled) process.on('SIGHUP', () => hangup.forEach((f) => f.reopen()));
  hangupHandled = true;
  hangup.add(file);
}

/** A log call's message: pino takes `(object, message, …)` or `(message, …)`. */
function messageOf(args: readonly unknown[]): string {
  const [first, second] = args;
  if (typeof first === 'string') return first;
  return typeof second === 'string' ? second : '';
}
