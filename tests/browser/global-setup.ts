import { bundledChild } from '../children/bundle.js';

/**
 * Before any test: `etg` bundled once for the whole run (etg-child.ts), in the runner's process,
 * or the bundle of the same sources kept from the Node tests before it (tests/children/bundle.ts).
 * The workers inherit its path.
 */
export default async function globalSetup(): Promise<void> {
  process.env['ETG_TEST_BUNDLE'] = await bundledChild('tests/children/etg-entry.ts');
}
