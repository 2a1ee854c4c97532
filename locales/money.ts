import type { Currency, Language } from '../protocol/index.js';
import { languageIntl } from './index.js';

/**
 * The Intl locale a screen language formats money, numbers, lists and dates with: its catalogue's
 * `language.intl`, Macau's conventions for each (`zh-Hant-MO`, `zh-Hans-MO`, `pt-MO`, `en-MO`).
 */
export function intlLocale(language: Language): string {
  return languageIntl(language);
}

/**
 * Each currency's minor digits, asked of Intl once: a NumberFormat made for every amount formatted
 * was the station's largest JS cost in a snapshot while dealing (issue 31, BENCH_TRACE_VIEW=station).
 */
const digitsOf = new Map<Currency, number>();

/**
 * Minor units per major unit of a currency, as ISO 4217 (through Intl) has it: 2 for the pataca's
 * avos and the Hong Kong dollar's cents. Nothing here assumes 100.
 */
export function minorDigits(currency: Currency): number {
  let digits = digitsOf.get(currency);
  if (digits === undefined) {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    digitsOf.set(currency, digits);
  }
  return digits;
}

/** An integer amount of minor units as an exact decimal string (`-12345` avos → `-123.45`): no float on the way. */
export function minorToDecimal(minor: number, digits: number): Intl.StringNumericLiteral {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`money must be whole minor units, got ${minor}`);
  const sign = minor < 0 ? '-' : '';
  const abs = String(Math.abs(minor)).padStart(digits + 1, '0');
  const decimal = digits === 0 ? `${sign}${abs}` : `${sign}${abs.slice(0, -digits)}.${abs.slice(-digits)}`;
  if (!isDecimal(decimal)) throw new RangeError(`${minor} minor units made "${decimal}"`);
  return decimal;
}

/** What Intl.NumberFormat reads as an exact decimal (a plain decimal numeral; the type is TypeScript's name for it). */
function isDecimal(s: string): s is `${number}` {
  return /^-?\d+(\.\d+)?$/.test(s);
}

const formats = new Map<string, Intl.NumberFormat>();

/** One NumberFormat per language and options, made once: making one costs far more than formatting with it. */
function numberFormat(language: Language, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${language}|${JSON.stringify(options)}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(intlLocale(language), options);
    formats.set(key, f);
  }
  return f;
}

/**
 * Formats an integer amount of minor units in the language's Macau locale. Intl reads the amount
 * as an exact decimal string, so even the largest meter is shown to the avo. Whole amounts drop
 * the ",00" (table limits and chips read as 100, not 100.00) unless `fraction: 'always'` (a report
 * whose columns line up).
 */
export function formatMoney(minor: number, currency: Currency, language: Language, options: { fraction?: 'always' | 'when-needed' } = {}): string {
  const digits = minorDigits(currency);
  const decimal = minorToDecimal(minor, digits);
  const fraction = options.fraction === 'always' || minor % 10 ** digits !== 0 ? digits : 0;
  const f = numberFormat(language, { style: 'currency', currency, minimumFractionDigits: fraction, maximumFractionDigits: fraction });
  // A numeric string is formatted as the exact decimal it spells (Intl.NumberFormat v3).
  return f.format(decimal);
}

/** An amount of minor units as a bare number in the language's locale (a chip's face: `1,000`, `0.5`), without the currency. */
export function formatAmount(minor: number, currency: Currency, language: Language): string {
  const digits = minorDigits(currency);
  return numberFormat(language, { maximumFractionDigits: digits }).format(minorToDecimal(minor, digits));
}
