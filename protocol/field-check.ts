import { z } from 'zod';
import type { PatchOp } from './patch.js';

/**
 * A patched part checked against its schema where the patch changed it: each operation's change is
 * parsed again at the deepest node its path may enter on its own (a hand's cards, a bet list, a
 * credit: `checkPoint`), not the whole top-level field it is in; the rest is the copy already
 * checked. Every station checks every patch (a card, a cue), and a whole parse of the round at each
 * was a tenth of a station's composing (a stadium station's recorded frames replayed: 10.6 against
 * 9.6 µs a message), and garbage for its collector; parsing the top-level field whole (a bet
 * parsing the station's betting, its spots and limits with it) still was (issue 55). The result is
 * the one the whole parse gives (`field-check.property.test.ts`): where that cannot be promised (an
 * object with checks of its own, an array with checks on its elements, a union, a key not in the
 * schema, a null part, a schema of another kind) the node is parsed whole, or the part.
 */

type Shape = Readonly<Record<string, z.ZodType>>;

/** For the copy held, the fields a patch of it is checked against one by one; null: a patch of it is parsed whole. */
export type FieldPlan = (held: unknown) => Shape | null;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Worked out once per part from its schema. */
export function fieldPlan(schema: z.ZodType): FieldPlan {
  if (schema instanceof z.ZodNullable) {
    const inner = fieldPlan(schema.unwrap() as z.ZodType);
    return (held) => (held === null ? null : inner(held));
  }
  if (schema instanceof z.ZodLazy) {
    // Planned at the first patch: a schema built on first use (service mode's state) stays unbuilt until then.
    let inner: FieldPlan | null = null;
    // zod's lazy `unwrap()` calls its getter again each time (a new schema each call): planned once.
    return (held) => {
      if (inner === null) {
        const unwrapped: unknown = schema.unwrap();
        // Not a schema zod could parse with: no field plan (the part is parsed whole).
        inner = unwrapped instanceof z.ZodType ? fieldPlan(unwrapped) : () => null;
      }
      return inner(held);
    };
  }
  if (schema instanceof z.ZodDiscriminatedUnion) {
    const key = schema.def.discriminator;
    // Each option looked into only when a copy is matched against it, in order: an option built on
    // first use (protocol/lazy.ts) stays unbuilt until a copy may be of its kind.
    const options = (schema.options as readonly z.ZodType[]).map((o) => {
      let seen: { object: z.ZodObject | null; plan: FieldPlan } | null = null;
      return () => (seen ??= { object: objectOf(o), plan: fieldPlan(o) });
    });
    // The option the copy held is, by its discriminator. A patch of the discriminator is checked
    // against that option's literal, so it is refused as a whole parse would refuse it (a patch
    // that also brings the other option's fields has keys outside this shape: parsed whole).
    return (held) => {
      if (!isRecord(held)) return null;
      for (const option of options) {
        const { object, plan } = option();
        if (object && (object.shape as Shape)[key]?.safeParse(held[key]).success) return plan(held);
      }
      return null;
    };
  }
  if (schema instanceof z.ZodObject) {
    // An object's own checks (a refinement over several fields) run only in a whole parse.
    const shape = (schema.def.checks?.length ?? 0) === 0 ? (schema.shape as Shape) : null;
    return () => shape;
  }
  return () => null;
}

/** The object a schema is, itself or built on first use (`z.lazy`), or null. */
function objectOf(schema: z.ZodType): z.ZodObject | null {
  const inner: unknown = schema instanceof z.ZodLazy ? schema.unwrap() : schema;
  return inner instanceof z.ZodObject ? inner : null;
}

/** Array checks a change of an element leaves true: its length's (any other reads the elements: the array is checked whole). */
const LENGTH_CHECKS: ReadonlySet<unknown> = new Set(['max_length', 'min_length', 'length_equals']);
const onLengthOnly = (checks: readonly z.core.$ZodCheck[] | undefined) => (checks ?? []).every((c) => LENGTH_CHECKS.has(c._zod.def.check));

/** What a path may enter of a node, by its schema: an object's fields, or an array's elements (null: neither). */
interface Entry {
  shape: Shape | null;
  element: z.ZodType | null;
}

/** Each schema's entry, worked out once (a schema built on first use unwrapped once). */
const entries = new WeakMap<z.ZodType, Entry>();

/**
 * What a path may enter of a node on its own, the rest of the node left as it was checked: past
 * a node built on first use or optional or nullable (a node a path goes through is an object or an
 * array), an object's fields (an object without checks of its own) or an array's elements (an array
 * whose only checks are on its length: a changed element leaves it as long). Anything else (a union,
 * a record, a transform…) is entered by no path: it is checked whole.
 */
