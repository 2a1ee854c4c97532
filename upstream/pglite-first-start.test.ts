// The first-start mark of an embedded database folder (upstream/pglite-first-start.ts): what a
// start stopped before PGlite opened its new database leaves is removed, PostgreSQL's files only,
// and never from a folder that holds a table.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { beginFirstStart, endFirstStart, FIRST_START_FILE, UnfinishedFirstStartWithData } from './pglite-first-start.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'pglite-first-start-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** A folder as PGlite leaves it part-written: PG_VERSION, initdb's relations (below 16384), a config file. */
function partWritten(name: string, extra: string[] = []): string {
  const dir = path.join(tmp, name);
  mkdirSync(path.join(dir, 'base', '5'), { recursive: true });
  mkdirSync(path.join(dir, 'global'));
  mkdirSync(path.join(dir, 'pg_wal'));
  for (const f of [
    'PG_VERSION',
    'postgresql.conf',
    'base/5/1259',
    'base/5/2619_fsm',
    'global/1262',
    'admin-token',
    'upstream.lock',
    'upstream.lock.json',
    'notes.txt',
    ...extra,
  ])
    writeFileSync(path.join(dir, f), 'x');
  return dir;
}

describe('the first start of an embedded database folder', () => {
  it('a folder without a database is marked; the mark goes once PGlite has opened it; a database made earlier is left alone', () => {
    const dir = path.join(tmp, 'fresh');
    mkdirSync(dir);
    assert.equal(beginFirstStart(dir), 'fresh');
    assert.ok(existsSync(path.join(dir, FIRST_START_FILE)));
    endFirstStart(dir);
    assert.equal(existsSync(path.join(dir, FIRST_START_FILE)), false);
    const made = partWritten('made');
    assert.equal(beginFirstStart(made), 'none');
    assert.equal(existsSync(path.join(made, 'PG_VERSION')), true, 'nothing removed');
    assert.equal(existsSync(path.join(made, FIRST_START_FILE)), false, 'not marked');
  });

  it("a marked folder: PostgreSQL's files removed, the admin token, the lock files and others' files kept, the mark kept", () => {
    const dir = partWritten('stopped', [FIRST_START_FILE]);
    assert.equal(beginFirstStart(dir), 'again');
    assert.deepEqual(readdirSync(dir).sort(), ['admin-token', 'notes.txt', FIRST_START_FILE, 'upstream.lock', 'upstream.lock.json'].sort());
  });

  it('a marked folder that holds a table (a relation numbered 16384 or above) is refused, untouched, naming the folder and the mark', () => {
    for (const table of ['base/5/16384', 'base/5/24576_fsm', 'base/5/16390.1']) {
      const dir = partWritten(`restored-${path.basename(table)}`, [FIRST_START_FILE, table]);
      const before = readdirSync(dir, { recursive: true }).sort();
      assert.throws(
        () => beginFirstStart(dir),
        (e) => e instanceof UnfinishedFirstStartWithData && e.message.includes(dir) && e.message.includes(path.join(dir, FIRST_START_FILE)),
      );
      assert.deepEqual(readdirSync(dir, { recursive: true }).sort(), before, `${table}: not one file removed`);
    }
  });
});
