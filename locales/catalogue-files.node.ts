// The catalogues in Node (locales/package.json `imports`, the default condition): the host, the
// command line and the tests read locales/catalogues/ at start. The one file of locales/ that uses
// Node, and only Node loads it (eslint.config.js lets this file alone use Node's built-ins).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Every `<tag>.json` in a folder, parsed, by tag. A test points it at a folder of its own. */
export function readCatalogueFolder(folder: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of readdirSync(folder).sort()) {
    const m = /^(.+)\.json$/.exec(name);
    if (m?.[1]) out[m[1]] = JSON.parse(readFileSync(path.join(folder, name), 'utf8'));
  }
  return out;
}

export const catalogueFiles: Readonly<Record<string, unknown>> = readCatalogueFolder(fileURLToPath(new URL('./catalogues/', import.meta.url)));

/** Node holds every catalogue from the start: none to fetch later. */
export const catalogueLoaders: Readonly<Record<string, () => Promise<unknown>>> = {};

/** Each catalogue's `language` section, by tag. */
export const languageSections: Readonly<Record<string, unknown>> = Object.fromEntries(
  Object.entries(catalogueFiles).map(([tag, c]) => [tag, typeof c === 'object' && c !== null ? Reflect.get(c, 'language') : undefined]),
);
