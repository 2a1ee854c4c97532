// `npm run lint`'s size check (issue 32, docs/architecture.md "No god objects"): no file of
// engine/, host/ or renderer/ over 600 lines and no function of host/ or renderer/ over 80,
// beyond those that were so when the check came (scripts/sizes/allowed.json), which may only
// shrink. Prints what is over and fails on anything new or grown.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readSources } from './cycles/import-cycles.js';
import { judge, overLimits } from './sizes/measure.js';

const root = path.resolve(import.meta.dirname, '..');
const allowed = JSON.parse(readFileSync(path.join(import.meta.dirname, 'sizes', 'allowed.json'), 'utf8')) as Record<string, number>;
const sources = new Map([...readSources(root)].map(([file, text]) => [path.relative(root, file), text]));
const over = overLimits(sources);
const { failures, shrunk } = judge(over, allowed);
for (const w of shrunk) console.log(`sizes: ${w} is shorter than scripts/sizes/allowed.json says: lower or remove its entry`);
for (const f of failures) console.error(`sizes: ${f}`);
if (failures.length > 0) {
  console.error('split it into files and functions with names that say one thing (docs/architecture.md); never raise the list');
  process.exitCode = 1;
}
