// A heap snapshot made by hand for the heap tools' tests: the few fields of V8's layout they read.

/**
 * A snapshot in V8's layout: nodes [type, name, self size], edges [from, name, to], and closures'
 * locations [closure, line, column].
 */
export function snapshot(nodes: [string, string, number][], edges: [number, string, number][], locations: [number, number, number][]): string {
  const types = ['hidden', 'array', 'string', 'object', 'code', 'closure'];
  const strings: string[] = [];
  const str = (x: string) => (strings.includes(x) ? strings.indexOf(x) : strings.push(x) - 1);
  const nodeFields = ['type', 'name', 'id', 'self_size', 'edge_count'];
  const flatNodes = nodes.flatMap(([type, name, size], i) => [types.indexOf(type), str(name), i, size, edges.filter((e) => e[0] === i).length]);
  const flatEdges = nodes.flatMap((_, i) => edges.filter((e) => e[0] === i).flatMap(([, name, to]) => [2, str(name), to * nodeFields.length]));
  return JSON.stringify({
    snapshot: {
      meta: {
        node_fields: nodeFields,
        node_types: [types],
        edge_fields: ['type', 'name_or_index', 'to_node'],
        edge_types: [['context', 'element', 'property', 'internal', 'hidden', 'shortcut', 'weak']],
        location_fields: ['object_index', 'script_id', 'script_object_index', 'line', 'column'],
      },
    },
    nodes: flatNodes,
    edges: flatEdges,
    strings,
    locations: locations.flatMap(([k, line, column]) => [k * nodeFields.length, 1, 0, line, column]),
  });
}
