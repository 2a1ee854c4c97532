// What a page keeps more of between two heap snapshots of the same page (issue 52: the station page's
// growth over a long run). V8 gives an object the same id in every snapshot of one page's life, so
// the objects of the later snapshot are matched to the earlier one's; each object's retained size
// (what would go with it: its subtree in the dominator tree) is computed in both, and the objects
// whose retained size grew are followed down from the root to where the growth fans out: the one
// object holding many more things than before (an array of a round's entries, a Map keyed by round,
// a cache). Each such object is printed with the path that keeps it alive (the shortest, by edge
// name) and what it holds more of, by kind. `BENCH_LONG_SNAPSHOTS=DIR` with `BENCH_LONG_SPLIT=1`
// writes one snapshot of each page at every sample (bench/long-run.bench.ts).
//
//   tsx bench/heap-retained.ts EARLY.heapsnapshot LATE.heapsnapshot [top]

import { readFileSync } from 'node:fs';
import path from 'node:path';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]]; edge_fields: string[]; edge_types: [string[], ...unknown[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/** A snapshot as a graph: per node its id, kind, self size, first edge; per edge its target, name and whether it retains. */
export interface HeapGraph {
  count: number;
  id: Float64Array;
  self: Float64Array;
  kind: string[];
  firstEdge: Int32Array;
  edgeTo: Int32Array;
  edgeName: string[];
  /** Weak edges (and V8's shortcuts, which duplicate a path) keep nothing alive. */
  edgeRetains: Uint8Array;
  /** Each node's immediate dominator (the root's is itself). */
  idom: Int32Array;
  /** Each node's retained size: its own and all it alone keeps alive. */
  retained: Float64Array;
  /** The node's retainer on a shortest retaining path from the root (-1: unreached), and that edge's name. */
  parent: Int32Array;
  parentEdge: string[];
}

/** A node's kind as heap-summary.ts names it: objects by constructor, closures by function, the rest by V8's type. */
function kindName(type: string, name: string): string {
  if (type === 'object' || type === 'closure') return `${type === 'closure' ? 'ƒ ' : ''}${name.slice(0, 50)}`;
  if (type === 'native') return `(native) ${name.slice(0, 40)}`;
  return `(${type})`;
}

export function heapGraph(json: string): HeapGraph {
  const s = JSON.parse(json) as Snapshot;
  const m = s.snapshot.meta;
  const N = m.node_fields.length;
  const E = m.edge_fields.length;
  const nf = (f: string) => m.node_fields.indexOf(f);
  const ef = (f: string) => m.edge_fields.indexOf(f);
  const [ti, ni, ii, si, eci] = [nf('type'), nf('name'), nf('id'), nf('self_size'), nf('edge_count')];
  const [eti, eni, eto] = [ef('type'), ef('name_or_index'), ef('to_node')];
  const count = s.nodes.length / N;
  const id = new Float64Array(count);
  const self = new Float64Array(count);
  const kind: string[] = new Array<string>(count);
  const firstEdge = new Int32Array(count + 1);
  const edgeCount = s.edges.length / E;
  const edgeTo = new Int32Array(edgeCount);
  const edgeName: string[] = new Array<string>(edgeCount);
  const edgeRetains = new Uint8Array(edgeCount);
  let e = 0;
  for (let k = 0; k < count; k++) {
    const o = k * N;
    id[k] = s.nodes[o + ii]!;
    self[k] = s.nodes[o + si]!;
    kind[k] = kindName(m.node_types[0][s.nodes[o + ti]!] ?? '?', s.strings[s.nodes[o + ni]!] ?? '');
    firstEdge[k] = e;
    for (let j = 0; j < s.nodes[o + eci]!; j++, e++) {
      const t = m.edge_types[0][s.edges[e * E + eti]!] ?? '?';
      const raw = s.edges[e * E + eni]!;
      edgeTo[e] = s.edges[e * E + eto]! / N;
      edgeName[e] = t === 'element' || t === 'hidden' ? `[${raw}]` : (s.strings[raw] ?? '?');
      edgeRetains[e] = t === 'weak' || t === 'shortcut' ? 0 : 1;
    }
  }
  firstEdge[count] = e;
  const g = { count, id, self, kind, firstEdge, edgeTo, edgeName, edgeRetains } as HeapGraph;
  dominate(g);
  return g;
}

/** Immediate dominators (Cooper, Harvey and Kennedy's iterative algorithm over a reverse postorder), retained sizes, shortest paths. */
function dominate(g: HeapGraph): void {
  const { count, firstEdge, edgeTo, edgeRetains } = g;
  // Reverse postorder from the root (node 0), by an explicit stack.
  const order = new Int32Array(count).fill(-1);
  const post: number[] = [];
  const stack: number[] = [0];
  const next = new Int32Array(count);
  const seen = new Uint8Array(count);
  seen[0] = 1;
  for (let k = 0; k < count; k++) next[k] = firstEdge[k]!;
  while (stack.length) {
    const k = stack.at(-1)!;
    if (next[k]! < firstEdge[k + 1]!) {
      const e = next[k]!++;
      const to = edgeTo[e]!;
      if (edgeRetains[e] && !seen[to]) {
        seen[to] = 1;
        stack.push(to);
      }
    } else post.push(stack.pop()!);
  }
  const rpo = [...post].reverse();
  rpo.forEach((k, i) => (order[k] = i));
  const preds: number[][] = Array.from({ length: count }, () => []);
  for (const k of rpo) for (let e = firstEdge[k]!; e < firstEdge[k + 1]!; e++) if (edgeRetains[e] && order[edgeTo[e]!]! >= 0) preds[edgeTo[e]!]!.push(k);
  const idom = new Int32Array(count).fill(-1);
  idom[0] = 0;
  const intersect = (a: number, b: number) => {
    while (a !== b) {
      while (order[a]! > order[b]!) a = idom[a]!;
      while (order[b]! > order[a]!) b = idom[b]!;
    }
    return a;
  };
  for (let changed = true; changed;) {
    changed = false;
    for (const k of rpo) {
      if (k === 0) continue;
      let d = -1;
      for (const p of preds[k]!) if (idom[p]! >= 0) d = d < 0 ? p : intersect(p, d);
      if (d >= 0 && idom[k] !== d) {
        idom[k] = d;
        changed = true;
      }
    }
  }
  const retained = new Float64Array(count);
  for (const k of post) {
    retained[k]! += g.self[k]!;
    if (k !== 0) retained[idom[k]!]! += retained[k]!;
  }
  // Shortest retaining paths, breadth first.
  const parent = new Int32Array(count).fill(-1);
  const parentEdge: string[] = new Array<string>(count);
  parent[0] = 0;
  let front = [0];
  while (front.length) {
    const later: number[] = [];
    for (const k of front)
      for (let e = firstEdge[k]!; e < firstEdge[k + 1]!; e++) {
        const to = edgeTo[e]!;
        if (!edgeRetains[e] || parent[to]! >= 0) continue;
        parent[to] = k;
        parentEdge[to] = g.edgeName[e]!;
        later.push(to);
      }
    front = later;
  }
  Object.assign(g, { idom, retained, parent, parentEdge });
}

/** One place the later snapshot keeps more than the earlier one. */
export interface Growth {
  /** The object holding more: its kind and V8 id. */
  kind: string;
  id: number;
  /** Its retained size, bytes, in the earlier snapshot (0: it is new) and the later one. */
  before: number;
  after: number;
  /** How many objects it alone keeps alive (its dominator subtree's size less one), before and after. */
  heldBefore: number;
  heldAfter: number;
  /** The shortest path that keeps it alive, from the root, as edge names (`[n]` an element). */
  path: string[];
  /** What it keeps more of, by kind (count, retained bytes), largest first. */
  more: { kind: string; count: number; bytes: number }[];
}

/**
 * The places `late` keeps more than `early`: from the root down the dominator tree, at each object
 * the child whose retained size grew most is followed while it carries at least `share` of its
 * parent's growth; where no child does, the growth fans out there, and that object is a place.
 * Then the next largest growth not under a place already found, `top` places in all, each at least
 * `minBytes`. Where the growth fans out at the root or at one of V8's groupings of roots (a Node
 * process's heap grows a little in many places: code, a simulator's frames, a view's state), that
 * grouping is listed too, beside the places, and the search goes on below it.
 */
export function heapRetainedGrowth(early: HeapGraph, late: HeapGraph, top = 8, share = 0.5, minBytes = 4096): Growth[] {
  const byId = new Map<number, number>();
  for (let k = 0; k < early.count; k++) byId.set(early.id[k]!, k);
  const before = (k: number) => {
    const a = byId.get(late.id[k]!);
    return a === undefined ? 0 : early.retained[a]!;
  };
  const grew = (k: number) => late.retained[k]! - before(k);
  const treeOf = (g: HeapGraph) => {
    const kids: number[][] = Array.from({ length: g.count }, () => []);
    for (let k = 1; k < g.count; k++) if (g.idom[k]! >= 0) kids[g.idom[k]!]!.push(k);
    return kids;
  };
  const children = treeOf(late);
  let earlyChildren: number[][] | null = null;
  /** How many objects `root` alone keeps alive in `g`. */
  const heldIn = (kids: number[][], root: number) => {
    let n = 0;
    const stack = [...kids[root]!];
    while (stack.length) {
      n++;
      stack.push(...kids[stack.pop()!]!);
    }
    return n;
  };
  const found: Growth[] = [];
  const taken = new Set<number>();
  const groupings = new Set<number>();
  // Candidates: every object whose retained size grew by minBytes, largest growth first.
  const candidates = [];
  for (let k = 0; k < late.count; k++) if (grew(k) >= minBytes) candidates.push(k);
  candidates.sort((a, b) => grew(b) - grew(a));
  const under = (k: number) => {
    for (let x = k; ; x = late.idom[x]!) {
      if (taken.has(x)) return true;
      if (x === 0 || late.idom[x]! < 0) return false;
    }
  };
  for (const start of candidates) {
    if (found.length - groupings.size >= top) break;
    if (under(start)) continue;
    // Down while one child carries `share` of the growth.
    let k = start;
    for (;;) {
      const best = children[k]!.reduce((b, c) => (b < 0 || grew(c) > grew(b) ? c : b), -1);
      if (best < 0 || grew(best) < share * grew(k)) break;
      k = best;
    }
    if (under(k)) continue;
    // Growth that fans out at the root or one of V8's groupings of roots ((GC roots), (Handle scope)…)
    // is spread over many holders: it is printed once, with what it holds more of by kind, but not taken
    // (nor counted among the places), so that each holder under it is still found.
    const grouping = k === 0 || late.kind[k] === '(synthetic)';
    if (grouping && groupings.has(k)) continue;
    if (grouping) groupings.add(k);
    else taken.add(k);
    const more = new Map<string, { kind: string; count: number; bytes: number }>();
    for (const c of children[k]!) {
      const d = grew(c);
      if (d <= 0) continue;
      const x = more.get(late.kind[c]!) ?? { kind: late.kind[c]!, count: 0, bytes: 0 };
      x.count += before(c) === 0 ? 1 : 0;
      x.bytes += d;
      more.set(x.kind, x);
    }
    const pathTo: string[] = [];
    for (let x = k; x !== 0 && late.parent[x]! >= 0 && pathTo.length < 40; x = late.parent[x]!) pathTo.unshift(`${late.parentEdge[x]} (${late.kind[x]})`);
    const a = byId.get(late.id[k]!);
    found.push({
      kind: late.kind[k]!,
      id: late.id[k]!,
      before: before(k),
      after: late.retained[k]!,
      heldBefore: a === undefined ? 0 : heldIn((earlyChildren ??= treeOf(early)), a),
      heldAfter: heldIn(children, k),
      path: pathTo,
      more: [...more.values()].sort((x, y) => y.bytes - x.bytes).slice(0, 8),
    });
  }
  return found;
}

if (process.argv[1] && import.meta.filename === path.resolve(process.argv[1])) {
  const [a, b, top = '8'] = process.argv.slice(2);
  if (!a || !b) throw new Error('usage: tsx bench/heap-retained.ts EARLY.heapsnapshot LATE.heapsnapshot [top]');
  const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  const [early, late] = [heapGraph(readFileSync(a, 'utf8')), heapGraph(readFileSync(b, 'utf8'))];
  console.log(`heap: ${kib(early.retained[0]!)} → ${kib(late.retained[0]!)} (retained by the root, V8's and Blink's nodes together)`);
  for (const g of heapRetainedGrowth(early, late, Number(top))) {
    console.log(`\n+${kib(g.after - g.before)}  ${g.kind} @${g.id}: ${kib(g.before)} → ${kib(g.after)}, holding ${g.heldBefore} → ${g.heldAfter} objects`);
    console.log(`  kept by: ${g.path.join(' → ')}`);
    for (const x of g.more) console.log(`  more: ${x.kind.padEnd(50)} ${String(x.count).padStart(6)} new  +${kib(x.bytes)}`);
  }
}
