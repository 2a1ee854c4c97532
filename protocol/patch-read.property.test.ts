// The patch tuple read plainly (patch-read.ts, every card a station is sent) against the schema it
// stands in for (`PatchTuple`): whatever it accepts, the schema accepts and reads the same; what it
// does not, the schema decides. Tuples are built from valid parts and from every way one can lie
// (a target, a version, an op's name, length, path, key or index out of bounds, any JSON at all).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { decodeHostMessage } from './codec.js';
import { PatchTuple } from './messages.js';
import { plainPatchTuple } from './patch-read.js';

const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : Math.floor(Math.random() * 0x7fffffff);
const RUNS = process.env.FC_RUNS ? Number(process.env.FC_RUNS) : 3000;

const validTarget = fc.constantFrom('round', 'panel', 'station/1', 'station/7', 'station/101', 'station/2100');
/** Targets the schema refuses: a view's name that is not a patch's, station numbers it does not take or not written plainly, none. */
const BAD_TARGETS = [
  'own',
  'recall',
  'table',
  'service',
  'station/0',
  'station/8',
  'station/99',
  'station/0101',
  'station/1e2',
  'station/-1',
  'station/101.0',
  'station/',
  '',
] as const;
const target = fc.oneof(validTarget, fc.constantFrom(...BAD_TARGETS), fc.string(), fc.anything());
const validVersion = fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER });
const version = fc.oneof(validVersion, fc.constantFrom(0, -1, 1.5, -0, 2 ** 53, 2 ** 60, '12', null), fc.double(), fc.anything());

const validKey = fc.string({ minLength: 1, maxLength: 64 }).filter((k) => !['__proto__', 'constructor', 'prototype'].includes(k));
const validIndex = fc.integer({ min: 0, max: 4096 });
const key = fc.oneof(validKey, fc.constantFrom('', 'x'.repeat(65), '__proto__', 'constructor', 'prototype'), fc.string());
const index = fc.oneof(validIndex, fc.constantFrom(-1, 4097, 1.5, -0, Number.MAX_SAFE_INTEGER), fc.double());
const validPath = fc.array(fc.oneof(validKey, validIndex), { minLength: 1, maxLength: 12 });
const path = fc.oneof(validPath, fc.array(fc.oneof(key, index, fc.anything()), { maxLength: 14 }), fc.anything());

const validOp = fc.oneof(
  fc.tuple(fc.constant('set'), validPath, fc.jsonValue()),
  fc.tuple(fc.constant('del'), validPath),
  fc.tuple(fc.constant('splice'), validPath, validIndex, validIndex, fc.array(fc.jsonValue(), { maxLength: 4 })),
);
const op = fc.oneof(
  validOp,
  fc.tuple(fc.constantFrom('set', 'del', 'splice', 'move', 'SET', ''), path, fc.jsonValue()),
  fc.tuple(fc.constantFrom('set', 'del', 'splice'), path),
  fc.tuple(fc.constantFrom('set', 'del', 'splice'), path, index, index, fc.oneof(fc.array(fc.jsonValue(), { maxLength: 3 }), fc.anything())),
  fc.tuple(fc.constantFrom('set', 'del', 'splice'), path, index, index, fc.array(fc.jsonValue(), { maxLength: 3 }), fc.anything()),
  // Lengths past the bounds: a splice inserting 4,097 items.
  fc.constant(['splice', ['hands'], 0, 0, Array.from({ length: 4097 }, () => 1)]),
  fc.anything(),
);
const validTuple = fc.tuple(validTarget, validVersion, fc.array(validOp, { minLength: 1, maxLength: 6 }));
const badTarget = fc.constantFrom<unknown>(...BAD_TARGETS, 12, null);
const badVersion = fc.constantFrom(0, -1, 1.5, 2 ** 53, 2 ** 60, '12', null);
const badKey = fc.constantFrom('', 'x'.repeat(65), '__proto__', 'constructor', 'prototype', null, true, [], {});
const badIndex = fc.constantFrom(-1, 4097, 1.5, 2 ** 53, '0', null);
/** A valid tuple with one lie in it: the target, the version, an op's name or length, a key or an index of its path, a splice's bounds. */
const oneLie = fc
  .tuple(validTuple, fc.nat(), fc.nat(), badTarget, badVersion, badKey, badIndex, fc.constantFrom('move', 'SET', '', 'del', 'set', 'splice'))
  .map(([t, where, at, bt, bv, bk, bi, name]) => {
    const [target, version, ops] = structuredClone(t) as [unknown, unknown, unknown[][]];
    const op = ops[at % ops.length] as unknown[];
    const p = op[1] as unknown[];
    switch (where % 9) {
      case 0:
        return [bt, version, ops];
      case 1:
        return [target, bv, ops];
      case 2:
        p[at % p.length] = bk;
        break;
      case 3:
        p[at % p.length] = bi;
        break;
      case 4:
        op[0] = name;
        break;
      case 5:
        op.push(1);
        break;
      case 6:
        op.pop();
        break;
      case 7:
        if (op[0] === 'splice') op[2 + (at % 2)] = bi;
        else op[1] = at % 2 ? [] : Array.from({ length: 13 }, () => 'k');
        break;
      default:
        return [target, version, ops, 'more'];
    }
    return [target, version, ops];
  });
