import { catalogueFiles, catalogueLoaders, languageSections } from '#catalogue-files';
import type zhHant from './catalogues/zh-Hant.json';

/**
 * The source catalogue's shape: every `t()` key is checked against it. zh-Hant is the source; a
 * language is any other `locales/catalogues/<tag>.json` with the same keys (tests/locales/catalogues.test.ts).
 */
export type Catalogue = typeof zhHant;

/** The language every catalogue is checked against and every screen falls back to. */
export const SOURCE_LANGUAGE = 'zh-Hant';

/** The words at a dotted key of a catalogue (`tilt.bill-jam`), or undefined when there are none. */
export function wordAt(catalogue: unknown, key: string): string | undefined {
  let node: unknown = catalogue;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, part)) return undefined;
    node = Reflect.get(node, part);
  }
  return typeof node === 'string' ? node : undefined;
}

/** The string keys of a catalogue tree, dotted, plural suffixes dropped (`recall.title_other` is `recall.title`). */
function baseKeys(tree: unknown, prefix = '', out = new Set<string>()): Set<string> {
  if (typeof tree !== 'object' || tree === null) return out;
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.add(key.replace(/_(zero|one|two|few|many|other)$/, ''));
    else baseKeys(v, key, out);
  }
  return out;
}

/** A dotted key's top-level section (`tilt` of `tilt.bill-jam`). */
const sectionOf = (key: string): string => key.split('.')[0] ?? key;

/**
 * Whether a parsed catalogue file is a language the screens can offer: it names itself and an Intl
 * locale Intl takes, and has at least the source's top-level sections. A key it lacks (one added to
 * the source since) is drawn in the source's words by i18next's fallback rather than dropping the
 * whole language from the screens; tests/locales/catalogues.test.ts names every such key, so none
 * ships.
 */
export function isCatalogue(sourceKeys: ReadonlySet<string>, candidate: unknown): candidate is Catalogue {
  // The sections the candidate has words in, gathered once: looking each of the source's sections up
  // in a copy of all its keys cost every process that loads the catalogues ~0.1 s of CPU at its start
  // (four catalogues, thousands of keys each; docs/testing.md, 8 December).
  const have = new Set([...baseKeys(candidate)].map(sectionOf));
  for (const key of sourceKeys) if (!have.has(sectionOf(key))) return false;
  return wordAt(candidate, 'language.self') !== undefined && isIntlLocale(wordAt(candidate, 'language.intl'));
}

function isIntlLocale(tag: string | undefined): boolean {
  if (tag === undefined) return false;
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

/**
 * Language tags in the order the screens offer them: the source first, then the other tags of its
 * script family (`zh-…`), then the rest by tag. Nothing here names a language but the source, so a
 * catalogue file added is a language offered.
 */
function inOfferOrder(tags: readonly string[]): string[] {
  const family = SOURCE_LANGUAGE.split('-')[0];
  const rank = (tag: string) => (tag === SOURCE_LANGUAGE ? 0 : tag.split('-')[0] === family ? 1 : 2);
  return [...tags].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b, 'en'));
}

/** The catalogues found, by language tag, in the order the screens offer them (`inOfferOrder`). */
export function cataloguesOf(files: Readonly<Record<string, unknown>>): Readonly<Record<string, Catalogue>> {
  const sourceKeys = baseKeys(files[SOURCE_LANGUAGE]);
  if (!isCatalogue(sourceKeys, files[SOURCE_LANGUAGE]))
    throw new Error(`locales/catalogues/${SOURCE_LANGUAGE}.json is missing or lacks language.self / language.intl`);
  const out: Record<string, Catalogue> = {};
  for (const tag of inOfferOrder(Object.keys(files))) {
    const candidate = files[tag];
    if (isCatalogue(sourceKeys, candidate)) out[tag] = candidate;
  }
  return out;
}

/**
 * The catalogues held, by language tag. In Node (the host, the command line, the tests) and in a
 * bundle of them, every shipped catalogue, from the start. In a screen's page, the source's from
 * the start and each other language's once `loadCatalogue` has fetched it (catalogue-files.browser.ts).
 */
const held: Record<string, Catalogue> = { ...cataloguesOf(catalogueFiles) };
export const catalogues: Readonly<Record<string, Catalogue>> = held;

/** A `language` section that names itself and an Intl locale Intl takes (what a button shows). */
function isLanguageSection(section: unknown): section is { self: string; intl: string } {
  return wordAt(section, 'self') !== undefined && isIntlLocale(wordAt(section, 'intl'));
}

/**
 * The languages the screens offer, in order: every catalogue held, and every one a page can fetch
 * whose `language` section names it (a fetched catalogue that turns out short of the source's
 * sections is refused then: `loadCatalogue`).
 */
export const languages: readonly string[] = inOfferOrder([
  ...Object.keys(catalogues),
  ...Object.keys(catalogueLoaders).filter((tag) => !Object.hasOwn(catalogues, tag) && isLanguageSection(languageSections[tag])),
]);

/** Whether a language has a catalogue (a screen's `set-language`, a table's default language). */
export function hasLanguage(tag: string): boolean {
  return languages.includes(tag);
}

/** A language's own name (`language.self`), for its button, whether or not its catalogue is held. */
export function languageSelf(tag: string): string {
  return catalogues[tag]?.language.self ?? wordAt(languageSections[tag], 'self') ?? tag;
}

/** A language's Intl locale (`language.intl`), whether or not its catalogue is held; the source's for a language with none. */
export function languageIntl(tag: string): string {
  return catalogues[tag]?.language.intl ?? (hasLanguage(tag) ? wordAt(languageSections[tag], 'intl') : undefined) ?? sourceCatalogue().language.intl;
}

/**
 * What a screen that failed to start shows (renderer/src/main.ts): each language's own words
 * (`language.screenFailed`), in the order offered. A page holds every catalogue's `language`
 * section from the start, so no language needs fetching when nothing else has started.
 */
export function screenFailedWords(): string[] {
  return languages.flatMap((tag) => {
    const words = catalogues[tag]?.language.screenFailed ?? wordAt(languageSections[tag], 'screenFailed');
    return words === undefined ? [] : [words];
  });
}

/**
 * A language's catalogue, fetched if the page does not hold it yet (then held for good); undefined
 * for a language with no catalogue or one short of the source's sections.
 */
export async function loadCatalogue(tag: string): Promise<Catalogue | undefined> {
  const have = catalogues[tag];
  if (have) return have;
  const load = hasLanguage(tag) ? catalogueLoaders[tag] : undefined;
  if (!load) return undefined;
  const candidate = await load();
  if (!isCatalogue(baseKeys(sourceCatalogue()), candidate)) return undefined;
  held[tag] = candidate;
  return candidate;
}

/** A language's catalogue, or the source's when it has none (or the page does not hold it yet). */
export function catalogueOf(tag: string): Catalogue {
  return catalogues[tag] ?? sourceCatalogue();
}

function sourceCatalogue(): Catalogue {
  const c = catalogues[SOURCE_LANGUAGE];
  if (!c) throw new Error('no source catalogue');
  return c;
}

/** The amount in words a cash-out ticket prints: Chinese financial numerals, Portuguese. */
export { amountInWordsZh } from './amount-words-zh.js';
export { amountInWordsPt } from './amount-words-pt.js';
