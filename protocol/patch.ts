import { z } from 'zod';

/**
 * A patch: what changed in one part of a view (the public round, the roads, a station's own part)
 * between the version a screen holds and the next, as a short list of operations on the part's
 * JSON. The host makes it once per change (`diffParts`), a screen applies it to its copy
 * (`applyPatch`) and checks the result against the part's own schema, so a patch can produce
 * nothing a whole message could not. Paths are typed lists of keys and indices, never a string
 * to parse.
 */

/** Keys that reach an object's prototype rather than its data: never a path's. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** The most elements a patch addresses in one array, or inserts at once (the parts' own arrays are smaller). */
export const MAX_PATCH_INDEX = 4096;

/** The longest key a path may name, and the most keys and indices in one path. */
export const MAX_PATH_KEY = 64;
export const MAX_PATH_LENGTH = 12;
/** The most operations in one patch. */
export const MAX_PATCH_OPS = 1024;

export const PathKey = z
  .string()
  .min(1)
  .max(MAX_PATH_KEY)
  .refine((k) => !FORBIDDEN_KEYS.has(k), { message: 'a key that reaches the prototype' });
export const PathIndex = z.number().int().min(0).max(MAX_PATCH_INDEX);
/** Where an operation acts: keys of objects and indices of arrays, from the part's root. */
export const PatchPath = z
  .array(z.union([PathKey, PathIndex]))
  .min(1)
  .max(MAX_PATH_LENGTH);
export type PatchPath = z.infer<typeof PatchPath>;

/**
 * - `set path value`: the object key or the array element at `path` becomes `value` (a key may be
 *   new; an index must exist);
 * - `del path`: the object key at `path` goes;
 * - `splice path index remove items`: in the array at `path`, `remove` elements from `index` are
 *   replaced by `items` (an insertion, a removal, or both).
 *
 * Values are any JSON: what they make is checked whole, against the part's schema, once applied.
 */
export const PatchOp = z.union([
  z.tuple([z.literal('set'), PatchPath, z.unknown()]),
  z.tuple([z.literal('del'), PatchPath]),
  z.tuple([z.literal('splice'), PatchPath, PathIndex, PathIndex, z.array(z.unknown()).max(MAX_PATCH_INDEX)]),
]);
export type PatchOp = z.infer<typeof PatchOp>;

export const PatchOps = z.array(PatchOp).min(1).max(MAX_PATCH_OPS);

/** A patch that does not fit the copy it is applied to: the screen asks for the whole part again. */
export class PatchError extends Error {}

type Container = unknown[] | Record<string, unknown>;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A shallow copy of a container (the part's other branches stay shared). */
function copy(v: unknown): Container {
  if (Array.isArray(v)) return [...v];
  if (isRecord(v)) return { ...v };
  throw new PatchError('a path goes through a value that is neither an object nor an array');
}

function child(parent: Container, key: string | number): unknown {
  if (typeof key === 'number') {
    if (!Array.isArray(parent) || key >= parent.length) throw new PatchError(`no element ${key}`);
    return parent[key];
  }
  if (!isRecord(parent) || !Object.hasOwn(parent, key)) throw new PatchError(`no key ${key}`);
  return parent[key];
}

function setIn(parent: Container, key: string | number, value: unknown): void {
  if (typeof key === 'number') {
    if (!Array.isArray(parent) || key >= parent.length) throw new PatchError(`set of element ${key}, which does not exist`);
    parent[key] = value;
  } else {
    if (!isRecord(parent)) throw new PatchError(`set of key ${key} on an array`);
    parent[key] = value;
  }
}

/**
 * The document after `ops`, copied along the paths they touch (the document given is never
 * changed: a screen may still hold it, and the branches no operation touched stay shared).
 * Throws `PatchError` when an operation does not fit. The result is unchecked: the caller parses
 * it with the part's schema.
 */
export function applyPatch(doc: unknown, ops: readonly PatchOp[]): unknown {
  let root = doc;
  for (const op of ops) root = applyOne(root, op);
  return root;
}

function applyOne(root: unknown, op: PatchOp): unknown {
  const path = op[1];
  const top = copy(root);
  // Copy down to the container the operation acts on.
  let parent = top;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i] as string | number;
    const next = copy(child(parent, key));
    setIn(parent, key, next);
    parent = next;
  }
  const last = path[path.length - 1] as string | number;
  if (op[0] === 'set') setIn(parent, last, op[2]);
  else if (op[0] === 'del') {
    if (typeof last === 'number' || !isRecord(parent) || !Object.hasOwn(parent, last)) throw new PatchError(`del of ${String(last)}, which is no key`);
    delete parent[last];
  } else {
    const array = copy(child(parent, last));
    if (!Array.isArray(array)) throw new PatchError('splice of something that is not an array');
    const [, , index, remove, items] = op;
    if (index > array.length || index + remove > array.length) throw new PatchError(`splice at ${index} of ${remove}, past the array's ${array.length}`);
    array.splice(index, remove, ...items);
    setIn(parent, last, array);
  }
  return top;
}

/* ─────────────── the host's side: what changed ─────────────── */

