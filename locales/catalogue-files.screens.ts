// The screens' catalogues (locales/package.json `imports`, condition "screens", which only the
// renderer's build sets: scripts/vite-renderer.config.ts): Vite lists
// locales/catalogues/ when it bundles, none named here but the source. A page holds the source
// catalogue (every screen falls back to it, and checks keys from the wire against it) and each
// other language only once it is shown: each is a chunk of its own, loaded on the first switch to it
// (locales/index.ts, `loadCatalogue`). Four catalogues held at once were about 0.3 MB of a page's
// JS heap (docs/benchmarks.md). Every catalogue's `language` section (its own name, its Intl locale)
// is in the page from the start, for the language buttons.

declare global {
  interface ImportMeta {
    glob(pattern: string | string[], options: { eager: true; import: string; query?: string }): Record<string, unknown>;
    glob(pattern: string | string[], options: { eager?: false; import: string }): Record<string, () => Promise<unknown>>;
  }
}

const tagOf = (path: string) => path.replace(/^.*\/([^/]+)\.json$/, '$1');
const byTag = <T>(files: Record<string, T>): Record<string, T> => Object.fromEntries(Object.entries(files).map(([path, v]) => [tagOf(path), v]));

/** The source catalogue, whole: the only one in the page from the start. */
export const catalogueFiles: Readonly<Record<string, unknown>> = byTag(import.meta.glob('./catalogues/zh-Hant.json', { eager: true, import: 'default' }));

/** Every other catalogue, by language tag: a chunk each, fetched when called. */
export const catalogueLoaders: Readonly<Record<string, () => Promise<unknown>>> = byTag(
  import.meta.glob(['./catalogues/*.json', '!./catalogues/zh-Hant.json'], { import: 'default' }),
);

/** Every catalogue's `language` section, by tag (a query of its own, so the bundle takes that section alone). */
export const languageSections: Readonly<Record<string, unknown>> = byTag(
  import.meta.glob('./catalogues/*.json', { eager: true, import: 'default', query: '?language' }),
);
