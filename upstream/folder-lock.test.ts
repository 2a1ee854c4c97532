// The PGlite folder's lock in one process (the second process, SIGKILL and two starts at once:
// tests/security/upstream-folder-lock.test.ts): a second lock or a second open is refused at once
// naming the holder, before PGlite touches the folder; released, it is taken again; a folder path
// far longer than a Unix socket's (107 bytes) is no matter.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { lockPgliteFolder, PgliteFolderBusy, UPSTREAM_HOLDER_FILE } from './folder-lock.js';
import { openPglite } from './sql.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'pglite-lock-'));
after(() => rmSync(root, { recursive: true, force: true }));

describe("the upstream's data folder lock", () => {
  it('refuses a second lock at once, naming the folder and the holder; released, it is taken again', () => {
    const dir = path.join(root, 'a');
    const lock = lockPgliteFolder(dir, 'etg upstream serve');
    const holder = JSON.parse(readFileSync(path.join(dir, UPSTREAM_HOLDER_FILE), 'utf8')) as { pid: number; what: string; since: string };
    assert.equal(holder.pid, process.pid);
    assert.equal(holder.what, 'etg upstream serve');
    assert.ok(Math.abs(Date.parse(holder.since) - Date.now()) < 60_000);
    assert.throws(
      () => lockPgliteFolder(dir, 'etg upstream enroll'),
      (e: unknown) =>
        e instanceof PgliteFolderBusy &&
        e.dataDir === dir &&
        e.message.includes(dir) &&
        e.message.includes(`etg upstream serve (PID ${process.pid}, since ${holder.since})`),
    );
    lock.release();
    assert.equal(existsSync(path.join(dir, UPSTREAM_HOLDER_FILE)), false, 'the holder file goes with the lock');
    lockPgliteFolder(dir, 'etg upstream verify').release();
  });

  it('openPglite on a held folder is refused before PGlite writes anything there', async () => {
    const dir = path.join(root, 'b');
    const lock = lockPgliteFolder(dir, 'etg upstream serve');
    try {
      const before = readdirSync(dir).sort();
      await assert.rejects(openPglite(dir, undefined, { holder: 'etg upstream enroll' }), PgliteFolderBusy);
      await assert.rejects(openPglite(dir), PgliteFolderBusy);
      assert.deepEqual(readdirSync(dir).sort(), before, 'no cluster made beside the holder');
      assert.equal(existsSync(path.join(dir, 'PG_VERSION')), false);
    } finally {
      lock.release();
    }
  });

  it("a folder opened under the caller's lock leaves it held after close; one it took itself is released by close", async () => {
    const dir = path.join(root, 'c');
    const lock = lockPgliteFolder(dir, 'etg upstream serve');
    const db = await openPglite(dir, undefined, { lock });
    await db.close();
    assert.throws(() => lockPgliteFolder(dir, 'etg upstream enroll'), PgliteFolderBusy, "still the caller's");
    lock.release();
    const own = await openPglite(dir, undefined, { holder: 'etg upstream verify' });
    assert.throws(() => lockPgliteFolder(dir, 'etg upstream enroll'), PgliteFolderBusy, 'held while open');
    await own.close();
    lockPgliteFolder(dir, 'etg upstream enroll').release();
  });

  it('holds a folder whose path is far longer than a Unix socket path may be', () => {
    const dir = path.join(root, ...Array.from({ length: 6 }, (_, i) => `a-rather-long-folder-name-for-the-upstream-${i}`));
    mkdirSync(dir, { recursive: true });
    assert.ok(dir.length > 200);
    const lock = lockPgliteFolder(dir, 'etg upstream serve');
    assert.throws(() => lockPgliteFolder(dir, 'etg upstream enroll'), PgliteFolderBusy);
    lock.release();
  });
});
