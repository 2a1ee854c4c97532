// What the workspace check reads from disk: the root package.json, each workspace's, and whether an
// installed package brings its own types (scripts/workspaces/dependencies.ts decides from these).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Manifest, Package } from './dependencies.js';
import type { InstalledManifest } from './forbidden.js';

function manifestAt(file: string): Manifest {
  return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
}

/** The root package.json and the workspaces it lists (plain folder names: no globs). */
export function readPackages(root: string): { manifest: Manifest; workspaces: Package[]; exists: (rel: string) => boolean } {
  const manifest = manifestAt(path.join(root, 'package.json'));
  const workspaces = (manifest.workspaces ?? []).map((dir) => ({ dir, manifest: manifestAt(path.join(root, dir, 'package.json')) }));
  return { manifest, workspaces, exists: (rel) => existsSync(path.join(root, rel)) };
}

interface Installed {
  types?: string;
  typings?: string;
  exports?: unknown;
}

/** Whether an `exports` map names a `types` condition anywhere. */
function exportsTypes(exports: unknown): boolean {
  if (typeof exports !== 'object' || exports === null) return false;
  return Object.entries(exports).some(([key, value]) => key === 'types' || exportsTypes(value));
}

/** `@types/x` for an installed `x` that has no types of its own and whose `@types/x` is installed; else undefined. */
export function typesFor(root: string, name: string): string | undefined {
  const dir = path.join(root, 'node_modules', name);
  const file = path.join(dir, 'package.json');
  if (!existsSync(file)) return undefined;
  const pkg = JSON.parse(readFileSync(file, 'utf8')) as Installed;
  if (pkg.types || pkg.typings || exportsTypes(pkg.exports) || existsSync(path.join(dir, 'index.d.ts'))) return undefined;
  const types = `@types/${name.startsWith('@') ? name.slice(1).replace('/', '__') : name}`;
  return existsSync(path.join(root, 'node_modules', types, 'package.json')) ? types : undefined;
}

/** A published package's package.json as installed at the root, or undefined when it is not installed. */
export function installedManifest(root: string, name: string): InstalledManifest | undefined {
  const file = path.join(root, 'node_modules', name, 'package.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as InstalledManifest) : undefined;
}
