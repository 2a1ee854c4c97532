// The seeded slice of the fuzz campaign that `npm test` runs: 10,000 cases per parser
// (`npm run fuzz` runs a million and more; tests/fuzz/parsers.ts says what each checks).
import { describe, it } from 'node:test';
import { fuzz, PARSERS, type ParserName } from './parsers.js';

const CASES = 10_000;
const SEED = 20_020;

describe('fuzzed parsers (seeded slice)', () => {
  for (const name of Object.keys(PARSERS) as ParserName[]) {
    it(`${name}: ${CASES} cases, seed ${SEED}`, () => fuzz(name, CASES, SEED));
  }
});
