import path from 'node:path';
import pino, { type Logger } from 'pino';
import { logFormat, type LogMethodHook } from './logging/log-options.js';
import { DEFAULT_ROTATION, RotatingFile, type RotationLimits } from './logging/rotating-file.js';

export { logFormat, REDACT_PATHS, scrubUrlSecrets, type LogMethodHook } from './logging/log-options.js';
export { DEFAULT_ROTATION, RotatingFile, type RotationLimits } from './logging/rotating-file.js';

export interface LoggerOptions {
  level?: pino.Level;
  /** The process writing (`table-host`, or `kiosk-main` for Electron's main process). */
  app?: string;
  rotation?: RotationLimits;
  /** Runs in front of every log call (see logging/log-options.ts). */
  logMethod?: LogMethodHook;
  /** Warnings and errors also go here (stderr by default; null: nowhere else). */
  console?: NodeJS.WritableStream | null;
}

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
  const logger = pino(
    logFormat({ app: o.app ?? 'table-host', level, ...(o.logMethod ? { logMethod: o.logMethod } : {}) }),
    pino.multistream(streams),
  ) as Logger & { logFile: RotatingFile };
  logger.logFile = file;
  reopenOnHangup(file);
  return logger;
}

const hangup = new Set<RotatingFile>();

/** One SIGHUP handler for every log file of the process (a test may create many loggers). */
function reopenOnHangup(file: RotatingFile): void {
  if (hangup.size === 0) process.on('SIGHUP', () => hangup.forEach((f) => f.reopen()));
  hangup.add(file);
}
