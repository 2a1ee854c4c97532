// Preloaded into the table host by bench/host-memory.ts (`node --import`; here because only ledger/
// touches SQLite's package): keeps every better-sqlite3 connection the host opens in
// `globalThis.__benchSqlite`, so the probe can read each one's cache and file figures over the
// inspector, and with HOST_MEM_CACHE_KIB=N sets each connection's page cache to N KiB
// (`PRAGMA cache_size = -N`, run before the connection's first statement; a later `cache_size` of
// the code's own wins) to weigh SQLite's cache in the resident set. An analysis only: the kiosk
// never loads this.
import { createRequire } from 'node:module';
import process from 'node:process';

const require = createRequire(import.meta.url);
const Original = require('better-sqlite3');
const cacheKib = Number(process.env.HOST_MEM_CACHE_KIB ?? 0);
/** @type {{ file: string, db: import('better-sqlite3').Database }[]} */
const opened = [];
globalThis.__benchSqlite = opened;

// ESM's `import Database from 'better-sqlite3'` takes the module's exports as first loaded, so the
// constructor cannot be swapped: a connection is caught at its first `pragma` or `prepare` instead
// (every connection the host opens runs one of them first).
const seen = new WeakSet();
for (const method of ['pragma', 'prepare', 'exec']) {
  const original = Original.prototype[method];
  Original.prototype[method] = function (...args) {
    if (!seen.has(this)) {
      seen.add(this);
      opened.push({ file: this.name, db: this });
      if (cacheKib > 0) this.exec(`PRAGMA cache_size = -${cacheKib}`);
    }
    return original.apply(this, args);
  };
}

/**
 * Each connection's cache and file figures, for the probe (bench/host-memory.ts) to read over the
 * inspector; a read that throws says why instead of failing the probe.
 */
globalThis.__benchSqliteFigures = () =>
  opened.map((c) => {
    if (!c.db.open) return { file: c.file, cacheSize: NaN, pages: 0, pageSize: 0, closed: true };
    try {
      return {
        file: c.file,
        cacheSize: c.db.pragma('cache_size', { simple: true }),
        pages: c.db.pragma('page_count', { simple: true }),
        pageSize: c.db.pragma('page_size', { simple: true }),
      };
    } catch (e) {
      return { file: c.file, cacheSize: NaN, pages: 0, pageSize: 0, error: String(e) };
    }
  });
