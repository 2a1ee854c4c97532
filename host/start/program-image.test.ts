import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { programImage } from './program-image.js';

describe('the program image for 0x21: read part by part, never whole', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'program-image-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  const a = new Uint8Array(150_000).map((_, i) => i & 0xff);
  const b = new Uint8Array(10).fill(7);
  writeFileSync(path.join(root, 'a.js'), a);
  writeFileSync(path.join(root, 'b.js'), b);

  it("gives the files' bytes in the manifest's order, in parts of at most 64 KiB", async () => {
    const parts: Uint8Array[] = [];
    for await (const p of programImage(root, ['b.js', 'a.js'])) parts.push(p);
    assert.ok(parts.every((p) => p.length <= 64 * 1024));
    assert.ok(parts.length >= 4);
    assert.deepEqual(Buffer.concat(parts), Buffer.concat([b, a]));
  });

  it('a file that cannot be read ends it with the error', async () => {
    const read = async () => {
      for await (const p of programImage(root, ['a.js', 'gone.js'])) void p;
    };
    await assert.rejects(read, /ENOENT/);
  });
});
