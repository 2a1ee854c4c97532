// npm run fuzz [-- --cases N] [--seed S] [--only NAME,…]: the fuzz campaign of tests/fuzz/parsers.ts,
// 1,000,000 cases per parser unless told otherwise; prints cases, time and the result per parser.
import { parseArgs } from 'node:util';
import { fuzz, PARSERS, type ParserName } from './parsers.js';

const { values } = parseArgs({ options: { cases: { type: 'string', default: '1000000' }, seed: { type: 'string' }, only: { type: 'string' } } });
const cases = Number(values.cases);
if (!Number.isSafeInteger(cases) || cases < 1) throw new Error('--cases must be a positive integer');
const seed = values.seed === undefined ? Date.now() % 2 ** 31 : Number(values.seed);
const all = Object.keys(PARSERS) as ParserName[];
const names = values.only ? values.only.split(',').map((n) => n.trim()) : all;
const unknown = names.filter((n) => !all.includes(n as ParserName));
if (unknown.length) throw new Error(`unknown parser ${unknown.join(', ')}; known: ${all.join(', ')}`);
let failed = 0;
for (const name of names as ParserName[]) {
  const t0 = performance.now();
  try {
    fuzz(name, cases, seed);
    console.log(`${name}\t${cases} cases\tseed ${seed}\t${((performance.now() - t0) / 1000).toFixed(1)} s\tok`);
  } catch (e) {
    failed++;
    console.log(`${name}\t${cases} cases\tseed ${seed}\tFAILED\n${e instanceof Error ? e.message : String(e)}`);
  }
}
process.exit(failed ? 1 : 0);
