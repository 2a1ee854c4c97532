// Folder-scale arrows (issue 53, "0 upward arrows"): the file import graph of scripts/cycles folded
// to the folders directly under one root (engine/, renderer/src/). A file directly in the root is
// its own node (engine/games.ts, renderer/src/main.ts). An edge between two folders that goes both
// ways, or any longer loop of folders, means at least one file sits in the wrong folder: the check
// names the files that make each such edge so the move is plain. Tests are left out unless asked
// for: a test may reach up to build a whole game (engine/table's tests fold a real war round).
import path from 'node:path';
import { cycles, importGraph } from './import-cycles.js';

/** The node a file belongs to under `root`: its first folder, or the file itself when directly in root. */
export function folderOf(root: string, file: string): string | undefined {
  const rel = path.relative(root, file).split(path.sep).join('/');
  if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  const parts = rel.split('/');
  return parts.length === 1 ? parts[0] : `${parts[0]}/`;
}

/** folder → folder → the file imports (`from → to`, relative to root) that make the edge. */
export type FolderGraph = Map<string, Map<string, string[]>>;

export function folderGraph(root: string, sources: ReadonlyMap<string, string>, tests = false): FolderGraph {
  const graph: FolderGraph = new Map();
  const isTest = (f: string) => /\.test\.tsx?$/.test(f);
  const rel = (f: string) => path.relative(root, f).split(path.sep).join('/');
  for (const [file, targets] of importGraph(sources)) {
    const from = folderOf(root, file);
    if (from === undefined || (!tests && isTest(file))) continue;
    if (!graph.has(from)) graph.set(from, new Map());
    const edges = graph.get(from)!;
    for (const target of targets) {
      const to = folderOf(root, target);
      if (to === undefined || to === from) continue;
      edges.set(to, [...(edges.get(to) ?? []), `${rel(file)} → ${rel(target)}`]);
    }
  }
  return graph;
}

/** The loops among folders (strongly connected components), each with the file imports inside it. */
export function folderLoops(graph: FolderGraph): { folders: string[]; imports: string[] }[] {
  const plain = new Map([...graph].map(([from, edges]) => [from, [...edges.keys()]]));
  return cycles(plain).map((folders) => {
    const inside = new Set(folders);
    const imports = folders.flatMap((from) =>
      [...(graph.get(from) ?? [])].filter(([to]) => inside.has(to)).flatMap(([to, files]) => files.map((f) => `${from} → ${to}: ${f}`)),
    );
    return { folders, imports };
  });
}
