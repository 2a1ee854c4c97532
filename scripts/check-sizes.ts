// `npm run lint`'s size check (issues 32 and 53, docs/architecture.md "No god objects"): no file of
// a runtime folder over 600 lines, no function over 80, and no exported class or interface with
// behaviour over 20 public members, beyond those that were so when each rule came
// (scripts/sizes/allowed.json, allowed-members.json), which may only shrink. Prints what is over
// and fails on anything new or grown.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { readSources } from './cycles/import-cycles.js';
import { judge, MEMBER_LIMIT, overLimits, overMembers } from './sizes/measure.js';

const root = path.resolve(import.meta.dirname, '..');
const list = (name: string) => z.record(z.string(), z.number().int()).parse(JSON.parse(readFileSync(path.join(import.meta.dirname, 'sizes', name), 'utf8')));
const sources = new Map([...readSources(root)].map(([file, text]) => [path.relative(root, file), text]));
const verdicts = [
  { file: 'allowed.json', ...judge(overLimits(sources), list('allowed.json')) },
  { file: 'allowed-members.json', ...judge(overMembers(sources), list('allowed-members.json'), () => MEMBER_LIMIT, 'public members') },
];
for (const { file, failures, shrunk } of verdicts) {
  for (const w of shrunk) console.log(`sizes: ${w} is smaller than scripts/sizes/${file} says: lower or remove its entry`);
  for (const f of failures) console.error(`sizes: ${f}`);
}
if (verdicts.some((v) => v.failures.length > 0)) {
  console.error('split it into files, functions and objects with names that say one thing (docs/architecture.md); never raise the lists');
  process.exitCode = 1;
}
