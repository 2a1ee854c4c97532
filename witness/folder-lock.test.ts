// One witness per folder, and no `forget` beside a running one (witness/folder-lock.ts): a second
// witness on the folder signed a fork from its own older head, and a forget beside a running
// witness was undone at its next start.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { WITNESS_LOCK_FILE, WitnessFolderBusy } from './folder-lock.js';
import { forgetTerminal } from './forget.js';
import { startWitness } from './index.js';
import { writeNewKeyFile } from './keys.js';
import { freshDirs, Journal, ok } from './test-kit.js';

const fresh = freshDirs('witness-lock-');
const root = fresh();
mkdirSync(root);
const keyFile = path.join(root, 'witness.key');
writeNewKeyFile(keyFile);
const serve = (dir: string, name: string) => startWitness({ dir, key: { kind: 'file', file: keyFile }, listen: { socket: path.join(root, name) } });

describe("the witness's folder, held by the witness that serves it", () => {
  it('refuses a second witness on the folder while one serves it; takes it once that one stopped', async () => {
    const dir = fresh();
    const first = await serve(dir, 'a.sock');
    try {
      await assert.rejects(serve(dir, 'b.sock'), WitnessFolderBusy, 'a second witness started on the same folder');
    } finally {
      await first.close();
    }
    const again = await serve(dir, 'c.sock');
    await again.close();
  });

  it('refuses a forget beside a running witness, changing nothing; forgets once it stopped', async () => {
    const dir = fresh();
    const running = await serve(dir, 'f.sock');
    const j = new Journal('T', 2);
    const from = j.head();
    j.add(5);
    ok(running.witness.handle({ id: 1, op: 'witness', terminal: 'T', from, links: j.links, to: j.head() }));
    const record = () => readFileSync(path.join(dir, 'record.jsonl'), 'utf8');
    const before = record();
    try {
      assert.throws(() => forgetTerminal(dir, 'T', 'test'), WitnessFolderBusy, 'forgot beside a running witness');
      assert.equal(record(), before, 'the record is as it was');
      assert.ok(existsSync(path.join(dir, 'heads', 'T')), 'the head file is still there');
    } finally {
      await running.close();
    }
    assert.equal(forgetTerminal(dir, 'T', 'test')?.seq, 5);
  });

  it('forgets in a folder no witness has served yet without making a lock file there (root runs forget)', () => {
    const dir = fresh();
    mkdirSync(dir);
    assert.equal(forgetTerminal(dir, 'T', 'test'), null);
    assert.equal(existsSync(path.join(dir, WITNESS_LOCK_FILE)), false);
  });
});
