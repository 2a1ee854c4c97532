// Benchmark-only: the disk's own ceiling for durable commits, to read the ledger's figures against.
import Database from 'better-sqlite3';

/**
 * Durable one-row inserts into a fresh file, one transaction each, WAL and synchronous=FULL as the
 * ledger runs, but none of the ledger's code: no postings, triggers, projections or hashing.
 * Returns the time of each commit in ms and their rate over the whole loop.
 */
export function bareCommits(file: string, count: number): { perSecond: number; times: number[] } {
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const times: number[] = [];
    const t0 = performance.now();
    for (let i = 0; i < count; i++) {
      const t = performance.now();
      insert.run('x'.repeat(200));
      times.push(performance.now() - t);
    }
    return { perSecond: (count / (performance.now() - t0)) * 1000, times };
  } finally {
    db.close();
  }
}

/**
 * The floor under anything that reads the whole journal: every row of `journal` read through
 * SQLite (no parsing, no hashing), in pages as the ledger reads it. Rows per second.
 */
export function bareScanRowsPerSecond(file: string): { rows: number; ms: number; perSecond: number } {
  const db = new Database(file, { readonly: true });
  try {
    const page = db.prepare('SELECT * FROM journal WHERE seq > ? ORDER BY seq LIMIT 1000');
    const t0 = performance.now();
    let after = 0;
    let rows = 0;
    for (;;) {
      const r = page.all(after) as { seq: number }[];
      rows += r.length;
      if (r.length < 1000) break;
      after = r[r.length - 1]?.seq ?? after;
    }
    const ms = performance.now() - t0;
    return { rows, ms, perSecond: (rows / ms) * 1000 };
  } finally {
    db.close();
  }
}

/** Durable one-row inserts per second (see `bareCommits`). */
export function bareCommitsPerSecond(file: string, count: number): number {
  return bareCommits(file, count).perSecond;
}
