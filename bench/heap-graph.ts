// A V8 heap snapshot's JSON read by node index, for the bench's tools that walk it
// (heap-code-by-function.ts, heap-code-windows.ts). The snapshot keeps its nodes and edges as flat
// arrays of numbers whose fields its `meta` names; this reads the fields by name once, and gives each
// node's first edge, so the tools ask by node (`type(k)`, `name(k)`) and by edge (`target(j)`).

/** The parts of a heap snapshot's JSON these tools read. */
export interface SnapshotJson {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]]; location_fields?: string[] } };
  nodes: number[];
  edges: number[];
  strings: string[];
  locations?: number[];
}

/** A snapshot's nodes by index 0…count−1; node k's edges are j = first[k], first[k] + E, … below first[k + 1]. */
export function snapshotIndex(json: string) {
  const s = JSON.parse(json) as SnapshotJson;
  const m = s.snapshot.meta;
  const N = m.node_fields.length;
  const E = m.edge_fields.length;
  const field = (f: string) => m.node_fields.indexOf(f);
  const [ti, ni, ii, si, eci] = [field('type'), field('name'), field('id'), field('self_size'), field('edge_count')];
  const types = m.node_types[0];
  const etypes = m.edge_types[0];
  const count = s.nodes.length / N;
  const first = new Int32Array(count + 1);
  for (let k = 0, e = 0; k < count; k++) {
    first[k] = e;
    e += s.nodes[k * N + eci]! * E;
    first[k + 1] = e;
  }
  return {
    s,
    N,
    E,
    count,
    first,
    type: (k: number) => types[s.nodes[k * N + ti]!],
    name: (k: number) => s.strings[s.nodes[k * N + ni]!] ?? '',
    id: (k: number) => s.nodes[k * N + ii]!,
    size: (k: number) => s.nodes[k * N + si]!,
    /** An edge's name: '' for an element or hidden edge, whose name field is an index, not a string. */
    edgeName: (j: number) => (etypes[s.edges[j]!] === 'element' || etypes[s.edges[j]!] === 'hidden' ? '' : (s.strings[s.edges[j + 1]!] ?? '')),
    isWeak: (j: number) => etypes[s.edges[j]!] === 'weak',
    /** The node an edge points to. */
    target: (j: number) => s.edges[j + 2]! / N,
  };
}
