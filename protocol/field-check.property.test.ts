// The field-by-field check of a patched part (what every station does with every patch) against
// the whole parse it replaces: for any patch of a real part, valid or not, the two give the same
// data or both refuse. Patches are built from the part's own paths, values taken from other
// valid versions of it, and any JSON at all; keys outside the schema and the discriminator too.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { z } from 'zod';
import { checkPatched, fieldPlan } from './field-check.js';
import { applyPatch, PatchError, type PatchOp } from './patch.js';
import { PublicPanel, PublicRound, SnapshotState } from './views.js';

const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : Math.floor(Math.random() * 0x7fffffff);
const RUNS = process.env.FC_RUNS ? Number(process.env.FC_RUNS) : 3000;

const PAY = { kind: 'odds', win: 1, per: 1 } as const;
const own = (credit: number, open: boolean, bets: { bet: string; amount: number }[]) => ({
  kind: 'station',
  station: 101,
  game: 'baccarat',
  currency: 'MOP',
  limits: { min: 10_000, max: 1_000_000 },
  language: 'zh-Hant',
  credit,
  betting: {
    open,
    spots: [
      { bet: 'banker', min: 10_000, max: 1_000_000 },
      { bet: 'tie', min: 10_000, max: 1_000_000 },
    ],
    bets,
  },
  decision: null,
  tilts: [],
  cashout: { pending: null },
  recalled: { rounds: 1, version: 2 },
  payTable: [{ item: 'player', pays: PAY, rule: 'macau-baccarat art.13 n.1 1), art.17', ref: { kind: 'article', n: 13 } }],
  presentation: { dealerHand: false, panel: 'roads' },
});
const round = (phase: string, player: string[], banker: string[]) => ({
  roundId: 'SIM-BAC-01-r1',
  phase,
  endsAt: phase === 'betting' ? 1_795_615_862_610 : null,
  cue: phase === 'dealing' ? { kind: 'card', to: 'banker' } : null,
  hands: [
    { owner: 'player', cards: player, total: player.length ? 7 : null },
    { owner: 'banker', cards: banker, total: banker.length ? 0 : null },
  ],
  results: null,
  hold: null,
});
const panel = (coups: number) => ({ shoe: { id: 'shoe-2', coups: ['B7', 'P8p', 'T5', 'B6b', 'P9pb'].slice(0, coups) } });

/** Each part with valid versions of it: the first is patched, the others lend their values. */
const PARTS: { name: string; schema: z.ZodType; versions: unknown[] }[] = [
  {
    name: 'own',
    schema: SnapshotState,
    versions: [own(90_000, true, [{ bet: 'tie', amount: 10_000 }]), own(100_000, false, []), own(0, true, [{ bet: 'banker', amount: 100_000 }])],
  },
  {
    name: 'round',
    schema: PublicRound,
    versions: [round('dealing', ['7H'], ['TS']), round('betting', [], []), round('results', ['7H', '8S', 'TH'], ['TS', '9D'])],
  },
  { name: 'panel', schema: PublicPanel, versions: [panel(2), panel(0), panel(5)] },
];

/** Every path in a JSON document, up to a depth. */
function pathsOf(doc: unknown, depth = 4, at: (string | number)[] = []): (string | number)[][] {
  if (depth === 0 || typeof doc !== 'object' || doc === null) return [];
  const keys: (string | number)[] = Array.isArray(doc) ? doc.map((_, i) => i) : Object.keys(doc);
  return keys.flatMap((k) => [[...at, k], ...pathsOf(Reflect.get(doc, k), depth - 1, [...at, k])]);
}

function valueAt(doc: unknown, path: readonly (string | number)[]): unknown {
  let v = doc;
  for (const k of path) v = typeof v === 'object' && v !== null ? Reflect.get(v, k) : undefined;
  return v;
}

const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);

function opArb(versions: unknown[]): fc.Arbitrary<PatchOp> {
  const [base] = versions;
  const deep = versions.flatMap((v) => pathsOf(v));
  // Keys outside the schema below the top too: in each object the paths reach.
  const outside = deep.filter((p) => isObject(valueAt(versions[0], p))).map((p) => [...p, 'bogus']);
  const paths = [...deep, ...outside, ['kind'], ['bogus'], ['credit'], ['shoe'], ['cue']];
  const path = fc.constantFrom(...paths);
  const value = (p: (string | number)[]) =>
    fc.oneof(
      fc.constantFrom(...versions.map((v) => valueAt(v, p)).filter((v) => v !== undefined), null, 0, -1, 1.5, 'x', [], {}),
      fc.jsonValue({ maxDepth: 3 }),
    );
  return fc.oneof(
    path.chain((p) => value(p).map((v): PatchOp => ['set', p, v])),
    path.map((p): PatchOp => ['del', p]),
    fc.constantFrom(...pathsOf(base).filter((p) => Array.isArray(valueAt(base, p)))).chain((p) => {
      // Items like the array's own in the other versions, or any JSON.
      const like = versions.flatMap((v) => {
        const a = valueAt(v, p);
        return Array.isArray(a) ? a : [];
      });
      const item = fc.oneof(fc.constantFrom(null, ...like), fc.jsonValue({ maxDepth: 2 }));
      return fc.tuple(fc.nat(3), fc.nat(2), fc.array(item, { maxLength: 2 })).map(([i, r, items]): PatchOp => ['splice', p, i, r, items]);
    }),
  );
}

