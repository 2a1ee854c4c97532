// The screens' catalogues (locales/package.json `imports`, condition "browser"): Vite lists
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
