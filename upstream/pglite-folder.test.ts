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
});
