// The upstream's embedded database folder (`--data-dir`) damaged: before, the service said only
// "PGlite failed to initialize properly", naming no folder and nothing to do.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { openPglite } from './sql.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'pglite-folder-'));
after(() => rmSync(root, { recursive: true, force: true }));

describe('openPglite on a damaged folder', () => {
  it('refuses naming the folder and what to do', async () => {
    const dir = path.join(root, 'damaged');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'PG_VERSION'), Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 37 + 11) % 256)));
    writeFileSync(path.join(dir, 'postgresql.conf'), 'x\n');
    await assert.rejects(
      openPglite(dir),
      (e: Error) => e.message.startsWith(`the upstream's embedded database in ${dir} cannot be opened`) && /backup/.test(e.message),
    );
  });

  // A first start stopped by a version before the first-start mark (upstream/pglite-first-start.ts)
  // left PG_VERSION without the folder's last files, and no table: no backup of it exists, and
  // "restore the folder from its backup" alone sent the technician looking for one.
  it('a folder that holds no table is said to be one that may be deleted; one with tables is not', async () => {
    const bare = path.join(root, 'no-table');
    mkdirSync(path.join(bare, 'base', '5'), { recursive: true });
    writeFileSync(path.join(bare, 'PG_VERSION'), '17\n');
    writeFileSync(path.join(bare, 'base', '5', '1259'), 'x');
    await assert.rejects(openPglite(bare), (e: Error) => /holds no table/.test(e.message) && e.message.includes(`delete ${bare}`));
    const kept = path.join(root, 'with-table');
    mkdirSync(path.join(kept, 'base', '5'), { recursive: true });
    writeFileSync(path.join(kept, 'PG_VERSION'), '17\n');
    writeFileSync(path.join(kept, 'base', '5', '16384'), 'x');
    await assert.rejects(openPglite(kept), (e: Error) => /backup/.test(e.message) && !/holds no table/.test(e.message) && !/delete/.test(e.message));
  });
});
