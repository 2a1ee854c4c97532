import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { cataloguesPlugin } from '../esbuild-catalogues.js';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * The kill target as one JavaScript file, built once per campaign. Started through tsx, a child
 * spends most of its start compiling and resolving TypeScript; bundled, it loads one file plus the
 * packages it imports (better-sqlite3, pino, zod), left outside the bundle and resolved from the
 * project's node_modules, which is why the file is written under it. One file per process, so
 * that a test and a campaign running at once never start a target from a file being rewritten;
 * `dispose` removes it.
 */
export async function bundleTarget(): Promise<{ file: string; dispose: () => void }> {
  const outDir = path.join(root, 'node_modules/.cache/etg-kill-trials');
  mkdirSync(outDir, { recursive: true });
  const outfile = path.join(outDir, `target-${process.pid}.mjs`);
  await build({
    entryPoints: [path.join(root, 'cli/kill-trials/target.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    packages: 'external',
    plugins: [cataloguesPlugin],
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  return { file: outfile, dispose: () => ['', '.map'].forEach((x) => rmSync(outfile + x, { force: true })) };
}

/** The same target through tsx's loader, unbundled: the baseline that the bundle's start is measured against. */
export function targetThroughTsx(): { execArgv: string[]; entry: string } {
  return { execArgv: ['--import', 'tsx'], entry: path.join(root, 'cli/kill-trials/target.ts') };
}
