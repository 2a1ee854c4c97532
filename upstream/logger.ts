import pino, { type Logger } from 'pino';

/**
 * The upstream's log: the kiosk's one format (host/logging/log-options.ts, which this layer may
 * not import): JSON lines, `time` as an ISO 8601 instant, `app`, secrets censored. It goes to
 * standard output; under systemd, journald keeps and rotates it.
 */
export function upstreamLogger(level: pino.LevelWithSilent = 'info', destination: pino.DestinationStream = pino.destination(1)): Logger {
  const secret = ['authorization', 'cookie', '"x-etg-signature"', 'key', 'token'];
  return pino(
    {
      level,
      base: { app: 'upstream' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: secret.flatMap((k) => [`req.headers.${k}`, `headers.${k}`, `*.${k}`, k]), censor: '[redacted]' },
    },
    destination,
  );
}