function entry(node: z.ZodType): Entry {
  const known = entries.get(node);
  if (known) return known;
  let s: unknown = node;
  while (s instanceof z.ZodLazy || s instanceof z.ZodOptional || s instanceof z.ZodNullable) s = s.unwrap();
  const element: unknown = s instanceof z.ZodArray && onLengthOnly(s.def.checks) ? s.element : null;
  const e: Entry = {
    shape: s instanceof z.ZodObject && (s.def.checks?.length ?? 0) === 0 ? (s.shape as Shape) : null,
    element: element instanceof z.ZodType ? element : null,
  };
  entries.set(node, e);
  return e;
}

/** The schema a node's child at `key` is checked against on its own, or null where the node is checked whole. */
function childSchema(node: z.ZodType, key: string | number): z.ZodType | null {
  const { shape, element } = entry(node);
  if (typeof key === 'number') return element;
  return shape && Object.hasOwn(shape, key) ? (shape[key] ?? null) : null;
}

/**
 * How deep an operation's change is checked: its set value's or splice's array's node where every
 * node above can be entered on its own, a removed key's slot (its schema says whether it may be
 * absent), else the node where entering stopped, checked whole; with that node's schema. Null: the
 * operation reaches outside the shape (the part is parsed whole).
 */
function checkDepth(shape: Shape, path: readonly (string | number)[]): { depth: number; schema: z.ZodType } | null {
  const top = path[0];
  if (typeof top !== 'string' || !Object.hasOwn(shape, top)) return null;
  let schema = shape[top] as z.ZodType;
  let depth = 1;
  for (; depth < path.length; depth++) {
    const child = childSchema(schema, path[depth] as string | number);
    if (child === null) break;
    schema = child;
  }
  return { depth, schema };
}

/** Whether operation `i`'s check point lies within (or is) another's that is parsed instead: one shallower, or as deep and earlier. */
function covered(ops: readonly PatchOp[], depths: readonly number[], i: number): boolean {
  const di = depths[i] as number;
  const pi = (ops[i] as PatchOp)[1];
  for (let j = 0; j < ops.length; j++) {
    const dj = depths[j] as number;
    if (j === i || dj > di || (dj === di && j > i)) continue;
    const pj = (ops[j] as PatchOp)[1];
    let k = 0;
    while (k < dj && pj[k] === pi[k]) k++;
    if (k === dj) return true;
  }
  return false;
}

function parsedWhole<T>(schema: z.ZodType<T>, doc: unknown): T | null {
  const r = schema.safeParse(doc);
  return r.success ? r.data : null;
}

/**
 * `patched` (the copy `held` after `ops`, fresh from `applyPatch`: the containers on the ops' paths
 * its own) checked: the parse's data, or null where it fails the schema. Each operation's change is
 * parsed at its check point (`checkDepth`), once: a point within another's is in that one's parse.
 * What a point parses is put in its place (the parse's own copy, as a whole parse gives);
 * everything else is the held copy's, already parsed.
 */
export function checkPatched<T>(schema: z.ZodType<T>, plan: FieldPlan, held: T, patched: unknown, ops: readonly PatchOp[]): T | null {
  const shape = plan(held);
  if (shape === null || !isRecord(patched)) return parsedWhole(schema, patched);
  const depths: number[] = [];
  const schemas: z.ZodType[] = [];
  for (const op of ops) {
    const at = checkDepth(shape, op[1]);
    if (at === null) return parsedWhole(schema, patched);
    depths.push(at.depth);
    schemas.push(at.schema);
  }
  for (let i = 0; i < ops.length; i++) {
    if (covered(ops, depths, i)) continue;
    const path = (ops[i] as PatchOp)[1];
    const depth = depths[i] as number;
    // The check point's parent: on the operation's path, so an object or an array of the patched copy's own.
    let parent: unknown = patched;
    for (let k = 0; k < depth - 1 && typeof parent === 'object' && parent !== null; k++) parent = Reflect.get(parent, path[k] as string | number);
    if (typeof parent !== 'object' || parent === null) return parsedWhole(schema, patched);
    const key = path[depth - 1] as string | number;
    const present = Object.hasOwn(parent, key);
    const r = (schemas[i] as z.ZodType).safeParse(present ? Reflect.get(parent, key) : undefined);
    if (!r.success) return null;
    // A removed key stays absent (an optional one), as in a whole parse; one its schema would fill is left to the whole parse.
    if (!present) {
      if (r.data !== undefined) return parsedWhole(schema, patched);
    } else Reflect.set(parent, key, r.data);
  }
  // The fields and elements untouched are the held copy's own, already parsed.
  return patched as T;
}
