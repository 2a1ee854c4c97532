import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import BetterSqlite from 'better-sqlite3';
import { rowsLost } from './rows-lost.js';

describe('rows lost by a copy of a database', () => {
  it('is null for an exact copy, names the table whose rows differ or cannot be read', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rows-lost-'));
    try {
      const whole = path.join(dir, 'whole.sqlite');
      const db = new BetterSqlite(whole);
      db.exec('CREATE TABLE a (x INTEGER); INSERT INTO a VALUES (1), (2); CREATE TABLE b (y TEXT);');
      db.close();
      const copy = path.join(dir, 'copy.sqlite');
      copyFileSync(whole, copy);
      assert.equal(rowsLost(whole, copy), null);
      const edit = new BetterSqlite(copy);
      edit.exec('DELETE FROM a WHERE x = 2');
      edit.close();
      assert.equal(rowsLost(whole, copy), "table a differs from the whole file's");
      const other = path.join(dir, 'other.sqlite');
      new BetterSqlite(other).close();
      assert.match(rowsLost(whole, other) ?? '', /^table a cannot be read/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
