// The back office's catalogues (locales/package.json `imports`, condition "browser"): Vite lists
// locales/catalogues/ when it bundles, so every catalogue there is in the page, none named here.

declare global {
  interface ImportMeta {
    glob(pattern: string, options: { eager: true; import: 'default' }): Record<string, unknown>;
  }
}

const files = import.meta.glob('./catalogues/*.json', { eager: true, import: 'default' });

/** The catalogues by language tag: `./catalogues/zh-Hans.json` is `zh-Hans`. */
export const catalogueFiles: Readonly<Record<string, unknown>> = Object.fromEntries(
  Object.entries(files).map(([path, catalogue]) => [path.replace(/^.*\/([^/]+)\.json$/, '$1'), catalogue]),
);

/** Every catalogue is held from the start (the back office's page): none to fetch later. */
export const catalogueLoaders: Readonly<Record<string, () => Promise<unknown>>> = {};

/** Each catalogue's `language` section, by tag. */
export const languageSections: Readonly<Record<string, unknown>> = Object.fromEntries(
  Object.entries(catalogueFiles).map(([tag, c]) => [tag, typeof c === 'object' && c !== null ? Reflect.get(c, 'language') : undefined]),
);