describe('a patched part checked field by field', () => {
  for (const part of PARTS) {
    it(`gives the whole parse's result for any patch of the ${part.name} part (seed ${SEED}, ${RUNS} runs; replay with FC_SEED)`, () => {
      const held = part.schema.parse(part.versions[0]);
      const plan = fieldPlan(part.schema);
      let checkedFieldwise = 0;
      let refused = 0;
      fc.assert(
        fc.property(fc.array(opArb(part.versions), { minLength: 1, maxLength: 3 }), (ops) => {
          let patched: unknown;
          try {
            patched = applyPatch(held, ops);
          } catch (e) {
            if (e instanceof PatchError) return;
            throw e;
          }
          const whole = part.schema.safeParse(patched);
          const got = checkPatched(part.schema, plan, held, patched, ops);
          assert.deepStrictEqual(got, whole.success ? whole.data : null);
          if (!whole.success) refused++;
          if (plan(held) !== null) checkedFieldwise++;
        }),
        { seed: SEED, numRuns: RUNS },
      );
      // The property saw both sides: patches that fit and patches the schema refuses.
      assert.ok(refused > RUNS / 20, `only ${refused} refused patches`);
      assert.ok(refused < RUNS - RUNS / 20, `only ${RUNS - refused} accepted patches`);
      assert.ok(checkedFieldwise > 0);
    });
  }

  it('parses the whole part where a patch changes what picks the schema, reaches outside it, or the object has checks of its own', () => {
    const plan = fieldPlan(SnapshotState);
    const held = SnapshotState.parse(PARTS[0]!.versions[0]);
    // The discriminator: a station's own part made a table's is refused whole (it lacks a table's fields).
    assert.equal(checkPatched(SnapshotState, plan, held, { ...held, kind: 'table' }, [['set', ['kind'], 'table']]), null);
    // The limits' own refinement (min ≤ max) is the field's: a patch of one bound still runs it.
    const limits = { min: 2_000_000, max: 1_000_000 };
    assert.equal(checkPatched(SnapshotState, plan, held, { ...held, limits }, [['set', ['limits', 'min'], 2_000_000]]), null);
    // A null round takes a patch only as a whole parse (there are no fields to check one by one).
    assert.equal(fieldPlan(PublicRound)(null), null);
    // An object with a check over several fields of its own: a patch of one field still runs it.
    const range = z.object({ low: z.number(), high: z.number() }).refine((r) => r.low <= r.high);
    assert.equal(checkPatched(range, fieldPlan(range), { low: 1, high: 2 }, { low: 3, high: 2 }, [['set', ['low'], 3]]), null);
  });

  it('below the top, checks a change where it is only as far as that gives the whole parse (issue 55)', () => {
    const part = z.object({
      nested: z.object({
        // Checks over its elements: an element changed is checked with the whole array.
        unique: z.array(z.number()).refine((xs) => new Set(xs).size === xs.length),
        // A key its schema fills when absent: a removal is parsed whole.
        filled: z.number().default(3),
        // Not strict: keys outside its shape are dropped, as a whole parse drops them.
        loose: z.object({ a: z.number() }).optional(),
      }),
    });
    const plan = fieldPlan(part);
    const held = part.parse({ nested: { unique: [1, 2], filled: 4, loose: { a: 1 } } });
    const check = (ops: PatchOp[]) => {
      const patched = applyPatch(held, ops);
      const whole = part.safeParse(patched);
      const got = checkPatched(part, plan, held, applyPatch(held, ops), ops);
      assert.deepStrictEqual(got, whole.success ? whole.data : null, JSON.stringify(ops));
      return got;
    };
    assert.equal(check([['set', ['nested', 'unique', 1], 1]]), null);
    assert.deepEqual(check([['set', ['nested', 'unique', 1], 3]])?.nested.unique, [1, 3]);
    assert.equal(check([['del', ['nested', 'filled']]])?.nested.filled, 3);
    assert.deepEqual(check([['set', ['nested', 'loose'], { a: 2, extra: 1 }]])?.nested.loose, { a: 2 });
    assert.deepEqual(check([['set', ['nested', 'loose', 'extra'], 1]])?.nested.loose, { a: 1 });
    // The held copy is never changed.
    assert.deepEqual(held, { nested: { unique: [1, 2], filled: 4, loose: { a: 1 } } });
  });
});
