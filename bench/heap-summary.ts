// Reads a V8 heap snapshot (the JSON Chromium's HeapProfiler.takeHeapSnapshot writes) and counts
// what it holds by kind: objects by their constructor's name, closures by their function's, the
// rest by V8's node type. The screens bench diffs two (BENCH_HEAP_SNAPSHOT) to name what a page
// keeps growing between two round counts (docs/benchmarks.md).

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

export interface HeapKind {
  kind: string;
  count: number;
  /** Self size, bytes. */
  bytes: number;
}

/** Every kind the snapshot holds, by count and self size. */
export function heapKinds(json: string): Map<string, HeapKind> {
  const s = JSON.parse(json) as Snapshot;
  const fields = s.snapshot.meta.node_fields;
  const types = s.snapshot.meta.node_types[0];
  const at = (f: string) => {
    const i = fields.indexOf(f);
    if (i < 0) throw new Error(`not a heap snapshot: no node field "${f}"`);
    return i;
  };
  const [typeAt, nameAt, sizeAt] = [at('type'), at('name'), at('self_size')];
  const out = new Map<string, HeapKind>();
  for (let i = 0; i < s.nodes.length; i += fields.length) {
    const type = types[s.nodes[i + typeAt] ?? -1] ?? '?';
    const name = s.strings[s.nodes[i + nameAt] ?? -1] ?? '?';
    const kind = type === 'object' || type === 'closure' ? `${type === 'closure' ? 'ƒ ' : ''}${name}` : `(${type})`;
    const k = out.get(kind) ?? { kind, count: 0, bytes: 0 };
    k.count++;
    k.bytes += s.nodes[i + sizeAt] ?? 0;
    out.set(kind, k);
  }
  return out;
}

/** What grew from `before` to `after`, by self size, largest first. */
export function heapGrowth(before: Map<string, HeapKind>, after: Map<string, HeapKind>, top = 15): HeapKind[] {
  return [...after.values()]
    .map((a) => {
      const b = before.get(a.kind);
      return { kind: a.kind, count: a.count - (b?.count ?? 0), bytes: a.bytes - (b?.bytes ?? 0) };
    })
    .filter((g) => g.bytes > 0 || g.count > 0)
    .sort((x, y) => y.bytes - x.bytes)
    .slice(0, top);
}

/**
 * A snapshot's self sizes in three parts: V8's `(code)` nodes (machine code and bytecode, and what V8
 * keeps to run and tier them: feedback vectors, scope infos, handlers, boilerplates), Blink's
 * `(native)` nodes (the DOM's and the GPU's C++ side, not in `Runtime.getHeapUsage`), and the rest of
 * V8's heap: the objects, strings, arrays and closures a page's scripts hold.
 */
export function heapSplit(kinds: Map<string, HeapKind>): { code: number; native: number; objects: number } {
  let total = 0;
  for (const k of kinds.values()) total += k.bytes;
  const code = kinds.get('(code)')?.bytes ?? 0;
  const native = kinds.get('(native)')?.bytes ?? 0;
  return { code, native, objects: total - code - native };
}
