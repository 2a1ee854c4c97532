import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import path from 'node:path';

/**
 * The program hash: SHA-256 over the sorted `path NUL sha256(file) LF` of every file the running
 * program is made of, the figure a gaming inspector compares with the approved build. Which files
 * those are depends on how the kiosk runs:
 *
 * - `tsx` (`npm start`, the browser modes): our TypeScript run by tsx — engine, hardware, ledger,
 *   host, protocol, locales, cli, and bin/etg.js that starts it — the built screens (dist/renderer), package.json,
 *   package-lock.json, tsconfig.base.json, and the packages the host loads at run time with
 *   everything they depend on (`HOST_RUNTIME_PACKAGES`), tsx itself included;
 * - `electron` (dist/electron/host.mjs in Electron's utility process): the bundles in
 *   dist/electron (main, preload, host: our code and the pure-JS packages are inside them), the
 *   built screens, package.json, and the native packages left outside the bundle (better-sqlite3,
 *   usb) with their dependencies;
 * - `packaged` (the .deb or AppImage: the host bundle inside `resources/app.asar`): every file of
 *   the installation folder — the Electron executable (its fuses are bytes of it), its libraries
 *   and resources, `resources/app.asar` hashed whole as one file (the bundles, the screens and
 *   package.json are inside it; Electron checks no ASAR integrity on Linux, so this hash is what
 *   covers it there), the native modules unpacked beside it, and the technicians' tools.
 *
 * Of a package, the files Node can load are hashed (.js .cjs .mjs .json .node .wasm, and the
 * executables in a `bin/` folder, e.g. the esbuild binary tsx runs); sources of native code,
 * type declarations and read-me files are not part of what runs. Test files are never hashed.
 */
export type ProgramMode = 'tsx' | 'electron' | 'packaged';

/** Packages the host imports at run time; `program-hash.test.ts` checks every bare import is here. */
export const HOST_RUNTIME_PACKAGES = [
  'better-sqlite3',
  'fastify',
  '@fastify/static',
  '@fastify/websocket',
  '@peculiar/x509',
  'i18next',
  'nats', // host/edges: the fan-out to edge processes (docs/stadium.md)
  'pino',
  'prom-client',
  'semver',
  'serialport',
  'usb',
  'ws',
  'zod',
] as const;
/** Left outside the Electron bundle (scripts/build-electron.ts `external`), so loaded from node_modules. */
const ELECTRON_EXTERNAL_PACKAGES = ['better-sqlite3', 'serialport', 'usb'] as const;

const OUR_PARTS = [
  'bin',
  'engine',
  'hardware',
  'ledger',
  'host',
  'protocol',
  'locales',
  'cli',
  'dist/renderer',
  'package.json',
  'package-lock.json',
  'tsconfig.base.json',
];

export interface ProgramLayout {
  mode: ProgramMode;
  /** The folder the paths of the manifest are relative to (the repository or install root). */
  root: string;
  /** Our own folders and files (relative to root). */
  parts: string[];
  /** Installed packages (relative to root, `node_modules/…`), from package-lock.json. */
  packages: string[];
}

/**
 * The layout of the program running this module: `moduleDir` is the folder of the calling module
 * (host/ under tsx, dist/electron/ inside the Electron bundle).
 */
export function programLayout(moduleDir: string, mode?: ProgramMode): ProgramLayout {
  const asar = asarOf(moduleDir);
  if (asar && (mode === undefined || mode === 'packaged')) return layoutAt(path.dirname(path.dirname(asar)), 'packaged');
  const inBundle = path.basename(moduleDir) === 'electron' && path.basename(path.dirname(moduleDir)) === 'dist';
  const m = mode ?? (inBundle ? 'electron' : 'tsx');
  const root = inBundle ? path.resolve(moduleDir, '../..') : path.resolve(moduleDir, '..');
  return layoutAt(root, m);
}

/** The layout of a program installed at `root` (the command line's reference hash of an approved build). */
export function layoutAt(root: string, mode: ProgramMode): ProgramLayout {
  if (mode === 'packaged') return { mode, root, parts: ['.'], packages: [] };
  if (mode === 'electron') {
    return { mode, root, parts: ['dist/electron', 'dist/renderer', 'package.json'], packages: runtimePackages(root, ELECTRON_EXTERNAL_PACKAGES) };
  }
  return { mode, root, parts: OUR_PARTS, packages: runtimePackages(root, [...HOST_RUNTIME_PACKAGES, 'tsx']) };
}

/** `…/resources/app.asar` when `dir` is inside an ASAR archive, else null. */
export function asarOf(dir: string): string | null {
  const parts = path.resolve(dir).split(path.sep);
  const at = parts.findIndex((p) => p.endsWith('.asar'));
  return at > 0 ? parts.slice(0, at + 1).join(path.sep) : null;
}

