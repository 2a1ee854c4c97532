import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { setImmediate } from 'node:timers/promises';
import { createSecureContext } from 'node:tls';
import path from 'node:path';
import {
  AdminTokenError,
  backofficeHosts,
  checkTokens,
  DEFAULT_SKEW_MARGIN_SECONDS,
  startUpstream,
  upstreamLogger,
  type AdminTokens,
  type PgliteFolderLock,
} from '../../upstream/index.js';
import { dbChoice, DB_OPTIONS, defineCommand, lockToolFolder, options, UsageError } from './common.js';
import { dataDirAdminToken, type DataDirToken } from './first-run-token.js';

/**
 * The back office's built page (docs/backoffice.md): dist/backoffice beside this program's bin/,
 * which is the repository's (`npm run build:backoffice`) and the upstream's folder's alike
 * (deploy/build.ts stages it there).
 */
export function defaultBackofficeDir(): string {
  return path.resolve(path.dirname(process.argv[1] ?? '.'), '..', 'dist', 'backoffice');
}

export const command = defineCommand({
  name: 'upstream serve',
  summary:
    'The upstream service. Serve behind a TLS-terminating proxy (or on loopback), or with\n--tls-cert/--tls-key: kiosks accept https:// only, except loopback.',
  usage:
    'usage: etg upstream [serve] [--pg postgres://… | --data-dir DIR] --admin-token-file F [--query-token-file F] [--metrics-token-file F] [--listen HOST:PORT] [--trust-proxy ADDR,…] [--backoffice-host NAME,…] [--tls-cert PEM --tls-key PEM] [--transfer-open-after SECONDS] [--transfer-clock-skew SECONDS]',
  options: {
    ...DB_OPTIONS,
    listen: { type: 'string', value: 'HOST:PORT', help: 'where to listen', default: '127.0.0.1:8787' },
    'admin-token-file': {
      type: 'string',
      value: 'F',
      help: 'bearer token for enrolment, key rotation and queries (or env UPSTREAM_ADMIN_TOKEN),\nat least 24 characters; with --data-dir and none given, DIR/admin-token (made on first run)',
    },
    'query-token-file': { type: 'string', value: 'F', help: 'read-only bearer token for the query routes (or env UPSTREAM_QUERY_TOKEN)' },
    'metrics-token-file': {
      type: 'string',
      value: 'F',
      help: 'bearer token for /metrics (or env UPSTREAM_METRICS_TOKEN); without one, /metrics\ntakes the query or admin token',
    },
    'trust-proxy': {
      type: 'string',
      value: 'ADDR,…',
      help: "believe X-Forwarded-For from these proxy addresses/CIDRs (default: none;\nthe rate limits then count the proxy's address)",
    },
    'backoffice-host': {
      type: 'string',
      value: 'NAME,…',
      help: "the host names the back office is opened under (besides --listen's, localhost and\nany address); a page under another name is refused (421: DNS rebinding)",
    },
    'backoffice-dir': {
      type: 'string',
      value: 'DIR',
      help: "the back office's built page, served at /backoffice/ (docs/backoffice.md)",
      default: defaultBackofficeDir(),
    },
    'tls-cert': { type: 'string', value: 'PEM', help: 'serve HTTPS with this certificate (chain), with --tls-key' },
    'tls-key': { type: 'string', value: 'PEM', help: 'the private key of --tls-cert' },
    'transfer-open-after': {
      type: 'string',
      value: 'SECONDS',
      help: "reconcile the tables' transfers every minute; alarm on one open longer than this\n(default 300) and on any disagreement between two tables' ledgers",
      default: '300',
    },
    'transfer-clock-skew': {
      type: 'string',
      value: 'SECONDS',
      help: "how far two tables' clocks may differ: a transfer seen at one end only\nis an alarm once the other end has synced entries this long after it (or after\n--transfer-open-after); until then its sync may be behind",
      default: '60',
    },
  },
});

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * The token in the file given by `option`, or the environment's when none is given. A file given
 * that is empty or cannot be read is refused: read as none, an empty admin file started the
 * service on the token its data folder keeps, and an empty query or metrics file switched that
 * token off, each without a word.
 */
