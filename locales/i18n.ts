import i18next, { type BackendModule, type i18n, type ParseKeys } from 'i18next';
import { Currency, Language } from '../protocol/index.js';
import { catalogues, hasLanguage, languages, loadCatalogue, SOURCE_LANGUAGE, wordAt, type Catalogue } from './index.js';
import { formatMoney, intlLocale } from './money.js';
import { citationWords } from './citation.js';

/**
 * Typed keys: every `t()` in the screens and the host is checked against the source catalogue
 * (zh-Hant), so a key that is not there fails the typecheck, `defaultValue` or not. Plural keys
 * are named without their suffix (`recall.title` for `recall.title_other`), as i18next resolves them.
 */
declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: Catalogue };
    strictKeyChecks: true;
  }
}

/** A key of the catalogues, as `t()` takes it. */
export type MessageKey = ParseKeys;

/**
 * Whether a key that came over the wire (a refusal, a service notice) is one of the catalogues':
 * checked against the source catalogue, plural keys by their `_other` form, so a screen never
 * shows a key it has no words for.
 */
export function isMessageKey(key: string): key is MessageKey {
  const source = catalogues[SOURCE_LANGUAGE];
  return wordAt(source, key) !== undefined || wordAt(source, `${key}_other`) !== undefined;
}

/** The language a formatter is called in; i18next hands it over as a plain code. */
function languageOf(lng: string | undefined): Language {
  const l = Language.safeParse(lng);
  return l.success && hasLanguage(l.data) ? l.data : SOURCE_LANGUAGE;
}

/**
 * i18next's backend for the catalogues a page does not hold yet (locales/index.ts, `loadCatalogue`):
 * `changeLanguage` and `loadLanguages` wait for the language's catalogue before they resolve.
 */
const heldOrFetched: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read: (language, _namespace, done) => {
    loadCatalogue(language).then(
      (c) => done(c ? null : new Error(`no catalogue for ${language}`), c ?? false),
      (e: unknown) => done(e instanceof Error ? e : new Error(String(e)), false),
    );
  },
};

/**
 * One i18next instance, ready at once with the catalogues held (in Node every one; in a screen's
 * page the source's, each other language's fetched from the host's page files on the first change
 * to it, one per file of locales/catalogues/). Formats, in the language's Macau locale
 * (its catalogue's `language.intl`):
 * - `{{amount, money}}`: integer minor units in the table currency passed as the `currency` option;
 * - `{{items, list}}`: an array of words joined by Intl.ListFormat (`A、B及C`, `A, B e C`, `A, B and C`),
 *   `list(type: disjunction)` for "or";
 * - `{{article, citation}}`: a citation as the engines write it, in words (locales/citation.ts).
 */
export function createI18n(language: Language): i18n {
  const instance = i18next.createInstance();
  void instance.use(heldOrFetched).init({
    lng: language,
    fallbackLng: SOURCE_LANGUAGE,
    supportedLngs: [...languages],
    partialBundledLanguages: true,
    resources: Object.fromEntries(Object.entries(catalogues).map(([lng, cat]) => [lng, { translation: cat }])),
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  const formatter = instance.services.formatter;
  formatter?.add('money', (value: unknown, lng: string | undefined, options: Record<string, unknown>) =>
    formatMoney(Number(value), Currency.parse(options.currency), languageOf(lng)),
  );
  formatter?.add('list', (value: unknown, lng: string | undefined, options: Record<string, unknown>) => {
    const items = Array.isArray(value) ? value.map(String) : [String(value)];
    const type = options.type === 'disjunction' || options.type === 'unit' ? options.type : 'conjunction';
    return new Intl.ListFormat(intlLocale(languageOf(lng)), { type }).format(items);
  });
  // An article as the engines write it (`macau-2009 art.5 n.1 1)`), in the words recall says it in.
  formatter?.add('citation', (value: unknown, lng: string | undefined) => {
    const t = instance.getFixedT(languageOf(lng));
    return citationWords((key, options) => t(key, { ...options }), String(value));
  });
  return instance;
}
