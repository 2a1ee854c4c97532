// The kiosk's data folder lock in one process, on the ledger's better-sqlite3 (the one folder lock,
// witness/sqlite-folder-lock.ts; a second host process and SIGKILL: tests/security/second-host.test.ts).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { DataFolderBusy, HOLDER_FILE, lockDataFolder } from './data-folder-lock.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'data-folder-lock-'));
after(() => rmSync(root, { recursive: true, force: true }));

describe("the kiosk's data folder lock", () => {
  it('refuses a second lock at once, naming the folder and the holder in its words; released, it is taken again', () => {
    const lock = lockDataFolder(root, 'the table host');
    assert.equal(lock.dataDir, path.resolve(root));
    assert.throws(
      () => lockDataFolder(root, 'etg service add-user'),
      (e: unknown) =>
        e instanceof DataFolderBusy &&
        e.holder?.pid === process.pid &&
        e.holder.what === 'the table host' &&
        e.message.startsWith(`the data folder ${root} is in use by the table host (PID ${process.pid}, since `) &&
        e.message.endsWith(': one host per data folder; stop it first'),
    );
    lock.release();
    assert.equal(existsSync(path.join(root, HOLDER_FILE)), false, 'the holder file goes with the lock');
    lockDataFolder(root, 'etg ledger verify').release();
  });
});
