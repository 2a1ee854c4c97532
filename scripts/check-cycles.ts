// `npm run lint`'s cycle check (docs/architecture.md, "No file loops"): prints every import loop
// among our files and fails when there is one.
import path from 'node:path';
import { describeCycles, readSources } from './cycles/import-cycles.js';

const root = path.resolve(import.meta.dirname, '..');
const found = describeCycles(root, readSources(root));
for (const line of found) console.error(line);
if (found.length > 0) {
  console.error(`${found.length} import cycle(s): move what the files share to where it belongs, never silence the check.`);
  process.exitCode = 1;
}
