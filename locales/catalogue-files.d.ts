/**
 * Every catalogue file of `locales/catalogues/`, parsed, keyed by its language tag (the file's name
 * without `.json`). Two implementations, picked by the package's `imports` conditions
 * (locales/package.json): the screens' bundles list the folder at build time (Vite's glob), Node
 * reads it at start. Neither names a language, so a new catalogue file is a new language.
 */
export declare const catalogueFiles: Readonly<Record<string, unknown>>;
