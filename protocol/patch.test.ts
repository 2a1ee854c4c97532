import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { applyPatch, diffParts, jsonEqual, PatchError, PatchOp, PatchOps, type PatchOp as Op } from './patch.js';

/** JSON values as parts hold them: objects with short keys, arrays, strings, integers, booleans, null. */
const json = fc.letrec<{ value: unknown; object: Record<string, unknown> }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(null, true, false),
    fc.integer({ min: -1000, max: 1000 }),
    fc.constantFrom('AS', 'TD', 'XX', 'banker', 'player', ''),
    fc.array(tie('value'), { maxLength: 6 }),
    tie('object'),
  ),
  object: fc.dictionary(fc.constantFrom('a', 'b', 'cards', 'total', 'cue', 'hands', 'x'), tie('value'), { maxKeys: 5 }),
})).object;

const roundTrip = (a: object, b: object) => {
  const ops = diffParts(a, b);
  // Every patch the host makes passes the schema a screen checks it with.
  if (ops.length > 0) assert.ok(PatchOps.safeParse(JSON.parse(JSON.stringify(ops))).success);
  const frozen = JSON.stringify(a);
  const after = applyPatch(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(ops)) as Op[]);
  assert.ok(
    jsonEqual(after, JSON.parse(JSON.stringify(b))),
    `${JSON.stringify(a)} → ${JSON.stringify(b)} by ${JSON.stringify(ops)} gave ${JSON.stringify(after)}`,
  );
  assert.equal(JSON.stringify(a), frozen, 'the diff changed nothing of its input');
  return ops;
};

describe('patches: the host diffs a part, the screen applies it', () => {
  it('turns any part into any other (property, 2,000 pairs)', () => {
    fc.assert(
      fc.property(json, json, (a, b) => void roundTrip(a, b)),
      { numRuns: 2000 },
    );
  });

  it('turns a part into a small change of itself (property: one edit at a time, 2,000 cases)', () => {
    fc.assert(
      fc.property(json, fc.array(json, { maxLength: 3 }), (a, edits) => {
        let b: object = a;
        for (const e of edits) b = { ...b, ...e };
        roundTrip(a, b);
      }),
      { numRuns: 2000 },
    );
  });

  it('sends a card as a card: one element spliced in, the total set, the cue changed where it changed', () => {
    const a = {
      phase: 'dealing',
      cue: { kind: 'card', to: 'player' },
      hands: [
        { owner: 'player', cards: ['AS'], total: 1 },
        { owner: 'banker', cards: [], total: 0 },
      ],
    };
    const b = {
      phase: 'dealing',
      cue: { kind: 'card', to: 'banker' },
      hands: [
        { owner: 'player', cards: ['AS'], total: 1 },
        { owner: 'banker', cards: ['TD'], total: 0 },
      ],
    };
    assert.deepEqual(roundTrip(a, b), [
      ['set', ['cue', 'to'], 'banker'],
      ['splice', ['hands', 1, 'cards'], 0, 0, ['TD']],
    ]);
  });

  it('sends a recall list that gained its newest round and lost its oldest as two splices, not ten rounds', () => {
    const round = (n: number) => ({ roundId: `r${n}`, bets: [{ bet: 'banker', amount: 10_000 * n }], cards: ['AS', 'TD', '9H', '2C'] });
    const a = { recall: [9, 8, 7, 6, 5, 4, 3, 2, 1, 0].map(round) };
    const b = { recall: [10, 9, 8, 7, 6, 5, 4, 3, 2, 1].map(round) };
    const ops = roundTrip(a, b);
    assert.deepEqual(ops, [
      ['splice', ['recall'], 0, 0, [round(10)]],
      ['splice', ['recall'], 10, 1, []],
    ]);
  });

  it("sets a small object whole where its keys' operations would be longer (the roads' ask), and key by key where not", () => {
    const ask = (a: string, b: string, c: string) => ({ bigEye: a, small: b, cockroach: c });
    const roads = (player: object, banker: object, coups: number) => ({
      roads: { ask: { player, banker }, stats: { coups, banker: 3, player: 2, tie: 0 }, beadPlate: [] },
    });
    const a = roads(ask('red', 'blue', 'red'), ask('blue', 'red', 'blue'), 5);
    const b = roads(ask('blue', 'red', 'blue'), ask('red', 'blue', 'red'), 6);
    const ops = roundTrip(a, b);
    assert.deepEqual(ops, [
      ['set', ['roads', 'ask'], b.roads.ask],
      ['set', ['roads', 'stats', 'coups'], 6],
    ]);
    assert.ok(
      JSON.stringify(ops).length <
        JSON.stringify([...['player', 'banker'].flatMap((side) => ['bigEye', 'small', 'cockroach'].map((r) => ['set', ['roads', 'ask', side, r], 'x']))])
          .length,
    );
  });

  it('skips what the two share by identity without looking inside', () => {
    const shared = {
      get big(): never {
        throw new Error('looked inside a shared branch');
      },
    };
    assert.deepEqual(diffParts({ pay: shared, credit: 1 }, { pay: shared, credit: 2 }), [['set', ['credit'], 2]]);
  });

  it('treats a key holding undefined as absent, as JSON does', () => {
    assert.deepEqual(diffParts({ a: 1, b: undefined }, { a: 1 }), []);
    assert.deepEqual(diffParts({ a: 1 }, { a: 1, b: undefined }), []);
    assert.deepEqual(diffParts({ a: 1, b: 2 }, { a: 1, b: undefined }), [['del', ['b']]]);
  });
});

