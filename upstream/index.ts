// The upstream service: Fastify + PostgreSQL (or embedded PGlite). See docs/upstream.md.
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { migrateUpstream } from './migrations.js';
import { buildServer, type RateLimits } from './server.js';
import type { AdminTokens } from './admin-auth.js';
import { connectPg, openPglite, type Db } from './sql.js';
import type { PgliteFolderLock } from './folder-lock.js';
import { TransferReconciler, type TransferWatch } from './transfers.js';
import { oneAtATime } from './one-at-a-time.js';
import type { BackofficeServerOptions } from './backoffice/index.js';
import type { ServerOptions } from './server.js';

export { buildServer, API_VERSION, DEFAULT_LIMITS, type RateLimits, type ServerOptions } from './server.js';
export { AdminTokenError, checkTokens, MIN_TOKEN_LENGTH, type AdminTokens, type Role } from './admin-auth.js';
export { upstreamLogger } from './logger.js';
export { UpstreamMetrics, METER_COUNTERS } from './metrics.js';
export { connectPg, openPglite, type Db, type FolderLockChoice, type Sql } from './sql.js';
export { lockPgliteFolder, PgliteFolderBusy, UPSTREAM_HOLDER_FILE, UPSTREAM_LOCK_FILE, type FolderHolder, type PgliteFolderLock } from './folder-lock.js';
export { migrateUpstream, UPSTREAM_LATEST, UPSTREAM_MIGRATIONS, UpstreamSchemaError } from './migrations.js';
export { enrolTerminal, EnrolError, revokeTerminal } from './auth.js';
export { ingest, type IngestBatch, type IngestResult } from './ingest.js';
export { receiptStatement, ReceiptSigner, type Receipt } from './receipts.js';
export { verifyChain, findGaps, listTerminals, meters, rounds, entries, alarms } from './queries.js';
export {
  putUser,
  disableUser,
  listUsers,
  UserError,
  BackofficeRole,
  MIN_PASSWORD_LENGTH,
  SCRYPT,
  backofficeHosts,
  type BackofficeUser,
} from './backoffice/index.js';
export { startLocalCluster, findPgBin, type LocalCluster } from './local-cluster.js';
export { freePort } from './free-port.js';
export {
  DEFAULT_SKEW_MARGIN_SECONDS,
  reconcileTransfers,
  TRANSFER_ALARM_KINDS,
  type PendingTransfer,
  type TransferReport,
  type TransferWatch,
} from './transfers.js';

/** Where the upstream's database is, and for a PGlite folder whose its lock is (upstream/folder-lock.ts). */
export interface UpstreamDbChoice {
  pg?: string;
  dataDir?: string;
  /** The folder's lock, taken by the caller before it touched the folder (the caller releases it). */
  folderLock?: PgliteFolderLock;
  /** Otherwise the lock is taken on opening, naming this in a refusal ("etg upstream enroll"), and released on close. */
  holder?: string;
}

/**
 * `--pg URL` → PostgreSQL (no folder, no lock); otherwise PGlite in `dataDir` under the folder's
 * lock (PgliteFolderBusy when another process holds it), or in memory when neither is given.
 */
export async function openUpstreamDb(options: UpstreamDbChoice): Promise<Db> {
  const folder = options.folderLock ? { lock: options.folderLock } : { holder: options.holder ?? 'the upstream' };
  const db = options.pg ? connectPg(options.pg) : await openPglite(options.dataDir, undefined, folder);
  try {
    await migrateUpstream(db);
  } catch (e) {
    await db.close();
    throw e;
  }
  return db;
}

/**
 * How long close() waits for a transfers' reconciliation already running to end before it closes
 * the server and the database anyway (a run held by a database that no longer answers).
 */
export const RECONCILING_CLOSE_WAIT_MS = 5_000;

export interface RunningUpstream {
  app: FastifyInstance;
  db: Db;
  url: string;
  close(): Promise<void>;
}

