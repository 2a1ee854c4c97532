// Bundles what Electron runs: main and preload as CommonJS (a sandboxed preload must be one
// file), and the table host's utility-process entry as ESM. Native addons stay external.
// Used by `npm start` when an Electron binary is present; CI builds it too, to prove it bundles.
import { build } from 'esbuild';
import { cataloguesPlugin } from '../cli/esbuild-catalogues.js';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** `define`: the packaged build's (deploy/build.ts CABINET_DEFINE); none for a build from the sources. */
export async function buildElectron(outdir = path.join(root, 'dist/electron'), define: Readonly<Record<string, string>> = {}): Promise<string[]> {
  const common = {
    bundle: true,
    platform: 'node' as const,
    target: 'node22',
    sourcemap: true,
    logLevel: 'warning' as const,
    define,
    plugins: [cataloguesPlugin],
  };
  await Promise.all([
    build({ ...common, entryPoints: [path.join(root, 'electron/main.ts')], outfile: path.join(outdir, 'main.cjs'), format: 'cjs', external: ['electron'] }),
    build({
      ...common,
      entryPoints: [path.join(root, 'electron/preload.ts')],
      outfile: path.join(outdir, 'preload.cjs'),
      format: 'cjs',
      external: ['electron'],
    }),
    build({
      ...common,
      entryPoints: [path.join(root, 'host/utility-process.ts')],
      outfile: path.join(outdir, 'host.mjs'),
      format: 'esm',
      external: ['better-sqlite3', 'usb', 'serialport', 'electron'],
      // Some bundled CommonJS dependencies call require(); give the ESM bundle one.
      banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    }),
  ]);
  return ['main.cjs', 'preload.cjs', 'host.mjs'].map((f) => path.join(outdir, f));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = await buildElectron();
  console.log(`built ${files.map((f) => path.relative(root, f)).join(', ')}`);
}
