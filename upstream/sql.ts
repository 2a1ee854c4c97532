import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { lockPgliteFolder, type PgliteFolderLock } from './folder-lock.js';
import { beginFirstStart, endFirstStart, holdsTables } from './pglite-first-start.js';
import { createFlushedPglite } from './pglite-flushed.js';
import { thrownSaid } from './thrown-said.js';

/** The few things the service asks of a database, so PostgreSQL (`pg`) and embedded PGlite are interchangeable. */
export interface Sql {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: T[]; rowCount: number }>;
  /** Several statements, no parameters (migrations). */
  exec(text: string): Promise<void>;
}

export interface Db extends Sql {
  readonly kind: 'pg' | 'pglite';
  /** Runs `fn` in one transaction: COMMIT if it resolves, ROLLBACK if it throws. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const INT8 = 20;

/** PostgreSQL through a `pg` pool. int8 comes back as a JS number (sequences and minor units stay below 2^53). */
export function connectPg(connectionString: string, max = 10): Db {
  const pool = new pg.Pool({
    connectionString,
    max,
    types: {
      getTypeParser: ((oid: number, format?: string) => (oid === INT8 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text'))) as never,
    },
  });
  // An idle client's connection can drop (server restart); the pool discards it, the service lives on.
  pool.on('error', () => {});
  const wrap = (c: { query: (t: string, p?: unknown[]) => Promise<pg.QueryResult> }): Sql => ({
    async query<T>(text: string, params?: unknown[]) {
      const r = await c.query(text, params);
      return { rows: r.rows as T[], rowCount: r.rowCount ?? 0 };
    },
    async exec(text: string) {
      await c.query(text);
    },
  });
  return {
    kind: 'pg',
    ...wrap(pool),
    async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      let broken = false;
      try {
        await client.query('BEGIN');
        const out = await fn(wrap(client));
        await client.query('COMMIT');
        return out;
      } catch (e) {
        try {
          await client.query('ROLLBACK');
        } catch {
          broken = true;
        }
        throw e;
      } finally {
        client.release(broken);
      }
    },
    close: () => pool.end(),
  };
}

/**
 * Turns off V8's garbage collection of WebAssembly machine code in this process, before the first
 * PGlite is made. Node 24 (V8 13.6, 24.21.0 included) can free a cached wasm-to-JS import wrapper
 * twice when that collection runs while a wrapper tiers up, and aborts the whole process with
 * `Check failed: jit_page_->allocations_.erase(addr) == 1` in `UnregisterWasmAllocation` (issue 52
 * item 5: once in a CI run, during tests/sync/upstream-ops.test.ts). PGlite builds and frees sixteen
 * wasm modules per instance, which is what feeds that collection. The fix is V8's 9b8ca54d5a, not in
 * any Node 24 release yet (nodejs/node#66366, backport nodejs/node#66376); the flag is the workaround
 * the reports name. V8 reads it each time code becomes dead, so setting it here takes effect. Its cost is
 * memory: wasm code V8 would have reclaimed early (code that tier-up replaced, unused wrappers) is kept
 * until its module is freed; the upstream service opens one instance. docs/toolchain.md, "PGlite and V8's wasm code GC", says when to remove it.
 */
function keepWasmCode(): void {
  setFlagsFromString('--no-wasm-code-gc');
}

/** A PGlite database, and its data directory as a tarball PGlite can open again (`openPglite`'s `from`). */
export interface PgliteDb extends Db {
  dump(): Promise<Blob>;
}

/**
 * PGlite in `dataDir`, or an error naming the folder and what to do: PGlite's own words ("PGlite
 * failed to initialize properly") named neither. A first start stopped before PGlite opened the
 * database it was making is made again (upstream/pglite-first-start.ts).
 */
async function pgliteIn(dataDir: string): Promise<PGlite> {
  const dir = path.resolve(dataDir);
  const first = beginFirstStart(dir);
  if (first === 'again') console.error(`the first start of the upstream's data folder ${dir} was stopped before it finished: its new database is made again`);
  try {
    const db = await createFlushedPglite(dataDir);
    if (first !== 'none') endFirstStart(dir);
    return db;
  } catch (e) {
    throw new Error(`the upstream's embedded database in ${dataDir} cannot be opened (${thrownSaid(e)}): ${damagedFolderAdvice(dir)}`, { cause: e });
  }
}

/**
 * What to do with a folder PGlite cannot open. One holding no table of the upstream's is a first
 * start stopped before it finished by a version before the first-start mark (no backup holds it):
 * "restore it from its backup" alone sent the technician looking for one.
 */
function damagedFolderAdvice(dir: string): string {
  const restore = 'restore the folder from its backup (an empty folder starts a new database, which knows no table and no ticket)';
  let tables: boolean;
  try {
    tables = holdsTables(dir);
  } catch {
    tables = true; // a folder that cannot even be listed is no first start of ours: told to restore
  }
  if (tables) return restore;
  return `it holds no table of the upstream's, so it is a first start stopped before it finished: delete ${dir} and start again (if it ever served, ${restore} instead)`;
}

/**
 * Whose the folder's lock is (upstream/folder-lock.ts): one the caller took before it touched the
 * folder, and releases itself; or the name openPglite takes it under, released by `close()`.
 */
export type FolderLockChoice = { readonly lock: PgliteFolderLock } | { readonly holder: string };

/** The folder's lock for this open: what `close()` releases (nothing, when it is the caller's). */
function folderLockFor(dataDir: string, folder: FolderLockChoice): { release(): void } {
  if (!('lock' in folder)) return lockPgliteFolder(dataDir, folder.holder);
  if (folder.lock.dataDir !== path.resolve(dataDir)) throw new Error(`the lock given is ${folder.lock.dataDir}'s, not ${path.resolve(dataDir)}'s`);
  return { release() {} };
}

/** PGlite in `dataDir` under the folder's lock, taken before PGlite reads or writes anything there. */
async function lockedPgliteIn(dataDir: string, folder: FolderLockChoice): Promise<{ db: PGlite; lock: { release(): void } }> {
  const lock = folderLockFor(dataDir, folder);
  try {
    return { db: await pgliteIn(dataDir), lock };
  } catch (e) {
    lock.release();
    throw e;
  }
}

/**
 * Embedded PGlite (WebAssembly PostgreSQL) in `dataDir`, or in memory without one; in memory, from
 * the data directory `from` (a `dump()`) instead of an empty cluster. The tests' seam: an in-memory
 * cluster runs initdb, most of a second, and a test that wants many migrated databases migrates one
 * and opens the others from its dump. A folder is opened under its lock (one process per folder):
 * held elsewhere, PgliteFolderBusy is thrown before PGlite touches it.
 */
export async function openPglite(dataDir?: string, from?: Blob, folder: FolderLockChoice = { holder: 'the upstream' }): Promise<PgliteDb> {
  keepWasmCode();
  const opened = dataDir ? await lockedPgliteIn(dataDir, folder) : { db: await PGlite.create(from ? { loadDataDir: from } : {}), lock: null };
  const db = opened.db;
  // PGlite runs one statement at a time; serialise transactions so two requests never interleave inside one.
  let queue: Promise<unknown> = Promise.resolve();
  const q = async <T>(text: string, params?: unknown[], via: Pick<PGlite, 'query'> = db) => {
    const r = await via.query<T>(text, params);
    return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
  };
  return {
    kind: 'pglite',
    query: (text, params) => q(text, params),
    exec: async (text) => void (await db.exec(text)),
    transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
      const run = queue.then(() =>
        db.transaction((tx) =>
          fn({
            query: (text, params) => q(text, params, tx),
            exec: async (text) => void (await tx.exec(text)),
          }),
        ),
      );
      queue = run.catch(() => undefined);
      return run;
    },
    close: async () => {
      try {
        await db.close();
      } finally {
        opened.lock?.release();
      }
    },
    dump: () => db.dumpDataDir('none'),
  };
}
