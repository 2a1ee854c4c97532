// The one folder lock (witness/sqlite-folder-lock.ts) in one process, with Node's own SQLite: the
// ledger's (better-sqlite3) is held by ledger/data-folder-lock.test.ts, the three callers' words
// and second processes by their own tests (upstream/folder-lock.test.ts, witness/folder-lock.test.ts,
// tests/security/second-host.test.ts, tests/security/upstream-folder-lock.test.ts).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, describe, it } from 'node:test';
import { holdFolder, isSqliteBusy, readFolderHolder } from './sqlite-folder-lock.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'sqlite-folder-lock-'));
after(() => rmSync(root, { recursive: true, force: true }));

class Busy extends Error {}
const open = (file: string) => new DatabaseSync(file, { timeout: 0 });

describe('the one folder lock', () => {
  it("refuses a second hold at once with the caller's refusal; released (twice), it is taken again", () => {
    const a = holdFolder({ dir: root, lockFile: 'x.lock', open, busy: () => new Busy('held') });
    const started = Date.now();
    assert.throws(() => holdFolder({ dir: root, lockFile: 'x.lock', open, busy: () => new Busy('held') }), Busy);
    assert.ok(Date.now() - started < 2_000, 'refused at once, not after a wait');
    a.release();
    a.release();
    holdFolder({ dir: root, lockFile: 'x.lock', open, busy: () => new Busy('held') }).release();
  });

  it('writes the holder file once held and removes it with the lock; a refusal can read it', () => {
    const a = holdFolder({ dir: root, lockFile: 'y.lock', open, busy: () => new Busy('held'), holder: { file: 'y.json', what: 'the test' } });
    const holder = readFolderHolder(root, 'y.json');
    assert.equal(holder?.pid, process.pid);
    assert.equal(holder?.what, 'the test');
    assert.deepEqual(JSON.parse(readFileSync(path.join(root, 'y.json'), 'utf8')), holder);
    let read: unknown = 'none';
    assert.throws(() =>
      holdFolder({
        dir: root,
        lockFile: 'y.lock',
        open,
        busy: () => ((read = readFolderHolder(root, 'y.json')), new Busy('held')),
        holder: { file: 'y.json', what: 'the second' },
      }),
    );
    assert.deepEqual(read, holder, 'the refused one wrote nothing over the holder');
    a.release();
    assert.equal(existsSync(path.join(root, 'y.json')), false);
  });

  it('a holder file that is not one (garbage, an oversized name, absent) reads as no holder', () => {
    writeFileSync(path.join(root, 'g.json'), 'not json');
    assert.equal(readFolderHolder(root, 'g.json'), null);
    writeFileSync(path.join(root, 'g.json'), JSON.stringify({ pid: 1, what: 'x'.repeat(201), since: 'now' }));
    assert.equal(readFolderHolder(root, 'g.json'), null);
    assert.equal(readFolderHolder(root, 'absent.json'), null);
  });

  it('an error that is not a busy lock is thrown as it is, the connection closed', () => {
    let closed = false;
    const failing = {
      exec: () => {
        throw new Error('disk I/O');
      },
      close: () => {
        closed = true;
      },
    };
    assert.throws(() => holdFolder({ dir: root, lockFile: 'z.lock', open: () => failing, busy: () => new Busy('held') }), /disk I\/O/);
    assert.equal(closed, true);
  });

  it('knows a busy lock as either driver says it', () => {
    const coded = (props: object) => Object.assign(new Error('e'), props);
    for (const busy of [
      { errcode: 5 },
      { errcode: 6 },
      { errcode: 5 | (2 << 8) },
      { code: 'SQLITE_BUSY' },
      { code: 'SQLITE_LOCKED' },
      { code: 'SQLITE_BUSY_SNAPSHOT' },
    ])
      assert.equal(isSqliteBusy(coded(busy)), true, JSON.stringify(busy));
    for (const other of [{ errcode: 10 }, { code: 'SQLITE_IOERR' }, { code: 'SQLITE_BUSYX' }, {}])
      assert.equal(isSqliteBusy(coded(other)), false, JSON.stringify(other));
    assert.equal(isSqliteBusy({ errcode: 5 }), false, 'not an Error');
  });
});