export async function startUpstream(options: {
  pg?: string;
  dataDir?: string;
  /** The folder's lock, taken before anything touched the folder (UpstreamDbChoice). */
  folderLock?: PgliteFolderLock;
  holder?: string;
  host?: string;
  port?: number;
  tokens?: AdminTokens;
  trustProxy?: false | string[];
  limits?: Partial<RateLimits>;
  /** Serve HTTPS with this key and certificate (PEM); without them, plain HTTP (loopback, or behind a TLS proxy). */
  tls?: { key: string | Buffer; cert: string | Buffer };
  logger?: Logger | boolean;
  db?: Db;
  /**
   * Reconcile the terminals' transfers every `everySeconds` and alarm on any open longer than
   * `openAfterSeconds` and on any disagreement, a one-sided one once its lagging end is no longer
   * expected (issue 34; upstream/transfers.ts). None: not run.
   */
  transfers?: TransferWatch & { everySeconds: number };
  /** The back office (docs/backoffice.md): on unless `false`. */
  backoffice?: BackofficeServerOptions | false;
  /** Each terminal's entries and bytes a minute (upstream/ingest-budget.ts). */
  ingestBudget?: ServerOptions['ingestBudget'];
}): Promise<RunningUpstream> {
  const db = options.db ?? (await openUpstreamDb(options));
  const app = await buildServer({
    db,
    ...(options.tokens ? { tokens: options.tokens } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
    trustProxy: options.trustProxy ?? false,
    ...(options.tls ? { tls: options.tls } : {}),
    logger: options.logger ?? false,
    ...(options.backoffice !== undefined ? { backoffice: options.backoffice } : {}),
    ...(options.ingestBudget ? { ingestBudget: options.ingestBudget } : {}),
  });
  const watch = options.transfers;
  const reconciling = watch ? reconcilingOf(db, app, watch) : null;
  const host = options.host ?? '127.0.0.1';
  try {
    await app.listen({ host, port: options.port ?? 0 });
  } catch (e) {
    // Refused (the port taken): the server and the database it opened let go, or the process stays
    // alive holding the folder (tests/sync/upstream-start-refused.test.ts).
    await app.close().catch(() => undefined);
    if (!options.db) await db.close();
    throw e;
  }
  // Once it listens: set before, the timer of a refused start ticked on against a database left open.
  const timer = watch && reconciling ? setInterval(() => reconciling.tick(), watch.everySeconds * 1000) : null;
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : (options.port ?? 0);
  return {
    app,
    db,
    url: `${options.tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`,
    async close() {
      if (timer) clearInterval(timer);
      // A run going on: its next query met the database closed under it, and its failure was logged
      // as the service stopped (tests/sync/upstream-close-reconciling.test.ts).
      if (reconciling) await atMost(reconciling.idle(), RECONCILING_CLOSE_WAIT_MS);
      // The database closed whatever the server's close did (an onClose hook that throws): left
      // open, it held the folder, and the next start in this process or after was refused busy.
      try {
        await app.close();
      } finally {
        if (!options.db) await db.close();
      }
    },
  };
}

/** Resolves when `p` settles or `ms` have passed, whichever comes first; leaves no timer behind. */
async function atMost(p: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([p, new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** The transfers' reconciliation, one run at a time, its alarms and failures in the server's log. */
function reconcilingOf(db: Db, app: FastifyInstance, watch: TransferWatch) {
  const reconciler = new TransferReconciler();
  return oneAtATime(
    () =>
      reconciler
        .run(db, watch)
        .then((r) =>
          r.raised > 0
            ? app.log.warn(
                { raised: r.raised, open: r.open.length, disagreements: r.disagreements.length, pending: r.pending.length },
                'transfer alarms raised',
              )
            : undefined,
        ),
    (err: unknown) => app.log.error({ err }, 'transfer reconciliation failed'),
  );
}
