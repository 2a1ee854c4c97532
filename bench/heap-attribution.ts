// Which source module a heap's code and functions belong to: a V8 heap snapshot (the screens
// bench writes them with BENCH_HEAP_SNAPSHOT_DIR) read against the renderer's source maps (a build
// with RENDERER_SOURCEMAP=1). Machine code, bytecode and closures are counted by the function they
// belong to, and each function by the module its source map names. Issue 31 used it to find that
// a table page's largest piece above a bare pixi scene is JIT-compiled code (docs/benchmarks.md).
//
//   tsx bench/heap-attribution.ts FILE.heapsnapshot [dist/renderer] [top]

import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { SourceMapConsumer } from 'source-map-js';

interface Snapshot {
  snapshot: {
    meta: {
      node_fields: string[];
      node_types: [string[], ...unknown[]];
      edge_fields: string[];
      edge_types: [string[], ...unknown[]];
      location_fields?: string[];
    };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
  locations?: number[];
}

/** What a function's own code is counted as: machine code, the interpreter's, or the function object. */
export type CodeKind = 'jit' | 'bytecode' | 'closure';

const KIND_OF: Record<string, CodeKind> = {
  'system / InstructionStream': 'jit',
  'system / Code': 'jit',
  'system / TrustedByteArray': 'jit',
  'system / BytecodeArray': 'bytecode',
  'system / ScopeInfo': 'bytecode',
  'system / FeedbackMetadata': 'bytecode',
  '(constant pool)': 'bytecode',
};

export type ModuleBytes = Record<CodeKind, number> & { all: number };

/** Where a function's source is: the script's URL and a 0-based line and column in it. */
export type Locate = (url: string, line: number, column: number) => string;

/**
 * The snapshot's code and closures by module. A code object is the function's whose
 * SharedFunctionInfo retains it (within a few steps); a function is placed by the location V8
 * records for its closures. What no function retains is `(no function)`.
 */
export function attributeCode(json: string, locate: Locate): Map<string, ModuleBytes> {
  const s = JSON.parse(json) as Snapshot;
  const m = s.snapshot.meta;
  const nf = m.node_fields;
  const ef = m.edge_fields;
  const N = nf.length;
  const E = ef.length;
  const [ti, ni, si, eci] = ['type', 'name', 'self_size', 'edge_count'].map((f) => nf.indexOf(f)) as [number, number, number, number];
  const [eti, eni, eto] = ['type', 'name_or_index', 'to_node'].map((f) => ef.indexOf(f)) as [number, number, number];
  const count = s.nodes.length / N;
  const at = (k: number, f: number) => s.nodes[k * N + f] ?? 0;
  const type = (k: number) => m.node_types[0][at(k, ti)] ?? '?';
  const name = (k: number) => s.strings[at(k, ni)] ?? '';
  const firstEdge = new Int32Array(count + 1);
  for (let k = 0, e = 0; k < count; k++) {
    firstEdge[k] = e;
    e += at(k, eci) * E;
    firstEdge[k + 1] = e;
  }
  const edgesOf = (k: number) => {
    const out: { name: string; weak: boolean; to: number }[] = [];
    for (let j = firstEdge[k]!; j < firstEdge[k + 1]!; j += E) {
      const t = m.edge_types[0][s.edges[j + eti]!];
      out.push({ name: t === 'element' || t === 'hidden' ? '' : (s.strings[s.edges[j + eni]!] ?? ''), weak: t === 'weak', to: s.edges[j + eto]! / N });
    }
    return out;
  };
  // Who holds what, strongly: a weak reference (a feedback vector's to code it may drop) names no owner.
  const retainers: number[][] = Array.from({ length: count }, () => []);
  for (let k = 0; k < count; k++) for (const e of edgesOf(k)) if (!e.weak) retainers[e.to]!.push(k);

  const location = new Map<number, [number, number]>();
  const lf = m.location_fields ?? [];
  const L = lf.length;
  const [lo, ll, lc] = ['object_index', 'line', 'column'].map((f) => lf.indexOf(f));
  for (let i = 0; L > 0 && i < (s.locations?.length ?? 0); i += L) location.set(s.locations![i + lo!]! / N, [s.locations![i + ll!]!, s.locations![i + lc!]!]);

  const isSfi = (k: number) => name(k).startsWith('system / SharedFunctionInfo');
  const closureOf = new Map<number, number>();
  for (let k = 0; k < count; k++)
    if (type(k) === 'closure') for (const e of edgesOf(k)) if (e.name === 'shared' && !closureOf.has(e.to)) closureOf.set(e.to, k);
  const scriptUrl = (sfi: number) => {
    for (const e of edgesOf(sfi))
      if (e.name === 'script') for (const e2 of edgesOf(e.to)) if (e2.name === 'name' || e2.name === 'source_url') return name(e2.to);
    return '';
  };
  const moduleOfSfi = (sfi: number) => {
    const closure = closureOf.get(sfi);
    const loc = closure === undefined ? undefined : location.get(closure);
    const url = scriptUrl(sfi);
    return loc ? locate(url, loc[0], loc[1]) : url ? `${url.split('/').pop()} (no location)` : '(no script)';
  };
  const sfiAbove = (k: number) => {
    const seen = new Set([k]);
    let front = [k];
    for (let depth = 0; depth < 5 && front.length > 0; depth++) {
      const next: number[] = [];
      for (const x of front)
        for (const r of retainers[x]!) {
          if (seen.has(r)) continue;
          seen.add(r);
          if (isSfi(r)) return r;
          if (type(r) === 'closure') for (const e of edgesOf(r)) if (e.name === 'shared') return e.to;
          next.push(r);
        }
      front = next;
    }
    return -1;
  };

  const out = new Map<string, ModuleBytes>();
  const add = (mod: string, kind: CodeKind, bytes: number) => {
    const b = out.get(mod) ?? { jit: 0, bytecode: 0, closure: 0, all: 0 };
    b[kind] += bytes;
    b.all += bytes;
    out.set(mod, b);
  };
  for (let k = 0; k < count; k++) {
    const bytes = at(k, si);
    if (type(k) === 'closure') {
      const shared = edgesOf(k).find((e) => e.name === 'shared');
      const loc = location.get(k);
      add(loc && shared ? locate(scriptUrl(shared.to), loc[0], loc[1]) : '(no function)', 'closure', bytes);
      continue;
    }
    const kind = KIND_OF[name(k)];
    if (!kind) continue;
    const sfi = sfiAbove(k);
    add(sfi < 0 ? '(no function)' : moduleOfSfi(sfi), kind, bytes);
  }
  return out;
}

/** A `Locate` over the built scripts' source maps in `dist`: a package's name, or the kiosk's folder. */
export function sourceMapLocate(dist: string): Locate {
  const maps = new Map<string, SourceMapConsumer | null>();
  return (url, line, column) => {
    const file = url.split('/').pop() ?? '';
    if (!maps.has(file)) {
      const map = path.join(dist, 'assets', `${file}.map`);
      maps.set(file, existsSync(map) ? new SourceMapConsumer(JSON.parse(readFileSync(map, 'utf8'))) : null);
    }
    const source = maps.get(file)?.originalPositionFor({ line: line + 1, column }).source;
    if (!source) return `${file || '(no script)'}`;
    const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(source);
    return pkg
      ? pkg[1]!
      : source
          .replace(/^(\.\.\/)+/, '')
          .split('/')
          .slice(0, 3)
          .join('/');
  };
}

if (process.argv[1] && import.meta.filename === path.resolve(process.argv[1])) {
  const [file, dist = 'dist/renderer', top = '30'] = process.argv.slice(2);
  if (!file) throw new Error('usage: tsx bench/heap-attribution.ts FILE.heapsnapshot [dist/renderer] [top]');
  const kib = (b: number) => `${(b / 1024).toFixed(0).padStart(6)} KiB`;
  const rows = [...attributeCode(readFileSync(file, 'utf8'), sourceMapLocate(dist))].sort((a, b) => b[1].all - a[1].all);
  console.log(`${'module'.padEnd(40)} ${'all'.padStart(10)} ${'jit'.padStart(10)} ${'bytecode'.padStart(10)} ${'closures'.padStart(10)}`);
  for (const [mod, b] of rows.slice(0, Number(top)))
    console.log(`${mod.slice(0, 40).padEnd(40)} ${kib(b.all)} ${kib(b.jit)} ${kib(b.bytecode)} ${kib(b.closure)}`);
}
