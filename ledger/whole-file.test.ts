// A whole-file write that fails leaves nothing behind (a review: the upstream receipt's and the peer
// files' writes left `<file>.<pid>.tmp`, a cut copy that kept a full disk full).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { keepReceipt, RECEIPT_FILE } from './receipts.js';
import { writeFileWhole } from './whole-file.js';

const root = mkdtempSync(path.join(tmpdir(), 'whole-file-'));
after(() => rmSync(root, { recursive: true, force: true }));

describe('a file written whole', () => {
  it('replaces the file, and a write that fails leaves no temporary file', () => {
    const dir = path.join(root, 'a');
    mkdirSync(dir);
    const file = path.join(dir, 'f.json');
    writeFileWhole(file, '{"n":1}');
    writeFileWhole(file, '{"n":2}');
    assert.equal(readFileSync(file, 'utf8'), '{"n":2}');
    const blocked = path.join(dir, 'blocked.json');
    mkdirSync(blocked);
    writeFileSync(path.join(blocked, 'x'), 'x');
    assert.throws(() => writeFileWhole(blocked, '{}'));
    assert.deepEqual(readdirSync(dir).sort(), ['blocked.json', 'f.json']);
  });

  it("the upstream's receipt: a write that fails leaves no temporary file beside it", () => {
    const dir = path.join(root, 'b');
    mkdirSync(path.join(dir, RECEIPT_FILE), { recursive: true });
    writeFileSync(path.join(dir, RECEIPT_FILE, 'x'), 'x');
    assert.throws(() => keepReceipt(dir, { seq: 1 } as never));
    assert.deepEqual(readdirSync(dir), [RECEIPT_FILE]);
  });
});
