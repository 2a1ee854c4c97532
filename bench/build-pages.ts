// The page benches measure the screens as built into dist/: a folder missing there left the host
// serving no screen and a bench waiting for a page that never came (the long-run bench sat five
// minutes at "opening the station page" on a fresh clone), and a folder built from an older commit
// measures that commit's screens under this one's name. So each page bench builds what it opens
// first, with the same npm scripts `npm test` uses, and stops with the build's own error if it fails.
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const repo = path.resolve(import.meta.dirname, '..');

export type BuiltPage = 'renderer' | 'backoffice';

/** Builds each page into dist/ (`npm run build:<page>`), printing how long it took. */
export function buildPages(...pages: BuiltPage[]): void {
  for (const page of pages) {
    const t0 = performance.now();
    execFileSync('npm', ['run', '--silent', `build:${page}`], { cwd: repo, stdio: ['ignore', 'inherit', 'inherit'] });
    console.log(`  built dist/${page} from this tree in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
}
