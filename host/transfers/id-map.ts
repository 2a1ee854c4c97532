import { keyOf, type TransferId } from '../../terms/transfer-terms.js';

// A host's transfers by id, as plain data that a step can copy cheaply: 64 buckets, so a change
// copies the bucket list and one bucket, not every transfer the host ever kept (a host keeps its
// transfers for good: an id once decided must be answered the same way for ever). Measured by
// `npm run bench -- transfers`: a start on a host keeping 10,000 transfers cost 17 ms with one
// record copied whole.

const BUCKETS = 64;

export type IdMap<V> = readonly Readonly<Record<string, V>>[];

export function emptyIdMap<V>(): IdMap<V> {
  return Array.from({ length: BUCKETS }, () => ({}));
}

function bucketOf(key: string): number {
  // FNV-1a: spreads the keys, stable across runs (the state is the same data whatever process folds it).
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193) >>> 0;
  return h % BUCKETS;
}

export function getById<V>(m: IdMap<V>, id: TransferId): V | undefined {
  const k = keyOf(id);
  return m[bucketOf(k)]?.[k];
}

export function setById<V>(m: IdMap<V>, id: TransferId, v: V): IdMap<V> {
  const k = keyOf(id);
  const b = bucketOf(k);
  const copy = m.slice();
  copy[b] = { ...m[b], [k]: v };
  return copy;
}

export function valuesOf<V>(m: IdMap<V>): V[] {
  return m.flatMap((b) => Object.values(b));
}
