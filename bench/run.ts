// `npm run bench`: runs every `bench/*.bench.ts` (or those whose name contains an argument) one
// after another in its own process, so one benchmark's heap and JIT state do not colour the next.
// Benchmarks print their own figures; nothing here asserts a timing.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((p) => f.includes(p)))
  .sort();
if (files.length === 0) {
  console.log('No benchmarks match.');
  process.exit(filters.length ? 1 : 0);
}
let failed = 0;
for (const f of files) {
  console.log(`\n── ${f} ──`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, f)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
