import path from 'node:path';
import pino, { type Logger } from 'pino';

/**
 * Structured JSON logs: everything from `info` up to `<logDir>/host.log`, and warnings and
 * errors also to stderr so an operator watching the console sees faults.
 */
export function createLogger(logDir: string, level: pino.Level = 'info'): Logger {
  // Synchronous: a log line about a fault must be on disk before a crash or an exit that follows it.
  const file = pino.destination({ dest: path.join(logDir, 'host.log'), mkdir: true, sync: true });
  return pino(
    { level, base: { app: 'table-host' }, timestamp: pino.stdTimeFunctions.isoTime },
    pino.multistream([
      { level, stream: file },
      { level: 'warn', stream: process.stderr },
    ]),
  );
}
