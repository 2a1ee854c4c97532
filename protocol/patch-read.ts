import { FORBIDDEN_KEYS, MAX_PATCH_INDEX, MAX_PATCH_OPS, MAX_PATH_KEY, MAX_PATH_LENGTH, type PatchOp } from './patch.js';
import { isStationViewName, type ViewName } from './views.js';

/**
 * The patch tuple `[target, version, ops]` (protocol 6) read where it plainly fits its schema,
 * without zod: a station is sent one at every card, and zod's parse of it (its unions trying each
 * option, their refusals built and dropped: a splice is refused as a set first) was a station's
 * largest cost a message (issue 55: 10–12 KiB of heap for a round patch of about 120 bytes,
 * against 1 KiB for its `JSON.parse`). It accepts only tuples `PatchTuple` accepts, and gives
 * the same target, version and operations (the JSON's own arrays, where zod copies them; the
 * values set are the JSON's in both): `patch-read.property.test.ts` holds the two against each
 * other on generated and hostile tuples. Anything it does not plainly accept, it leaves to the
 * schema (null), which then decides, and words the refusal, as before.
 */

type Target = 'round' | 'panel' | ViewName;

const isPathKey = (k: unknown): boolean => typeof k === 'string' && k.length >= 1 && k.length <= MAX_PATH_KEY && !FORBIDDEN_KEYS.has(k);
const isIndex = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= MAX_PATCH_INDEX;

function isPath(p: unknown): boolean {
  if (!Array.isArray(p) || p.length < 1 || p.length > MAX_PATH_LENGTH) return false;
  for (const k of p) if (!isPathKey(k) && !isIndex(k)) return false;
  return true;
}

function isOp(op: unknown): op is PatchOp {
  if (!Array.isArray(op) || !isPath(op[1])) return false;
  if (op[0] === 'set') return op.length === 3;
  if (op[0] === 'del') return op.length === 2;
  const items: unknown = op[4];
  return op[0] === 'splice' && op.length === 5 && isIndex(op[2]) && isIndex(op[3]) && Array.isArray(items) && items.length <= MAX_PATCH_INDEX;
}

/** A patch tuple's target, version and operations where it plainly fits `PatchTuple`; null: for the schema to decide. */
export function plainPatchTuple(json: unknown): [Target, number, PatchOp[]] | null {
  if (!Array.isArray(json) || json.length !== 3) return null;
  const [target, version, ops] = json as unknown[];
  if (typeof target !== 'string' || !(target === 'round' || target === 'panel' || isStationViewName(target))) return null;
  if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 1) return null;
  if (!Array.isArray(ops) || ops.length < 1 || ops.length > MAX_PATCH_OPS) return null;
  for (const op of ops) if (!isOp(op)) return null;
  return [target, version, ops as PatchOp[]];
}
