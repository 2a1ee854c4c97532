// A review of 7 December: any process that can reach the witness's socket could grow the stretch
// `fold` holds pending (and the fold itself) without limit: each request up to 4 MiB of bodies,
// each body up to 10,000 postings of new accounts, chained below a head the witness signed (or one
// it had signed for made-up links), as many requests as it liked. The witness's effects are bounded
// by what a checkpoint's state can carry (MAX_EFFECTS_CHARS, 4 MiB): a fold past it is refused.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { chainHash, genesisHash } from './chain.js';
import { MAX_EFFECTS_CHARS } from './effects.js';
import { freshDirs, ok, refused, testKey } from './test-kit.js';
import { Witness } from './witness.js';

const dirs = freshDirs('witness-fold-bound-');
const T = 'T';

/** Entry `seq`'s body: 4,000 postings to accounts of about 200 characters, none seen before (about 0.8 MiB). */
function wide(seq: number): string {
  const postings: [string, number][] = [];
  for (let i = 0; i < 4_000; i++) postings.push([`a:${seq}:${i}:${'x'.repeat(180)}`, i % 2 === 0 ? 1 : -1]);
  return JSON.stringify({ v: 1, terminal: T, seq, type: 'bill.credit', payload: {}, postings, meters: [] });
}

describe("the witness's fold is bounded", () => {
  it('a stretch folded below the head is refused past the bound, and what it holds does not grow', () => {
    assert.equal(MAX_EFFECTS_CHARS, 4 * 1024 * 1024);
    const w = new Witness({ dir: dirs(), key: testKey() });
    const bodies = Array.from({ length: 24 }, (_, i) => wide(i + 1));
    const heads = [{ seq: 0, hash: genesisHash(T) }];
    for (const b of bodies) heads.push({ seq: heads.length, hash: chainHash(heads[heads.length - 1]!.hash, createHash('sha256').update(b).digest('hex')) });
    const links = bodies.map((b) => createHash('sha256').update(b).digest('hex'));
    ok(w.handle({ id: 1, op: 'witness', terminal: T, from: heads[0]!, links, to: heads[24]! }));
    // Four bodies (about 3.3 MiB: under a line) a request, each stretch ending below the head: held pending.
    let at = 0;
    let refusal = '';
    for (let id = 2; at < 20; id++) {
      const a = w.handle({ id, op: 'fold', terminal: T, from: heads[at]!, bodies: bodies.slice(at, at + 4), to: heads[at + 4]! });
      if (!a.ok) {
        refusal = `${a.error}: ${a.message}`;
        break;
      }
      at += 4;
    }
    assert.match(refusal, /^bad-entry: .*4 MiB/, `refused past the bound (folded up to entry ${at})`);
    assert.equal(at, 4, 'one stretch of about 3.3 MiB held, the next refused');
    // What was refused is not held: a stretch going on from it is stale.
    assert.equal(
      refused(w.handle({ id: 90, op: 'fold', terminal: T, from: heads[at + 4]!, bodies: bodies.slice(at + 4, at + 5), to: heads[at + 5]! })),
      'stale',
    );
    // Within the bound it still folds: the host's own journals (docs/benchmarks.md: about 35 KB a fold at 200 stations).
    ok(w.handle({ id: 91, op: 'fold', terminal: T, from: heads[0]!, bodies: bodies.slice(0, 1), to: heads[1]! }));
    w.close();
  });
});
