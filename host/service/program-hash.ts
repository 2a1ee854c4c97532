import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** The folders and files that make up the running program (sources run by tsx, the built screens). */
export const PROGRAM_PARTS = ['engine', 'hardware', 'ledger', 'host', 'protocol', 'locales', 'electron', 'dist/renderer', 'package.json', 'package-lock.json'];

const SKIP = /(^|\/)(node_modules|\.git)(\/|$)|\.test\.ts$/;

async function files(root: string, rel: string): Promise<string[]> {
  const full = path.join(root, rel);
  if (!existsSync(full)) return [];
  const entries = await readdir(full, { withFileTypes: true }).catch(() => null);
  if (entries === null) return [rel];
  const out: string[] = [];
  for (const e of entries) {
    const child = path.posix.join(rel, e.name);
    if (SKIP.test(child)) continue;
    if (e.isDirectory()) out.push(...(await files(root, child)));
    else if (e.isFile()) out.push(child);
  }
  return out;
}

/**
 * SHA-256 over the sorted list of `path NUL sha256(file)` of every program file: the figure a
 * regulator's inspector compares with the approved build. Computed at start and on demand, so a
 * file changed while the kiosk runs shows as a different hash on the Status page.
 */
export async function programHash(root: string, parts: readonly string[] = PROGRAM_PARTS): Promise<{ hash: string; files: number }> {
  const list = (await Promise.all(parts.map((p) => files(root, p)))).flat().sort();
  const outer = createHash('sha256');
  for (const rel of list) {
    const inner = createHash('sha256').update(await readFile(path.join(root, rel))).digest('hex');
    outer.update(`${rel}\0${inner}\n`);
  }
  return { hash: outer.digest('hex'), files: list.length };
}
