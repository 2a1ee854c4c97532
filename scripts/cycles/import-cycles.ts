// No file loops (issue 32 item 5): the import graph of our own files must have no cycle, type-only
// imports included (a type loop still says two files are one concept cut in two). ESLint rules see
// one file at a time, so a loop is found here over the whole graph: TypeScript's own pre-processor
// lists each file's imports (static, dynamic, re-exports, `import type`), relative ones are resolved
// to files, and Tarjan's strongly connected components name every loop. `npm run lint` runs it.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** Folders that hold no source of ours, or only generated files. */
const IGNORED = ['node_modules', 'dist', '.tsbuild', 'test-results', 'playwright-report', 'artifacts'];
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.js', '.mjs'];

/** The file a relative specifier names: `./x.js` is `./x.ts` in source (NodeNext resolution). */
function resolve(from: string, spec: string, exists: (file: string) => boolean): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), spec);
  const stem = base.replace(/\.(m?js|jsx)$/, '');
  const candidates = [base, ...EXTENSIONS.map((e) => stem + e), ...EXTENSIONS.map((e) => path.join(base, 'index' + e))];
  return candidates.find(exists);
}

/** Each file's imports of other files in the set (paths absolute). */
export function importGraph(sources: ReadonlyMap<string, string>): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [file, text] of sources) {
    const specs = ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
    const targets = specs.map((s) => resolve(file, s, (f) => sources.has(f))).filter((f): f is string => f !== undefined);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Every loop: the strongly connected components of more than one file, or a file that imports itself. */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  // Iterative Tarjan: the repository's import chains are deeper than is safe to recurse on.
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: [string, number][] = [[start, 0]];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const [node, i] = top;
      const edges = graph.get(node) ?? [];
      if (i < edges.length) {
        top[1] = i + 1;
        const to = edges[i]!;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push([to, 0]);
        } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent[0], Math.min(low.get(parent[0])!, low.get(node)!));
      if (low.get(node) !== index.get(node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || edges.includes(node)) found.push(component.sort());
    }
  }
  return found;
}

/** One loop through a component, as a path that starts and ends at the same file, to print. */
export function loopThrough(component: readonly string[], graph: ReadonlyMap<string, readonly string[]>): string[] {
  const inside = new Set(component);
  const start = component[0]!;
  // Breadth-first from the start back to itself, staying inside the component: the shortest loop.
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const to of graph.get(node) ?? []) {
      if (to === start) {
        const loop = [start];
        for (let at = node; at !== start; at = previous.get(at)!) loop.splice(1, 0, at);
        return [...loop, start];
      }
      if (!inside.has(to) || previous.has(to)) continue;
      previous.set(to, node);
      queue.push(to);
    }
  }
  return [start, start];
}

/** The loops among `sources`, each as a readable line of paths relative to `root`. */
export function describeCycles(root: string, sources: ReadonlyMap<string, string>): string[] {
  const graph = importGraph(sources);
  return cycles(graph).map((c) => {
    const loop = loopThrough(c, graph).map((f) => path.relative(root, f).split(path.sep).join('/'));
    return `import cycle (${c.length} file${c.length === 1 ? '' : 's'}): ${loop.join(' → ')}`;
  });
}

/** Our source files under `root`, read. */
export function readSources(root: string): Map<string, string> {
  const files = ts.sys.readDirectory(
    root,
    EXTENSIONS,
    IGNORED.map((d) => `**/${d}/**`),
  );
  return new Map(files.filter((f) => !f.endsWith('.d.ts') && existsSync(f)).map((f) => [path.resolve(f), readFileSync(f, 'utf8')]));
}
