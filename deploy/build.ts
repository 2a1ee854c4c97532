// The packaging steps that need no download, in order; `npm run package` runs them and then
// electron-builder (which downloads Electron, rebuilds the native modules for its ABI and makes the
// .deb and the AppImage: docs/deploy.md). The tests run every step here on a temporary folder.
//
//   1. bundles (esbuild): Electron main and preload, the table host, the cabinet's CLIs, the upstream
//   2. the app folder electron-builder packs: bundles, built screens, a package.json of its own
//      whose only dependencies are the two native modules left out of the bundles
//   3. app.asar of that folder (native modules unpacked beside it), as electron-builder lays it out
//   4. the file list and the program hash of the packed files (host/service/program-hash.ts)
import { createPackageWithOptions, extractFile, listPackage } from '@electron/asar';
import { build } from 'esbuild';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildElectron } from '../scripts/build-electron.js';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The native modules: left outside every bundle, rebuilt for Electron's ABI by electron-builder. */
export const NATIVE = ['better-sqlite3', 'usb'] as const;

/** The technicians' tools on the cabinet (docs/deploy.md: they run with Node, not Electron). */
export const CABINET_TOOLS = ['ledger', 'service', 'devices'] as const;

const BANNER = "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);";

/** Step 1: every bundle. `out` receives electron/, tools/ and upstream/. */
export async function bundleAll(out: string): Promise<string[]> {
  const electron = await buildElectron(path.join(out, 'electron'));
  const common = {
    bundle: true,
    platform: 'node' as const,
    target: 'node20',
    format: 'esm' as const,
    sourcemap: true,
    logLevel: 'warning' as const,
    banner: { js: BANNER },
  };
  const tools = CABINET_TOOLS.map((t) => path.join(out, 'tools', `${t}.mjs`));
  await Promise.all([
    ...CABINET_TOOLS.map((t, i) =>
      build({
        ...common,
        entryPoints: [path.join(root, 'cli', `${t}.ts`)],
        outfile: tools[i] as string,
        external: [...NATIVE, '@electric-sql/pglite', 'pg-native'],
      }),
    ),
    // The upstream runs on a casino server (a container or a systemd unit), with PostgreSQL.
    build({
      ...common,
      entryPoints: [path.join(root, 'cli', 'upstream.ts')],
      outfile: path.join(out, 'upstream', 'upstream.mjs'),
      // PGlite loads its WebAssembly beside its own module: installed as a package, not bundled. The
      // natives are reachable from the tool table (cli/tools.ts) but never loaded by the upstream's commands.
      external: ['@electric-sql/pglite', 'pg-native', ...NATIVE],
    }),
  ]);
  return [...electron, ...tools, path.join(out, 'upstream', 'upstream.mjs')];
}

/** The installed version of a package of ours (package-lock.json resolved it). */
function installedVersion(name: string): string {
  return (JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * Step 2: the app folder (`dist/app`, electron-builder's `directories.app`): the bundles, the
 * screens, and a package.json naming the entry and the native dependencies only.
 */
export function stageApp(bundles: string, rendererDir: string, appDir: string): void {
  rmSync(appDir, { recursive: true, force: true });
  mkdirSync(path.join(appDir, 'dist'), { recursive: true });
  cpSync(path.join(bundles, 'electron'), path.join(appDir, 'dist', 'electron'), { recursive: true, filter: (f) => !f.endsWith('.map') });
  cpSync(rendererDir, path.join(appDir, 'dist', 'renderer'), { recursive: true });
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { name: string; version: string; description: string };
  const app = {
    name: pkg.name,
    version: pkg.version,
    description: pkg.description,
    main: 'dist/electron/main.cjs',
    type: 'commonjs',
    private: true,
    dependencies: Object.fromEntries(NATIVE.map((n) => [n, installedVersion(n)])),
  };
  writeFileSync(path.join(appDir, 'package.json'), `${JSON.stringify(app, null, 2)}\n`);
}

/**
 * Step 3 (dry run): app.asar as electron-builder packs it, with the native modules' files copied
 * from this machine's node_modules (built for Node here; electron-builder rebuilds them for
 * Electron) and `*.node` unpacked beside the archive.
 */
export async function packAsar(appDir: string, resourcesDir: string, packages: readonly string[]): Promise<string> {
  const staged = `${appDir}.with-modules`;
  rmSync(staged, { recursive: true, force: true });
  cpSync(appDir, staged, { recursive: true });
  for (const p of packages)
    cpSync(path.join(root, p), path.join(staged, p), { recursive: true, filter: (f) => !/\/(src|deps|test|docs)(\/|$)/.test(f.slice(root.length)) });
  mkdirSync(resourcesDir, { recursive: true });
  const asar = path.join(resourcesDir, 'app.asar');
  await createPackageWithOptions(staged, asar, { unpack: '*.node' });
  rmSync(staged, { recursive: true, force: true });
  return asar;
}

export { extractFile, listPackage };

export function fileExists(p: string): boolean {
  return existsSync(p);
}

/**
 * `npm run package` (and `npm run package:dry-run`): bundles into dist/bundles, the app folder in
 * dist/app, the tools in dist/tools with the native modules they load (built for this Node's ABI:
 * the cabinet runs them with a Node of the same major version), and with `--dry-run` app.asar in
 * dist/dry-run/resources and the program hash of that tree. Without `--dry-run`, electron-builder
 * takes over from dist/app (deploy/electron-builder.json).
 */
async function main(dryRun: boolean): Promise<void> {
  const { runtimePackages, programLayout, programManifest } = await import('../host/service/program-hash.js');
  const dist = path.join(root, 'dist');
  const renderer = path.join(dist, 'renderer');
  if (!existsSync(path.join(renderer, 'index.html'))) throw new Error('dist/renderer is not built: npm run build:renderer first');
  const bundles = path.join(dist, 'bundles');
  const built = await bundleAll(bundles);
  stageApp(bundles, renderer, path.join(dist, 'app'));
  const tools = path.join(dist, 'tools');
  rmSync(tools, { recursive: true, force: true });
  cpSync(path.join(bundles, 'tools'), tools, { recursive: true, filter: (f) => !f.endsWith('.map') });
  for (const p of runtimePackages(root, NATIVE)) cpSync(path.join(root, p), path.join(tools, p), { recursive: true });
  console.log(`bundled ${built.map((f) => path.relative(root, f)).join(', ')}; staged dist/app and dist/tools`);
  if (!dryRun) return;
  const install = path.join(dist, 'dry-run');
  rmSync(install, { recursive: true, force: true });
  const asar = await packAsar(path.join(dist, 'app'), path.join(install, 'resources'), runtimePackages(root, NATIVE));
  const files = listPackage(asar, { isPack: false });
  const m = await programManifest(programLayout(path.join(asar, 'dist', 'electron')));
  console.log(`packed ${path.relative(root, asar)}: ${files.length} entries; program hash of dist/dry-run (no Electron executable): ${m.hash}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main(process.argv.includes('--dry-run'));
