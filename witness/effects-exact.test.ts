// What the witness derives from the bodies it folds, against a state that is not it (a review of 4
// December). It signed three: a state naming an account twice, once as 0 (zeros were dropped before
// the duplicates were looked for; the host's seed keeps the last, so reads 0); a state whose meters
// differ only in where a space falls between scope and name (the two were joined with a space);
// and postings that do not sum to zero, whose float sum is 0 ([2^53 − 1, 2, −(2^53 − 1), −1]).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { chainHash, genesisHash } from './chain.js';
import { freshDirs, testKey } from './test-kit.js';
import { Witness } from './witness.js';

const dirs = freshDirs('witness-exact-');
const T = 'T';

function chain(bodies: string[]) {
  let h = genesisHash(T);
  const links: string[] = [];
  for (const b of bodies) {
    const l = createHash('sha256').update(b).digest('hex');
    links.push(l);
    h = chainHash(h, l);
  }
  return { links, to: { seq: bodies.length, hash: h } };
}

/** Witnesses and folds `bodies`, then asks a checkpoint of `state`: what each answered. */
function attempt(bodies: string[], state: (to: { seq: number; hash: string }) => object) {
  const w = new Witness({ dir: dirs(), key: testKey() });
  const { links, to } = chain(bodies);
  const from = { seq: 0, hash: genesisHash(T) };
  const witnessed = w.handle({ id: 1, op: 'witness', terminal: T, from, links, to });
  const folded = w.handle({ id: 2, op: 'fold', terminal: T, from, bodies, to });
  const checkpoint = w.handle({ id: 3, op: 'checkpoint', terminal: T, ...to, state: JSON.stringify(state(to)) });
  return { witnessed, folded, checkpoint };
}

const body = (postings: [string, number][], meters: [string, string, number][] = []) =>
  JSON.stringify({ v: 1, terminal: T, seq: 1, type: 'bill.credit', payload: { station: 3 }, postings, meters });
const state = (to: { seq: number; hash: string }, balances: unknown[], meters: unknown[] = []) => ({
  v: 1,
  terminal: T,
  seq: to.seq,
  hash: to.hash,
  at: '2026-12-04T00:00:00.000Z',
  balances,
  meters,
  openBets: [],
  table: null,
});
const credit = body([
  ['cashbox:3:10000', 10_000],
  ['station:3:credit', -10_000],
]);

describe('the witness signs only the state it derived, exactly', () => {
  it('the derived state itself is signed', () => {
    const r = attempt([credit], (to) =>
      state(to, [
        ['cashbox:3:10000', 10_000],
        ['station:3:credit', -10_000],
      ]),
    );
    assert.equal(r.checkpoint.ok, true, JSON.stringify(r.checkpoint));
  });

  it('refuses a state naming an account twice, once as 0', () => {
    const r = attempt([credit], (to) =>
      state(to, [
        ['cashbox:3:10000', 10_000],
        ['station:3:credit', -10_000],
        ['station:3:credit', 0],
      ]),
    );
    assert.equal(r.checkpoint.ok, false, 'signed before');
    assert.match(JSON.stringify(r.checkpoint), /twice/);
  });

  it('refuses a state whose meters differ from the derived ones only in where a space falls', () => {
    const r = attempt(
      [
        body(
          [
            ['a', 1],
            ['b', -1],
          ],
          [
            ['x y', 'z', 5],
            ['x', 'y z', 7],
          ],
        ),
      ],
      (to) =>
        state(
          to,
          [
            ['a', 1],
            ['b', -1],
          ],
          [['x', 'y z', 7]],
        ),
    );
    assert.equal(r.checkpoint.ok, false, 'signed before');
  });

  it('refuses postings whose exact sum is not zero, though their float sum is', () => {
    const M = Number.MAX_SAFE_INTEGER;
    const r = attempt(
      [
        body([
          ['p', M],
          ['q', 2],
          ['r', -M],
          ['s', -1],
        ]),
      ],
      (to) => state(to, []),
    );
    assert.equal(r.folded.ok, false, 'folded before');
    assert.match(JSON.stringify(r.folded), /sum to 1, not 0/);
  });
});