/** Whether two JSON values are equal (a key holding `undefined` counts as absent, as in JSON). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = definedKeys(a);
  const kb = definedKeys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) if (!Object.hasOwn(b, k) || !jsonEqual(Reflect.get(a, k), Reflect.get(b, k))) return false;
  return true;
}

function definedKeys(o: object): string[] {
  return Object.keys(o).filter((k) => Reflect.get(o, k) !== undefined);
}

/**
 * The operations that turn `a` into `b`, both plain JSON objects (a part's state). Values the two
 * share by identity are skipped at once: the host keeps unchanged branches (a recall list, the pay
 * table) as the same objects from one build to the next. Arrays are compared by their common
 * start and end, then element by element where the lengths agree, or by their longest common run
 * where a small array moved (a recall list gaining its newest round and losing its oldest); the
 * shorter way is taken.
 */
export function diffParts(a: object, b: object): PatchOp[] {
  const ops: PatchOp[] = [];
  diffInto(a, b, [], ops);
  return ops;
}

function diffInto(a: unknown, b: unknown, path: (string | number)[], ops: PatchOp[]): void {
  if (a === b) return;
  if (Array.isArray(a) && Array.isArray(b) && path.length > 0) return diffArrays(a, b, path, ops);
  if (isPlainObject(a) && isPlainObject(b)) {
    const each: PatchOp[] = [];
    for (const k of Object.keys(a)) {
      if (Reflect.get(a, k) === undefined) continue;
      if (!Object.hasOwn(b, k) || Reflect.get(b, k) === undefined) each.push(['del', [...path, k]]);
    }
    for (const k of Object.keys(b)) {
      const bv: unknown = Reflect.get(b, k);
      if (bv === undefined) continue;
      const av: unknown = Object.hasOwn(a, k) ? Reflect.get(a, k) : undefined;
      if (av === undefined) each.push(['set', [...path, k], bv]);
      else diffInto(av, bv, [...path, k], each);
    }
    // Below the root, the object whole where that is shorter than its keys' operations: every
    // operation repeats the path, so a small object (the roads' ask, the stats) that changed in
    // several keys is cheaper set at once.
    if (each.length > 1 && path.length > 0) {
      const whole: PatchOp = ['set', path, b];
      if (JSON.stringify(whole).length < JSON.stringify(each).length) {
        ops.push(whole);
        return;
      }
    }
    ops.push(...each);
    return;
  }
  if (jsonEqual(a, b)) return;
  if (path.length === 0) throw new Error('a part is a JSON object');
  ops.push(['set', path, b]);
}

function isPlainObject(v: unknown): v is object {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Longest common subsequence alignment is tried only on arrays this small (its cost is the product). */
const LCS_CELLS = 4096;

function diffArrays(a: readonly unknown[], b: readonly unknown[], path: (string | number)[], ops: PatchOp[]): void {
  let start = 0;
  while (start < a.length && start < b.length && jsonEqual(a[start], b[start])) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && jsonEqual(a[a.length - 1 - end], b[b.length - 1 - end])) end++;
  const am = a.slice(start, a.length - end);
  const bm = b.slice(start, b.length - end);
  if (am.length === 0 && bm.length === 0) return;
  const candidates: PatchOp[][] = [[['splice', path, start, am.length, bm]]];
  if (am.length === bm.length) {
    const each: PatchOp[] = [];
    for (let i = 0; i < am.length; i++) diffInto(am[i], bm[i], [...path, start + i], each);
    candidates.push(each);
  }
  if (am.length > 0 && bm.length > 0 && am.length * bm.length <= LCS_CELLS) candidates.push(lcsSplices(am, bm, start, path));
  let best = candidates[0] as PatchOp[];
  let bestSize = JSON.stringify(best).length;
  for (const c of candidates.slice(1)) {
    const size = JSON.stringify(c).length;
    if (size < bestSize) {
      best = c;
      bestSize = size;
    }
  }
  ops.push(...best);
}

/** Splices from the longest common subsequence of two arrays' middles (applied in order, each index as the array stands then). */
function lcsSplices(a: readonly unknown[], b: readonly unknown[], offset: number, path: (string | number)[]): PatchOp[] {
  const n = a.length;
  const m = b.length;
  // lcs[i * (m + 1) + j]: the length of the longest common subsequence of a[i..] and b[j..].
  const w = m + 1;
  const lcs = new Uint16Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i * w + j] = jsonEqual(a[i], b[j]) ? (lcs[(i + 1) * w + j + 1] ?? 0) + 1 : Math.max(lcs[(i + 1) * w + j] ?? 0, lcs[i * w + j + 1] ?? 0);
  const ops: PatchOp[] = [];
  let i = 0;
  let j = 0;
  // Where the array being patched stands: b's elements so far, then a's from i on.
  let at = offset;
  const flush = (removed: number, inserted: unknown[]) => {
    if (removed === 0 && inserted.length === 0) return;
    ops.push(['splice', path, at, removed, inserted]);
    at += inserted.length;
  };
  let removed = 0;
  let inserted: unknown[] = [];
  while (i < n || j < m) {
    if (i < n && j < m && jsonEqual(a[i], b[j])) {
      flush(removed, inserted);
      removed = 0;
      inserted = [];
      i++;
      j++;
      at++;
    } else if (j < m && (i === n || (lcs[i * w + j + 1] ?? 0) >= (lcs[(i + 1) * w + j] ?? 0))) {
      inserted.push(b[j]);
      j++;
    } else {
      removed++;
      i++;
    }
  }
  flush(removed, inserted);
  return ops;
}
