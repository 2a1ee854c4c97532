// Folder-scale arrows (docs/architecture.md, "No folder loops"): folds the import graph of engine/ and
// renderer/src/ to their first-level folders, prints every folder-to-folder edge with `--edges`, and
// fails when folders form a loop (an edge both ways is the shortest): a loop means a file sits in the
// wrong folder, and the imports that make the loop's edges are printed to show which. Test files are
// counted only with `--tests`.
import path from 'node:path';
import { readSources } from './cycles/import-cycles.js';
import { folderGraph, folderLoops } from './cycles/folder-arrows.js';

const repo = path.resolve(import.meta.dirname, '..');
const ROOTS = ['engine', 'renderer/src'];
const showEdges = process.argv.includes('--edges');
const withTests = process.argv.includes('--tests');
const sources = readSources(repo);
let loops = 0;
for (const name of ROOTS) {
  const graph = folderGraph(path.join(repo, name), sources, withTests);
  if (showEdges) {
    for (const [from, edges] of [...graph].sort(([a], [b]) => a.localeCompare(b)))
      for (const [to, files] of [...edges].sort(([a], [b]) => a.localeCompare(b))) console.log(`${name}/${from} → ${to} (${files.length})`);
  }
  for (const loop of folderLoops(graph)) {
    loops++;
    console.error(`folder loop in ${name}/: ${loop.folders.join(', ')}`);
    for (const line of loop.imports) console.error(`  ${line}`);
  }
}
if (loops > 0) {
  console.error(`${loops} folder loop(s): move the file that points the wrong way to the folder it belongs to.`);
  process.exitCode = 1;
} else console.log(`0 folder loops in ${ROOTS.join(', ')}.`);
