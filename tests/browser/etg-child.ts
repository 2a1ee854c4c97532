import { bundledChild } from '../children/bundle.js';

/**
 * The script the browser tests start a kiosk (`etg start`) and the floor's tools from: `etg` as
 * `bin/etg.js` runs it, bundled (tests/children/bundle.ts, the rule in docs/testing.md) once per
 * run before the first test (global-setup.ts), else once per worker. A kiosk started through tsx
 * spends most of its start compiling and loading our TypeScript module by module; the bundle is
 * the same source, and each module still finds what lies beside it (the built screens, the
 * catalogues, the program files it hashes) where it does under tsx.
 */
export function etgScript(): Promise<string> {
  const built = process.env['ETG_TEST_BUNDLE'];
  return built ? Promise.resolve(built) : bundledChild('tests/children/etg-entry.ts');
}