describe('patches from a hostile peer', () => {
  it('refuses a path through the prototype at the schema', () => {
    for (const key of ['__proto__', 'constructor', 'prototype']) assert.equal(PatchOp.safeParse(['set', ['hands', key, 'polluted'], true]).success, false, key);
    assert.equal(PatchOp.safeParse(['set', [], 1]).success, false, 'the root is replaced by a whole message, never a patch');
    assert.equal(PatchOp.safeParse(['set', ['a', -1], 1]).success, false, 'a negative index');
    assert.equal(PatchOp.safeParse(['set', ['a', 1.5], 1]).success, false, 'a fractional index');
    assert.equal(PatchOp.safeParse(['splice', ['a'], 0, 0]).success, false, 'a splice without its items');
    assert.equal(PatchOp.safeParse(['move', ['a'], ['b']]).success, false, 'an operation the protocol does not have');
  });

  it('never throws anything but PatchError, never changes what it was given, never reaches a prototype (property, 3,000 patches)', () => {
    const key = fc.oneof(fc.constantFrom('a', 'b', 'cards', 'hands', 'x', 'toString', 'hasOwnProperty', 'valueOf'), fc.nat({ max: 8 }));
    const op = fc.oneof(
      fc.tuple(fc.constant('set' as const), fc.array(key, { minLength: 1, maxLength: 4 }), json),
      fc.tuple(fc.constant('del' as const), fc.array(key, { minLength: 1, maxLength: 4 })),
      fc.tuple(
        fc.constant('splice' as const),
        fc.array(key, { minLength: 1, maxLength: 4 }),
        fc.nat({ max: 8 }),
        fc.nat({ max: 8 }),
        fc.array(json, { maxLength: 3 }),
      ),
    );
    fc.assert(
      fc.property(json, fc.array(op, { minLength: 1, maxLength: 6 }), (doc, raw) => {
        const parsed = PatchOps.safeParse(raw);
        if (!parsed.success) return;
        const before = JSON.stringify(doc);
        try {
          applyPatch(doc, parsed.data);
        } catch (e) {
          assert.ok(e instanceof PatchError, String(e));
        }
        assert.equal(JSON.stringify(doc), before, 'the document given is never changed');
        assert.equal(Reflect.get({}, 'polluted'), undefined);
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses what does not fit: a missing key, an element past the end, a splice too long, a path through a number', () => {
    const doc = { hands: [{ cards: ['AS'] }], total: 3 };
    const bad: Op[][] = [
      [['set', ['missing', 'x'], 1]],
      [['set', ['hands', 1], {}]],
      [['del', ['nope']]],
      [['del', ['hands', 0]]],
      [['splice', ['hands', 0, 'cards'], 2, 0, ['TD']]],
      [['splice', ['hands', 0, 'cards'], 0, 2, []]],
      [['splice', ['total'], 0, 0, [1]]],
      [['set', ['total', 'x'], 1]],
    ];
    for (const ops of bad) assert.throws(() => applyPatch(doc, ops), PatchError, JSON.stringify(ops));
  });
});
