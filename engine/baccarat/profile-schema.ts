/**
 * Pieces of the zod schemas of the baccarat and «Desafio ao Casino» rule profiles, and the one
 * way their refusals are worded: `profile.<field path>: <what was expected>, got <value>`, one
 * clause per problem, so a technician's `--set banker.commissionBasisPoints=-1` or a bad
 * configuration file is answered with the field to fix.
 */
import { z } from 'zod';

export class ProfileError extends Error {}

/** An integer `min`–`max`; every failure (type, fraction, range) says the same thing. */
export function intIn(min: number, max: number): z.ZodNumber {
  const error = `expected an integer ${min}–${max}`;
  return z.int({ error }).min(min, { error }).max(max, { error });
}

export function nonEmptyText(): z.ZodString {
  const error = 'expected a non-empty string';
  return z.string({ error }).min(1, { error });
}

export function oneOf<const T extends readonly [string, ...string[]]>(values: T): z.ZodEnum<{ [K in T[number]]: K }> {
  return z.enum(values, { error: `expected one of ${values.join(', ')}` });
}

/**
 * Options of a cross-field refinement: it runs only once every field is valid, so a bad `decks`
 * is not also reported as a nonsense range for the field that depends on it.
 */
export const ONCE_FIELDS_VALID: z.core.$ZodSuperRefineParams = { when: (payload) => payload.issues.length === 0 };

/** A value a text fixes for a profile: `path` into the profile data, the value, and the article. */
export interface FixedByText {
  readonly path: readonly string[];
  readonly value: string | number | boolean;
  readonly rule: string;
}

/**
 * A profile that names a regulated id keeps every value its text fixes: a `--set` or a file that
 * changes one is refused with the article, never settled under it. The analysis profile
 * (`generic`) has no entry here, so everything in it is free.
 */
export function keepFixedByText(ctx: z.RefinementCtx, data: unknown, fixed: readonly FixedByText[] | undefined): void {
  for (const f of fixed ?? []) {
    let v: unknown = data;
    for (const k of f.path) v = typeof v === 'object' && v !== null && Object.hasOwn(v, k) ? (v as Record<string, unknown>)[k] : undefined;
    if (v === f.value) continue;
    ctx.addIssue({ code: 'custom', path: [...f.path], message: `fixed at ${JSON.stringify(f.value)} by ${f.rule}`, input: v });
  }
}

/** For a field whose range depends on other fields: an issue worded like `intIn`'s. */
export function outOfRange(ctx: z.RefinementCtx, field: string, value: number, min: number, max: number): void {
  if (value >= min && value <= max) return;
  ctx.addIssue({ code: 'custom', path: [field], message: `expected an integer ${min}–${max}`, input: value });
}

function got(issue: z.core.$ZodIssue & { input?: unknown }): string {
  let v = issue.input;
  // A discriminated union reports the whole object; the field at fault is its discriminator.
  if (issue.code === 'invalid_union' && 'discriminator' in issue && typeof v === 'object' && v !== null) {
    v = (v as Record<string, unknown>)[issue.discriminator as string];
  }
  return v === undefined ? 'missing' : `got ${JSON.stringify(v)}`;
}

export function profileIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.flatMap((i) => {
    const at = ['profile', ...i.path.map(String)].join('.');
    if (i.code === 'unrecognized_keys') return i.keys.map((k) => `${at}.${k}: unknown field`);
    return [`${at}: ${i.message}, ${got(i)}`];
  });
}

/** The shipped profile `id` of `table`, or a RangeError listing the known ones. */
export function lookupProfile<P>(game: string, table: Readonly<Record<string, P>>, id: string): P {
  const p = Object.hasOwn(table, id) ? table[id] : undefined;
  if (p === undefined) throw new RangeError(`unknown ${game} profile "${id}" (known: ${Object.keys(table).join(', ')})`);
  return p;
}

/** Checks untrusted profile data against `schema`; a ProfileError lists every bad field. */
export function parseProfile<T>(schema: z.ZodType<T>, input: unknown): T {
  const r = schema.safeParse(input, { reportInput: true });
  if (r.success) return r.data;
  throw new ProfileError(profileIssues(r.error.issues).join('; '));
}
