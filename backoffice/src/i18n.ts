import type { i18n } from 'i18next';
import { createI18n } from '../../locales/i18n.js';
import { hasLanguage, SOURCE_LANGUAGE } from '../../locales/index.js';
import { intlLocale } from '../../locales/money.js';
import { Language } from '../../protocol/index.js';

/** The page's language: chosen on the page, kept in this browser; Traditional Chinese first. */
export function pageLanguage(): Language {
  const stored = Language.safeParse(localStorage.getItem('backoffice.language'));
  return stored.success && hasLanguage(stored.data) ? stored.data : SOURCE_LANGUAGE;
}

export function setPageLanguage(l: Language): void {
  localStorage.setItem('backoffice.language', l);
}

export interface Words {
  language: Language;
  t: i18n['t'];
  /** A time in Macau's time zone, in the language's Macau locale. */
  time(iso: string): string;
}

export function words(language: Language): Words {
  const i = createI18n(language);
  const f = new Intl.DateTimeFormat(intlLocale(language), { timeZone: 'Asia/Macau', dateStyle: 'short', timeStyle: 'medium' });
  return { language, t: i.t.bind(i), time: (iso) => f.format(new Date(iso)) };
}

const lists = new Map<Language, Intl.ListFormat>();

/**
 * Items joined as a list in the page's language (Intl.ListFormat: `a, b and c`, `a、b和c`, `a, b e c`),
 * never by a comma written in the code: each language has its own separators.
 */
export function listWords(language: Language, items: readonly string[]): string {
  let f = lists.get(language);
  if (!f) lists.set(language, (f = new Intl.ListFormat(intlLocale(language), { type: 'conjunction' })));
  return f.format(items);
}
