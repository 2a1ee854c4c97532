// What every refusal said by key must be, read the way the service screen (its notice) and the
// back office (refusalWords over the synced journal's `say`) read it: shared by the tests that
// make refusals with the product's code (config-refusal-words, service-refusal-words).
import assert from 'node:assert/strict';
import { catalogueOf, languages, wordAt } from '../../locales/index.js';
import { createI18n } from '../../locales/i18n.js';
import type { Said } from '../../host/config/refusal-words.js';
import { saidWords } from '../../locales/said.js';
import { refusalWords } from '../../backoffice/src/config-section.js';

export const LANGUAGES = ['zh-Hant', 'zh-Hans', 'pt', 'en'] as const;

/** The words of a key in a language, with the parameters in them (a code by its noun), as the service screen reads its notice. */
export function wordsIn(language: string, s: Said): string {
  const t = createI18n(language).t;
  return saidWords((key, options) => t(key, options) as string, s);
}

/** Its key's words in each catalogue, every placeholder given, another language's words than English's. */
export function assertWordsEverywhere(s: Said, name: string): void {
  const english = wordsIn('en', s);
  for (const language of LANGUAGES) {
    // A key that takes a count is a plural one: its `_other` form holds every placeholder.
    const template = wordAt(catalogueOf(language), s.key) ?? wordAt(catalogueOf(language), `${s.key}_other`);
    assert.ok(template, `${name}: ${language} has words for ${s.key}`);
    for (const [, placeholder] of template.matchAll(/\{\{(\w+)/g))
      assert.ok(placeholder && placeholder in s.values, `${name}: ${s.key} ${language} {{${placeholder}}} given`);
    const words = wordsIn(language, s);
    assert.doesNotMatch(words, /\{\{|\}\}/, `${name}: ${language} ${words}`);
    if (language !== 'en') assert.notEqual(words, english, `${name}: ${language} says it in its own words`);
    // The back office reads the same payload in its reader's language.
    const page = refusalWords({ language, t: createI18n(language).t, time: (x) => x }, { reason: 'ENGLISH', said: { key: s.key, values: { ...s.values } } });
    assert.equal(page, words, `${name}: the back office says ${language}'s words`);
  }
}

/** Every key of a section of the catalogues has words in each language, with the same placeholders as the source (zh-Hant). */
export function assertSectionEverywhere(section: 'configRefusal' | 'serviceRefusal' | 'tiltDetail'): void {
  for (const language of LANGUAGES) assert.ok(languages.includes(language), language);
  const source = catalogueOf('zh-Hant')[section];
  const placeholders = (w: string) => [...w.matchAll(/\{\{(\w+)/g)].map((m) => m[1]).sort();
  for (const [name, words] of Object.entries(source)) {
    for (const language of LANGUAGES) {
      const other = wordAt(catalogueOf(language), `${section}.${name}`);
      assert.ok(other, `${language} ${section}.${name}`);
      assert.deepEqual(placeholders(other), placeholders(words), `${language} ${section}.${name}`);
    }
  }
}
