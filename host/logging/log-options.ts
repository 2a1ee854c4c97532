import pino from 'pino';

/**
 * The one log format of the kiosk's host, its Electron main process and (by the same rules,
 * written again in upstream/logger.ts, which may not import this) the upstream service: JSON lines,
 * `time` as an ISO 8601 instant in UTC, `app` naming the process, secrets never written.
 */

/** Keys whose value is a secret, at any depth of a log object. */
const SECRET_KEYS = new Set([
  'token',
  'tokens',
  'simToken',
  'pin',
  'newPin',
  'oldPin',
  'secret',
  'password',
  'authorization',
  'cookie',
  'x-sim-token',
  'x-etg-signature',
]);

/** The same as pino redact paths (its fast path for the usual shapes; `*` is one level). */
export const REDACT_PATHS = [
  ...[...SECRET_KEYS].filter((k) => !k.includes('-')),
  'headers.authorization',
  'headers.cookie',
  'headers["x-sim-token"]',
  'headers["x-etg-signature"]',
  'credentials.key',
].flatMap((p) => [p, `*.${p}`]);

export const REDACTED = '[redacted]';

/** A query parameter that carries a secret: the screens' launch token, service exports' `t`, a PIN. */
const SECRET_PARAM = /([?&](?:token|t|pin|key|access_token)=)[^&#\s"']*/gi;

/** The text with the values of secret query parameters replaced: `/table?token=abc` → `/table?token=[redacted]`. */
export function scrubUrlSecrets(text: string): string {
  return text.replace(SECRET_PARAM, `$1${REDACTED}`);
}

/**
 * Every string inside a log object scrubbed and every secret key censored, to a bounded depth
 * (log objects are small and plain): pino's redact paths cannot say "at any depth" (a token
 * inside an array of screens).
 */
function scrubDeep(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return value.includes('=') ? scrubUrlSecrets(value) : value;
  if (depth <= 0 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => scrubDeep(v, depth - 1));
  if (value instanceof Error) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEYS.has(k) && v !== undefined ? REDACTED : scrubDeep(v, depth - 1);
  return out;
}

/** A hook in front of every log call (issue 20's sampling of repeated refusals wraps the logger here). */
export type LogMethodHook = NonNullable<NonNullable<pino.LoggerOptions['hooks']>['logMethod']>;

export interface LogFormatOptions {
  /** The process: `table-host`, `kiosk-main`. */
  app: string;
  level?: pino.LevelWithSilent;
  /** Runs after the secrets are scrubbed from the message (e.g. to sample repeated lines). */
  logMethod?: LogMethodHook;
}

/** pino options of the one format: ISO time, `app`, redaction of secret fields and of secret URL parameters. */
export function logFormat(o: LogFormatOptions): pino.LoggerOptions {
  const next = o.logMethod;
  return {
    level: o.level ?? 'info',
    base: { app: o.app },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    formatters: { log: (object) => scrubDeep(object, 6) as Record<string, unknown> },
    hooks: {
      logMethod(args, method, level) {
        const scrubbed = args.map((a) => (typeof a === 'string' ? scrubUrlSecrets(a) : a)) as typeof args;
        if (next) return next.call(this, scrubbed, method, level);
        return method.apply(this, scrubbed);
      },
    },
  };
}
