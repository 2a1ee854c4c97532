// A child process's TypeScript entry bundled into one JavaScript file, once per run of the suite. A
// child started through tsx spends most of its start loading our ~600 TypeScript modules one by one
// through tsx's loader (measured in docs/testing.md); bundled, it loads one file and the packages
// (left outside, resolved from the repository's node_modules, which is why the file is written under
// it). The child runs the same source: each module's `import.meta.url`/`dirname`/`filename` is
// rewritten to that module's own path, so whatever it finds beside itself (the catalogues, dist/,
// the program files it hashes, package.json) it finds where it does under tsx.
//
// The bundle is kept under node_modules/.cache/etg-test-children/ by the key of what it was made
// from (`sourcesKey`): the content of every file esbuild put in it, the names of every source file
// of the repository (a file added where a pattern import takes it), this file and esbuild's version.
// A test process that finds a bundle under the key of the files as they are now runs that one;
// any other key is built afresh. So the suite's test files (and the browser run after them) share
// one bundle of `etg` instead of each building its own, and a stale one is never run.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, version as esbuildVersion, type Plugin } from 'esbuild';

const root = path.resolve(import.meta.dirname, '../..');
const cacheDir = path.join(root, 'node_modules/.cache/etg-test-children');

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

/** `import.meta.url`, `.dirname` and `.filename` of each of our modules as its source's own; `read` gets each source as read. */
function ownImportMeta(read: Map<string, string>): Plugin {
  return {
    name: 'own-import-meta',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        // A tool's commands are loaded with `import(\`./x/${name}.ts\`)`, which esbuild bundles as every
        // file the pattern matches: a test file is never dispatched to, and is kept out.
        if (args.path.endsWith('.test.ts')) return { contents: "throw new Error('a test file is not a child');", loader: 'js' };
        const source = await readFile(args.path, 'utf8');
        read.set(args.path, sha256(source));
        const contents = source
          .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
          .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
          .replaceAll('import.meta.filename', JSON.stringify(args.path));
        return { contents, loader: 'ts' };
      });
    },
  };
}

/** Folders no bundle takes a source from (installed packages are keyed by their files esbuild read). */
const NOT_SOURCES = new Set(['node_modules', 'dist', 'test-results', 'playwright-report', 'artifacts', '.tsbuild', '.data']);
const SOURCE = /\.(?:[cm]?ts|tsx|[cm]?js|json)$/;

/** The source files under `dir` (relative, sorted): the names a pattern import could take. */
function sourceNames(dir: string): string[] {
  const names: string[] = [];
  const walk = (rel: string): void => {
    for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory() && !e.name.startsWith('.') && !NOT_SOURCES.has(e.name)) walk(p);
      else if (e.isFile() && SOURCE.test(e.name)) names.push(p);
    }
  };
  walk('');
  return names.sort();
}

/**
 * The key of a bundle of `entry` made from `inputs` (paths relative to `dir`, as esbuild's metafile
 * names them) in the repository at `dir`: each input's content (`read` gives the hash of those the
 * plugin read itself, so the key is of what went into the bundle even if a file changed since), the
 * names of the repository's source files, how the bundle is made (this file) and by which esbuild.
 */
export function sourcesKey(dir: string, entry: string, inputs: readonly string[], read: ReadonlyMap<string, string> = new Map()): string {
  const hash = createHash('sha256');
  hash.update(`${esbuildVersion}\0${dir}\0${entry}\0${sha256(readFileSync(import.meta.filename))}\n`);
  for (const input of [...inputs].sort()) {
    const file = path.resolve(dir, input);
    let content = read.get(file);
    if (content === undefined) {
      try {
        content = sha256(readFileSync(file));
      } catch {
        content = 'absent'; // Not a file (a module esbuild made up), or gone.
      }
    }
    hash.update(`${input}\0${content}\n`);
  }
  for (const name of sourceNames(dir)) hash.update(`${name}\n`);
  return hash.digest('hex').slice(0, 24);
}

const built = new Map<string, Promise<string>>();

/**
 * The bundle of `entry` (a path from the repository root), looked up or built on the first call in
 * this process; `node <file> …args` runs it as `node --import tsx <entry> …args` would.
 */
export function bundledChild(entry: string): Promise<string> {
  let file = built.get(entry);
  if (!file) {
    file = bundle(entry);
    built.set(entry, file);
  }
  return file;
}

/** The bundle made from the files as they are now, if one was kept: its path, else null. */
function kept(name: string, entry: string): string | null {
  let inputs: string[];
  try {
    inputs = (JSON.parse(readFileSync(path.join(cacheDir, `${name}.inputs.json`), 'utf8')) as { inputs: string[] }).inputs;
  } catch {
    return null;
  }
  const file = path.join(cacheDir, `${name}-${sourcesKey(root, entry, inputs)}.mjs`);
  if (!existsSync(file)) return null;
  const now = new Date();
  utimesSync(file, now, now); // Its time is its last use (pruning, below).
  return file;
}

/** Files of another key not used for an hour: no test still starts children from them. */
function prune(name: string, keep: string): void {
  const hourAgo = Date.now() - 3_600_000;
  for (const f of readdirSync(cacheDir)) {
    const file = path.join(cacheDir, f);
    if (!f.startsWith(`${name}-`) || file === keep) continue;
    try {
      if (statSync(file).mtimeMs < hourAgo) rmSync(file, { force: true });
    } catch {
      // Removed by another process meanwhile.
    }
  }
}

async function bundle(entry: string): Promise<string> {
  mkdirSync(cacheDir, { recursive: true });
  const name = entry.replace(/\.ts$/, '').replaceAll('/', '~');
  const found = kept(name, entry);
  if (found) return found;
  const unique = `${process.pid}-${Date.now()}`;
  const tmp = path.join(cacheDir, `${name}-${unique}.tmp.mjs`);
  const read = new Map<string, string>();
  try {
    const result = await build({
      entryPoints: [path.join(root, entry)],
      outfile: tmp,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node24',
      // The native packages load from node_modules; every other package is bundled too (as the
      // cabinet's bundle does, deploy/build.ts), which spares the child loading hundreds of their files.
      external: ['better-sqlite3', 'usb', 'serialport', '@electric-sql/pglite', 'pg-native', 'esbuild', 'tsx'],
      banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
      plugins: [ownImportMeta(read)],
      logLevel: 'warning',
      absWorkingDir: root,
      metafile: true,
    });
    const inputs = Object.keys(result.metafile.inputs);
    const file = path.join(cacheDir, `${name}-${sourcesKey(root, entry, inputs, read)}.mjs`);
    // Renamed whole into place: a process that looks it up at the same time finds it complete or not at all.
    renameSync(tmp, file);
    const list = path.join(cacheDir, `${name}.inputs.${unique}.json`);
    writeFileSync(list, JSON.stringify({ inputs }));
    renameSync(list, path.join(cacheDir, `${name}.inputs.json`));
    prune(name, file);
    return file;
  } finally {
    rmSync(tmp, { force: true });
  }
}
