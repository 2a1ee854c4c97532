// Benchmark-only: the disk's own ceiling for durable commits, to read the ledger's figures against.
import Database from 'better-sqlite3';

/**
 * Durable one-row inserts per second into a fresh file, WAL and synchronous=FULL as the ledger
 * runs, but none of the ledger's code: no postings, triggers, projections or hashing.
 */
export function bareCommitsPerSecond(file: string, count: number): number {
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const t0 = performance.now();
    for (let i = 0; i < count; i++) insert.run('x'.repeat(200));
    return (count / (performance.now() - t0)) * 1000;
  } finally {
    db.close();
  }
}