function secret(option: string, file: unknown, env: string | undefined): string | undefined {
  if (file === undefined || file === false) return env;
  let text: string;
  try {
    text = readFileSync(String(file), 'utf8').trim();
  } catch (e) {
    throw new UsageError(`--${option} ${String(file)} cannot be read (${e instanceof Error ? e.message : String(e)})\n${command.usage}`, { cause: e });
  }
  if (text === '') throw new UsageError(`--${option} ${String(file)} is empty: it holds the token\n${command.usage}`);
  return text;
}

/**
 * The certificate and key files, read and tried together before anything starts, or refused naming
 * them: a file that is not PEM, or a key that is not the certificate's, said only OpenSSL's words
 * ("error:0480006C:PEM routines::no start line") once the database was open.
 */
function tlsPair(certFile: string, keyFile: string): { cert: Buffer; key: Buffer } {
  const read = (option: string, file: string): Buffer => {
    try {
      return readFileSync(file);
    } catch (e) {
      throw new UsageError(`--${option} ${file} cannot be read (${e instanceof Error ? e.message : String(e)})\n${command.usage}`, { cause: e });
    }
  };
  const pair = { cert: read('tls-cert', certFile), key: read('tls-key', keyFile) };
  try {
    createSecureContext(pair);
  } catch (e) {
    throw new UsageError(
      `--tls-cert ${certFile} and --tls-key ${keyFile} are not a certificate and its private key in PEM (${e instanceof Error ? e.message : String(e)})\n${command.usage}`,
      { cause: e },
    );
  }
  return pair;
}

/**
 * The names the back office answers to (upstream/backoffice/hosts.ts): those given, and the
 * listening host when it is a name; checked here, so a list that is no list of names is a usage
 * error before the database is opened.
 */
function backofficeNames(given: unknown, listen: string): string[] {
  const names = typeof given === 'string' ? given.split(',').map((n) => n.trim()) : [];
  if (isIP(listen) === 0) names.push(listen);
  try {
    backofficeHosts(names);
  } catch (e) {
    throw new UsageError(`${e instanceof Error ? e.message : String(e)}\n${command.usage}`, { cause: e });
  }
  return names;
}

export async function run(argv: string[]): Promise<number> {
  const v = options(command, argv);
  // No silent in-memory default: an upstream that forgets on restart is worse than none.
  const db = dbChoice(v, command.usage);
  // The folder's lock first, before its admin token is read or made: one process per PGlite folder.
  const folderLock = lockToolFolder(db, 'etg upstream serve');
  try {
    return await serveUnder(v, db, folderLock);
  } finally {
    folderLock?.release();
  }
}

type Values = ReturnType<typeof options<typeof command.options>>;