interface LockPackage {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

/** `roots` and everything they depend on, as package-lock.json resolves them (installed ones only). */
export function runtimePackages(root: string, roots: readonly string[]): string[] {
  const file = path.join(root, 'package-lock.json');
  if (!existsSync(file)) return [];
  const lock = JSON.parse(readFileSync(file, 'utf8')) as { packages?: Record<string, LockPackage> };
  const packages = lock.packages ?? {};
  // Node's resolution: node_modules of the requiring package, then of each folder above it.
  const resolve = (name: string, from: string): string | null => {
    let base = from;
    for (;;) {
      const key = `${base ? `${base}/` : ''}node_modules/${name}`;
      if (packages[key]) return key;
      if (!base) return null;
      const cut = base.lastIndexOf('/node_modules/');
      base = cut < 0 ? '' : base.slice(0, cut);
    }
  };
  const seen = new Set<string>();
  const todo = roots.map((r) => resolve(r, ''));
  while (todo.length > 0) {
    const key = todo.pop();
    if (!key || seen.has(key)) continue;
    seen.add(key);
    const p = packages[key] ?? {};
    for (const dep of Object.keys({ ...p.dependencies, ...p.optionalDependencies })) todo.push(resolve(dep, key));
  }
  // Optional packages for other platforms are in the lock but not installed: nothing of them runs.
  return [...seen].filter((k) => existsSync(path.join(root, k))).sort();
}

const TEST_FILE = /\.test\.ts$/;
const LOADABLE = /\.(js|cjs|mjs|json|node|wasm)$/;

async function walk(root: string, rel: string, keep: (rel: string, name: string) => boolean, intoNodeModules: boolean): Promise<string[]> {
  const full = path.join(root, rel);
  if (!existsSync(full)) return [];
  const entries = await readdir(full, { withFileTypes: true }).catch(() => null);
  if (entries === null) return keep(rel, path.basename(rel)) ? [rel] : [];
  const out: string[] = [];
  for (const e of entries) {
    const child = path.posix.join(rel, e.name);
    if (e.name === '.git' || (e.name === 'node_modules' && !intoNodeModules)) continue;
    if (e.isDirectory()) out.push(...(await walk(root, child, keep, intoNodeModules)));
    else if (e.isFile() && keep(child, e.name)) out.push(child);
  }
  return out;
}

/** The files of a layout, sorted: paths relative to its root, with `/`. */
export async function programFiles(layout: ProgramLayout): Promise<string[]> {
  // An installation is hashed whole: its native modules sit in app.asar.unpacked/node_modules.
  const whole = layout.mode === 'packaged';
  const ours = (await Promise.all(layout.parts.map((p) => walk(layout.root, p, (_rel, name) => whole || !TEST_FILE.test(name), whole)))).flat();
  // Nested node_modules are packages of their own in the lock: each is walked once, from its entry.
  const theirs = (
    await Promise.all(layout.packages.map((p) => walk(layout.root, p, (rel, name) => LOADABLE.test(name) || /(^|\/)bin\/[^/]+$/.test(rel), false)))
  ).flat();
  return [...new Set([...ours, ...theirs])].sort();
}

export interface ProgramManifest {
  mode: ProgramMode;
  hash: string;
  /** `[path, sha256]` of every file, sorted by path: what a mismatch is traced with. */
  files: [string, string][];
}

export async function programManifest(layout: ProgramLayout): Promise<ProgramManifest> {
  // Inside Electron, fs reads an .asar as a folder; the packaged hash takes the archive's bytes.
  const proc = process as { noAsar?: boolean };
  const noAsar = proc.noAsar;
  if (layout.mode === 'packaged') proc.noAsar = true;
  try {
    return await manifestOf(layout);
  } finally {
    if (layout.mode === 'packaged') proc.noAsar = noAsar;
  }
}

/** A slice of the files read one after the other before the event loop is let run again. */
const SLICE_FILES = 64;
const SLICE_BYTES = 2 * 1024 * 1024;
/** A file this large or larger is read a chunk at a time, off the event loop (`hashLargeFile`). */
const LARGE_FILE_BYTES = SLICE_BYTES;
const CHUNK_BYTES = 1024 * 1024;

async function manifestOf(layout: ProgramLayout): Promise<ProgramManifest> {
  const list = await programFiles(layout);
  const sums = new Array<string>(list.length);
  // Thousands of small files, read synchronously a slice at a time: through fs/promises each file
  // was four round trips through the thread pool (open, stat, read, close), which cost the start
  // twice the CPU of reading and hashing them (docs/testing.md, 28 November evening). Between
  // slices the event loop runs, so a manifest taken while the host serves (service mode's program
  // check) holds it for one slice at most. A large file (an installation's app.asar, tens of
  // megabytes) is never read at once: it is hashed a chunk at a time through the thread pool.
  for (let i = 0; i < list.length;) {
    let bytes = 0;
    for (const end = Math.min(list.length, i + SLICE_FILES); i < end && bytes < SLICE_BYTES; i++) {
      const file = path.join(layout.root, list[i] as string);
      const size = statSync(file).size;
      bytes += size;
      sums[i] = size >= LARGE_FILE_BYTES ? await hashLargeFile(file) : createHash('sha256').update(readFileSync(file)).digest('hex');
    }
    if (i < list.length) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  const outer = createHash('sha256');
  const files = list.map((rel, i): [string, string] => [rel, sums[i] as string]);
  for (const [rel, inner] of files) outer.update(`${rel}\0${inner}\n`);
  return { mode: layout.mode, hash: outer.digest('hex'), files };
}

/** SHA-256 of a file read a chunk at a time, each read awaited: the event loop runs between chunks. */
export async function hashLargeFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
  return hash.digest('hex');
}

/** The files that differ between two manifests (the reference first). */
export function manifestDiff(
  reference: Pick<ProgramManifest, 'files'>,
  now: Pick<ProgramManifest, 'files'>,
): { changed: string[]; added: string[]; removed: string[] } {
  const a = new Map(reference.files);
  const b = new Map(now.files);
  return {
    changed: [...b].filter(([p, h]) => a.has(p) && a.get(p) !== h).map(([p]) => p),
    added: [...b.keys()].filter((p) => !a.has(p)),
    removed: [...a.keys()].filter((p) => !b.has(p)),
  };
}
