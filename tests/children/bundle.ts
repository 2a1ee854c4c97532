// A child process's TypeScript entry bundled into one JavaScript file, once per test process. A
// child started through tsx spends most of its start loading our ~600 TypeScript modules one by one
// through tsx's loader (measured in docs/testing.md); bundled, it loads one file and the packages
// (left outside, resolved from the repository's node_modules, which is why the file is written under
// it). The child runs the same source: each module's `import.meta.url`/`dirname`/`filename` is
// rewritten to that module's own path, so whatever it finds beside itself (the catalogues, dist/,
// the program files it hashes, package.json) it finds where it does under tsx. The file is removed
// when the test process exits.
import { readFile } from 'node:fs/promises';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

const root = path.resolve(import.meta.dirname, '../..');

/** `import.meta.url`, `.dirname` and `.filename` of each of our modules as its source's own. */
const ownImportMeta: Plugin = {
  name: 'own-import-meta',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      // A tool's commands are loaded with `import(\`./x/${name}.ts\`)`, which esbuild bundles as every
      // file the pattern matches: a test file is never dispatched to, and is kept out.
      if (args.path.endsWith('.test.ts')) return { contents: "throw new Error('a test file is not a child');", loader: 'js' };
      const source = await readFile(args.path, 'utf8');
      const contents = source
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
        .replaceAll('import.meta.filename', JSON.stringify(args.path));
      return { contents, loader: 'ts' };
    });
  },
};

const built = new Map<string, Promise<string>>();

/**
 * The bundle of `entry` (a path from the repository root), built on the first call in this
 * process; `node <file> …args` runs it as `node --import tsx <entry> …args` would.
 */
export function bundledChild(entry: string): Promise<string> {
  let file = built.get(entry);
  if (!file) {
    file = bundle(entry);
    built.set(entry, file);
  }
  return file;
}

async function bundle(entry: string): Promise<string> {
  const dir = path.join(root, 'node_modules/.cache/etg-test-children');
  mkdirSync(dir, { recursive: true });
  const outfile = path.join(dir, `${path.basename(entry, '.ts')}-${process.pid}.mjs`);
  process.once('exit', () => rmSync(outfile, { force: true }));
  await build({
    entryPoints: [path.join(root, entry)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    // The native packages load from node_modules; every other package is bundled too (as the
    // cabinet's bundle does, deploy/build.ts), which spares the child loading hundreds of their files.
    external: ['better-sqlite3', 'usb', 'serialport', '@electric-sql/pglite', 'pg-native', 'esbuild', 'tsx'],
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    plugins: [ownImportMeta],
    logLevel: 'warning',
    absWorkingDir: root,
  });
  return outfile;
}