/** The service on the database chosen, the folder (with --data-dir) held by this process. */
async function serveUnder(v: Values, db: { pg?: string; dataDir?: string }, folderLock: PgliteFolderLock | undefined): Promise<number> {
  const m = /^(.+):(\d{1,5})$/.exec(String(v.listen ?? '127.0.0.1:8787'));
  const port = Number(m?.[2]);
  if (!m || port > 65535) throw new UsageError(`--listen must be HOST:PORT\n${command.usage}`);
  const host = (m[1] ?? '').replace(/^\[(.*)\]$/, '$1');
  const given = secret('admin-token-file', v['admin-token-file'], process.env.UPSTREAM_ADMIN_TOKEN);
  // An embedded upstream keeps its own token in its data folder when none is given (first run).
  const kept: DataDirToken | undefined = !given && db.dataDir ? dataDirAdminToken(db.dataDir) : undefined;
  const admin = given || kept?.token;
  const query = secret('query-token-file', v['query-token-file'], process.env.UPSTREAM_QUERY_TOKEN);
  const metricsToken = secret('metrics-token-file', v['metrics-token-file'], process.env.UPSTREAM_METRICS_TOKEN);
  // No anonymous administration, not even from loopback (a proxy on this host is loopback too).
  if (!admin)
    throw new UsageError(`an admin token is required: --admin-token-file F or UPSTREAM_ADMIN_TOKEN (or --data-dir, which keeps one)\n${command.usage}`);
  let tokens: AdminTokens;
  try {
    tokens = checkTokens({ admin, ...(query ? { query } : {}), ...(metricsToken ? { metrics: metricsToken } : {}) });
  } catch (e) {
    if (e instanceof AdminTokenError) throw new UsageError(e.message);
    throw e;
  }
  const trustProxy = v['trust-proxy']
    ? String(v['trust-proxy'])
        .split(',')
        .map((a) => a.trim())
        .filter(Boolean)
    : false;
  const hosts = backofficeNames(v['backoffice-host'], host);
  if (Boolean(v['tls-cert']) !== Boolean(v['tls-key'])) throw new UsageError(`--tls-cert and --tls-key go together\n${command.usage}`);
  const tls = v['tls-cert'] ? tlsPair(String(v['tls-cert']), String(v['tls-key'])) : undefined;
  const openAfterSeconds = Number(v['transfer-open-after'] ?? '300');
  if (!Number.isFinite(openAfterSeconds) || openAfterSeconds <= 0) throw new UsageError(`--transfer-open-after must be a number of seconds\n${command.usage}`);
  const skewMarginSeconds = Number(v['transfer-clock-skew'] ?? String(DEFAULT_SKEW_MARGIN_SECONDS));
  if (!Number.isFinite(skewMarginSeconds) || skewMarginSeconds < 0) throw new UsageError(`--transfer-clock-skew must be a number of seconds\n${command.usage}`);
  const wanted = process.env.LOG_LEVEL ?? 'info';
  const level = LOG_LEVELS.find((l) => l === wanted);
  if (!level) throw new UsageError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not ${wanted}`);
  // Listened for before the database is opened: a stop during the start (systemd's, while PGlite
  // makes a fresh folder's database) lets the start finish, then closes; it no longer ended the
  // process mid-write.
  const stop = stopSignal();
  const running = await startUpstream({
    ...db,
    ...(folderLock ? { folderLock } : {}),
    host,
    port,
    logger: upstreamLogger(level),
    tokens,
    trustProxy,
    ...(tls ? { tls } : {}),
    transfers: { openAfterSeconds, skewMarginSeconds, everySeconds: 60 },
    backoffice: { pageDir: String(v['backoffice-dir'] ?? defaultBackofficeDir()), hosts },
  });
  // PGlite's initdb does not let the event loop poll: a signal sent during it is seen once the loop
  // has polled (a turn of it, from the check phase to the next).
  await setImmediate();
  await setImmediate();
  const early = stop.received();
  if (early) {
    console.error(`upstream serve: ${early} during the start: stopped once started, its database closed and its folder released`);
    await running.close();
    return 0;
  }
  console.log(
    JSON.stringify({
      listening: running.url,
      database: running.db.kind,
      health: `${running.url}/healthz`,
      ...(kept ? { adminTokenFile: kept.file, adminTokenMade: kept.made } : {}),
    }),
  );
  if (kept) {
    console.error(
      `${kept.made ? 'made an admin token' : 'admin token'}: ${kept.file} (owner-only). Use it as\n  curl -H "Authorization: Bearer $(cat ${kept.file})" ${running.url}/v1/terminals\n(the admin and query routes: docs/upstream.md); later starts use the same file`,
    );
  }
  await stop.signal;
  await running.close();
  return 0;
}

/**
 * The first SIGINT or SIGTERM: `signal` resolves with it, `received()` says whether it came. Its
 * listeners go with it, so that a second signal ends the process at once (Node's default).
 */
function stopSignal(): { signal: Promise<NodeJS.Signals>; received(): NodeJS.Signals | undefined } {
  let got: NodeJS.Signals | undefined;
  const signal = new Promise<NodeJS.Signals>((resolve) => {
    const on = (s: NodeJS.Signals) => {
      got = s;
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      resolve(s);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
  return { signal, received: () => got };
}
