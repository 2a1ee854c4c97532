/**
 * Every catalogue file of `locales/catalogues/`, parsed, keyed by its language tag (the file's name
 * without `.json`). Two implementations, picked by the package's `imports` conditions
 * (locales/package.json): the screens' bundles list the folder at build time (Vite's glob), Node
 * reads it at start. Neither names a language, so a new catalogue file is a new language.
 */
export declare const catalogueFiles: Readonly<Record<string, unknown>>;

/**
 * The catalogues not in `catalogueFiles`, by tag, each fetched when called: a screen's page holds
 * only the languages it shows (catalogue-files.browser.ts). Node and the esbuild bundles have none.
 */
export declare const catalogueLoaders: Readonly<Record<string, () => Promise<unknown>>>;

/** Each catalogue's `language` section by tag (its own name, its Intl locale), whether held or not. */
export declare const languageSections: Readonly<Record<string, unknown>>;
