import { bundledChild } from '../children/bundle.js';

/**
 * Before any test: `etg` bundled once for the whole run (etg-child.ts), in the runner's process,
 * which outlives every worker (the file is removed when it exits). The workers inherit its path.
 */
export default async function globalSetup(): Promise<void> {
  process.env['ETG_TEST_BUNDLE'] = await bundledChild('tests/children/etg-entry.ts');
}
