// The upstream's embedded database (PGlite in `--data-dir`) is the floor's validation authority on
// a small floor: a ticket it answered "redeemed" must still be redeemed after a power cut. PGlite
// 0.5 starts PostgreSQL with `-F` (fsync off), its WAL is flushed with fdatasync, which its
// WebAssembly runtime answers without doing anything, and its Node file system has no fsync at
// all: no commit reached the disk before its answer, only the kernel's cache (a kill loses
// nothing; a power cut loses the last answers, and with fsync off may leave the cluster damaged).
import assert from 'node:assert/strict';
import fs, { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it, mock } from 'node:test';
import { openPglite } from './sql.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'pglite-flush-'));
after(() => rmSync(root, { recursive: true, force: true }));

describe("the upstream's embedded database in a folder", () => {
  it('flushes every commit to the disk before it answers', async () => {
    const db = await openPglite(path.join(root, 'd'));
    try {
      assert.deepEqual((await db.query<{ fsync: string }>('SHOW fsync')).rows, [{ fsync: 'on' }]);
      await db.exec('CREATE TABLE t (a int)');
      const fsync = mock.method(fs, 'fsyncSync');
      try {
        for (let i = 0; i < 5; i++) await db.transaction((tx) => tx.query('INSERT INTO t VALUES ($1)', [i]));
        assert.ok(fsync.mock.callCount() >= 5, `${fsync.mock.callCount()} flushes for 5 commits`);
      } finally {
        fsync.mock.restore();
      }
    } finally {
      await db.close();
    }
  });
});
