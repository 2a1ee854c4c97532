import { z } from 'zod';
import type { PatchOp } from './patch.js';

/**
 * A patched part checked against its schema field by field: only the top-level fields a patch
 * touched are parsed again; the others are the copy already checked. Every station checks every
 * patch (a card, a cue), and a whole parse of the round at each was a tenth of a station's
 * composing (a stadium station's recorded frames replayed: 10.6 against 9.6 µs a message), and
 * garbage for its collector. The result is the one the whole parse gives
 * (`field-check.property.test.ts`): where that cannot be promised (an object with checks of its
 * own, a key not in the schema, a null part, a schema of another kind) the part is parsed whole.
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

/** `patched` (the copy `held` after `ops`) checked: the parse's data, or null where it fails the schema. */
export function checkPatched<T>(schema: z.ZodType<T>, plan: FieldPlan, held: T, patched: unknown, ops: readonly PatchOp[]): T | null {
  const shape = plan(held);
  const touched = new Set(ops.map((op) => op[1][0]));
  if (shape === null || !isRecord(patched) || ![...touched].every((k) => typeof k === 'string' && Object.hasOwn(shape, k))) {
    const whole = schema.safeParse(patched);
    return whole.success ? whole.data : null;
  }
  const out: Record<string, unknown> = { ...patched };
  for (const key of touched as Set<string>) {
    const r = (shape[key] as z.ZodType).safeParse(patched[key]);
    if (!r.success) return null;
    // A field the patch removed stays absent (an optional one), as in a whole parse.
    if (Object.hasOwn(patched, key)) out[key] = r.data;
  }
  // The fields untouched are the held copy's own, already parsed.
  return out as T;
}
