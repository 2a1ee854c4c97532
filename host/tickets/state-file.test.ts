// The host's small state files (state-file.ts): written whole or not at all, and a failed write
// leaves nothing behind in the data folder (a review: `*.<pid>.tmp` files piled up on a full disk).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { z } from 'zod';
import { readStateFile, readStateFileChecked, writeStateFile } from './state-file.js';

describe('state files', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'state-file-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const Schema = z.object({ v: z.literal(1) });

  it('a write that fails (a folder in the way of the rename) leaves no temporary file behind', () => {
    const file = path.join(dir, 's.json');
    mkdirSync(file);
    assert.throws(() => writeStateFile(file, { v: 1 }));
    assert.deepEqual(readdirSync(dir), ['s.json'], 'no s.json.<pid>.tmp left (before: one was)');
  });

  it('a write keeping the previous copy links the old file to `.prev` before the new one replaces it', () => {
    const file = path.join(dir, 's.json');
    writeStateFile(file, { v: 1, n: 1 }, { keepPrevious: true });
    assert.deepEqual(readdirSync(dir), ['s.json'], 'nothing to keep the first time');
    writeStateFile(file, { v: 1, n: 2 }, { keepPrevious: true });
    assert.deepEqual(readdirSync(dir).sort(), ['s.json', 's.json.prev']);
    assert.deepEqual(JSON.parse(readFileSync(`${file}.prev`, 'utf8')), { v: 1, n: 1 });
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { v: 1, n: 2 });
  });

  it('tells a missing file from a damaged one (not JSON, not ours, a folder)', () => {
    const file = path.join(dir, 's.json');
    assert.deepEqual(readStateFileChecked(file, Schema), { state: 'missing' });
    writeFileSync(file, '{"v":');
    assert.equal(readStateFileChecked(file, Schema).state, 'damaged');
    assert.equal(readStateFile(file, Schema), null, 'the plain reader still answers null');
    writeFileSync(file, '{"v":2}');
    assert.equal(readStateFileChecked(file, Schema).state, 'damaged');
    rmSync(file);
    mkdirSync(file);
    const r = readStateFileChecked(file, Schema);
    assert.equal(r.state, 'damaged');
    assert.match(r.state === 'damaged' ? r.why : '', /EISDIR|directory/i);
    writeFileSync(path.join(dir, 'ok.json'), '{"v":1}');
    assert.deepEqual(readStateFileChecked(path.join(dir, 'ok.json'), Schema), { state: 'ok', value: { v: 1 } });
  });

  it('a previous copy that cannot be kept (a folder at `.prev`) never keeps the file itself from being written', () => {
    const file = path.join(dir, 's.json');
    writeStateFile(file, { v: 1, n: 1 }, { keepPrevious: true });
    mkdirSync(`${file}.prev`);
    writeStateFile(file, { v: 1, n: 2 }, { keepPrevious: true });
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { v: 1, n: 2 });
    assert.deepEqual(readdirSync(dir).sort(), ['s.json', 's.json.prev']);
  });
});
