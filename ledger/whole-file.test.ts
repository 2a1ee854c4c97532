// A whole-file write that fails leaves nothing behind (a review: the upstream receipt's and the peer
// files' writes left `<file>.<pid>.tmp`, a cut copy that kept a full disk full).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { keepReceipt, Receipt, RECEIPT_FILE } from './receipts.js';
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

  it('keeps the file it replaces as .prev when asked, and is written even when .prev cannot be kept', () => {
    const dir = path.join(root, 'c');
    mkdirSync(dir);
    const file = path.join(dir, 'f.json');
    writeFileWhole(file, '1', { keepPrevious: true, syncFolder: true });
    writeFileWhole(file, '2', { keepPrevious: true, syncFolder: true });
    assert.equal(readFileSync(`${file}.prev`, 'utf8'), '1');
    const other = path.join(dir, 'g.json');
    writeFileWhole(other, '1');
    mkdirSync(`${other}.prev`);
    writeFileSync(path.join(`${other}.prev`, 'x'), 'x');
    writeFileWhole(other, '2', { keepPrevious: true });
    assert.equal(readFileSync(other, 'utf8'), '2');
    assert.deepEqual(readdirSync(dir).sort(), ['f.json', 'f.json.prev', 'g.json', 'g.json.prev']);
  });

  it("the upstream's receipt: a write that fails leaves no temporary file beside it", () => {
    const dir = path.join(root, 'b');
    mkdirSync(path.join(dir, RECEIPT_FILE), { recursive: true });
    writeFileSync(path.join(dir, RECEIPT_FILE, 'x'), 'x');
    assert.throws(() => keepReceipt(dir, Receipt.parse({ seq: 1, hash: 'a'.repeat(64), at: '2026-11-30T00:00:00Z', signature: 'AAAA' })));
    assert.deepEqual(readdirSync(dir), [RECEIPT_FILE]);
  });
});