const tuple = fc.oneof(
  validTuple,
  oneLie,
  oneLie,
  fc.tuple(target, version, fc.oneof(fc.array(op, { maxLength: 6 }), fc.anything())),
  fc.tuple(target, version, fc.array(op, { maxLength: 3 }), fc.anything()),
  fc.tuple(target, version),
  fc.constant(['round', 1, Array.from({ length: 1025 }, () => ['set', ['x'], 1])]),
  fc.array(fc.anything(), { maxLength: 4 }),
);

/** The message a tuple the plain reader took stands for. */
function messageOf([t, v, ops]: NonNullable<ReturnType<typeof plainPatchTuple>>) {
  return t === 'round' || t === 'panel' ? { type: 'public-patch', part: t, version: v, ops } : { type: 'patch', view: t, version: v, ops };
}

describe('the patch tuple read plainly (issue 55)', () => {
  it(`accepts nothing the schema refuses, and reads what it accepts as the schema does (seed ${SEED})`, () => {
    fc.assert(
      fc.property(tuple, (json) => {
        // Through JSON, as a frame comes (no undefined, no -0 as such, no functions).
        const text = JSON.stringify(json);
        if (text === undefined) return;
        const input: unknown = JSON.parse(text);
        const plain = plainPatchTuple(input);
        const schema = PatchTuple.safeParse(input);
        if (plain === null) return;
        assert.ok(schema.success, `${text}: read plainly, refused by the schema`);
        assert.deepEqual(messageOf(plain), schema.data, text);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it(`reads plainly every tuple the host writes (seed ${SEED})`, () => {
    fc.assert(
      fc.property(validTuple, (json) => {
        const input: unknown = JSON.parse(JSON.stringify(json));
        assert.ok(PatchTuple.safeParse(input).success);
        assert.notEqual(plainPatchTuple(input), null, JSON.stringify(json));
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('leaves a lying tuple to the schema, which refuses it with its field named', () => {
    for (const [bad, field] of [
      ['["station/99",12,[["set",["credit"],1]]]', '0'],
      ['["round",0,[["set",["phase"],"results"]]]', '1'],
      ['["round",12,[["splice",["hands"],-1,0,[]]]]', '2.0'],
      ['["round",12,[["set",["__proto__","x"],1]]]', '2.0'],
    ] as const) {
      assert.equal(plainPatchTuple(JSON.parse(bad)), null, bad);
      const d = decodeHostMessage(bad);
      assert.equal(!d.ok && d.error.code, 'invalid-message', bad);
      assert.ok(!d.ok && d.error.detail.startsWith(field), `${bad}: ${d.ok ? '' : d.error.detail}`);
    }
  });
});
