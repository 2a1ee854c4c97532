// Test-only: the upstream's two databases, the embedded PGlite (the default) and PostgreSQL
// (production, `--pg`), for a test that runs the same body on both so that an SQL one of them reads
// otherwise fails the suite. PostgreSQL is a throwaway cluster (upstream/local-cluster.ts: initdb in
// a temporary folder); missing, it is a failure, not a skip. A file runs one describe per database,
// so it starts one cluster, in its PostgreSQL describe's `before`, removed by `close`.
import { connectPg, migrateUpstream, openPglite, startLocalCluster, type Db } from '../../upstream/index.js';

export const DATABASES = ['pglite', 'postgresql'] as const;
export type Database = (typeof DATABASES)[number];

export interface OpenDatabase {
  db: Db;
  /** Closes the connection, and stops and removes the PostgreSQL cluster. */
  close(): Promise<void>;
}

/**
 * The data directory of the process's first migrated PGlite, dumped before it was handed out: each
 * later one opens from it (an empty in-memory cluster runs initdb, most of a second, the better part
 * of a back office kit's set-up), then migrates, which finds nothing left to do.
 */
let migrated: Promise<Blob> | undefined;

async function openMigratedPglite(): Promise<Db> {
  if (migrated) {
    const db = await openPglite(undefined, await migrated);
    await migrateUpstream(db);
    return db;
  }
  const db = await openPglite();
  await migrateUpstream(db);
  migrated ??= db.dump();
  await migrated;
  return db;
}

/** A fresh, migrated upstream database of this kind. */
export async function openDatabase(kind: Database): Promise<OpenDatabase> {
  if (kind === 'pglite') {
    const db = await openMigratedPglite();
    return { db, close: () => db.close() };
  }
  const cluster = await startLocalCluster();
  let db: Db | undefined;
  try {
    db = connectPg(cluster.url);
    await migrateUpstream(db);
  } catch (e) {
    await db?.close();
    cluster.destroy();
    throw e;
  }
  const opened = db;
  return {
    db: opened,
    async close() {
      try {
        await opened.close();
      } finally {
        cluster.destroy();
      }
    },
  };
}
