import type { Currency, Language } from '../../../protocol/index.js';

/** The Intl locale each screen language formats with: Macau's own conventions. */
export const INTL_LOCALE: Record<Language, string> = { 'zh-Hant': 'zh-Hant-MO', pt: 'pt-MO', en: 'en-MO' };

/** Minor units per major unit; both table currencies have cents/avos. */
const MINOR_DIGITS: Record<Currency, number> = { HKD: 2, MOP: 2 };

const cache = new Map<string, Intl.NumberFormat>();

/**
 * Formats an integer amount of minor units. The division happens only here, for display; the
 * amount itself is never a float anywhere else.
 */
export function formatMoney(minor: number, currency: Currency, language: Language): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`money must be whole minor units, got ${minor}`);
  const digits = MINOR_DIGITS[currency];
  const key = `${language}|${currency}|${minor % 10 ** digits === 0 ? 0 : digits}`;
  let f = cache.get(key);
  if (!f) {
    // Whole amounts drop the ",00": table limits and chips read as 100, not 100.00.
    const fraction = minor % 10 ** digits === 0 ? 0 : digits;
    f = new Intl.NumberFormat(INTL_LOCALE[language], {
      style: 'currency',
      currency,
      minimumFractionDigits: fraction,
      maximumFractionDigits: fraction,
    });
    cache.set(key, f);
  }
  return f.format(minor / 10 ** digits);
}
