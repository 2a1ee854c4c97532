import { z } from 'zod';
import { intlLocale, minorToDecimal } from '../../locales/money.js';
import type { Language } from '../../protocol/index.js';

/**
 * A table's currency as the upstream holds it (its heartbeat's): the ISO 4217 code and the
 * minor-unit exponent. Every amount on the page is integer minor units of its own table's
 * currency, formatted and totalled by it; there is no page-wide currency.
 */
export const TableMoney = z.object({ code: z.string().regex(/^[A-Z]{3}$/), exponent: z.number().int().min(0).max(4) });
export type TableMoney = z.infer<typeof TableMoney>;

const formats = new Map<string, Intl.NumberFormat>();
function format(language: Language, code: string | null, digits: number): Intl.NumberFormat {
  const key = `${language}|${code}|${digits}`;
  let f = formats.get(key);
  if (!f) {
    const options: Intl.NumberFormatOptions = { minimumFractionDigits: digits, maximumFractionDigits: digits };
    f = new Intl.NumberFormat(intlLocale(language), code === null ? options : { ...options, style: 'currency', currency: code });
    formats.set(key, f);
  }
  return f;
}

/**
 * An amount in its table's currency, in the language's Macau locale, written from the exact
 * decimal (no float). A table that never named its currency (a kiosk older than this) shows its
 * minor units behind ¤, the sign of a currency not known: never another table's currency.
 */
export function formatTableMoney(minor: number, currency: TableMoney | null, language: Language, fraction: 'always' | 'when-needed' = 'always'): string {
  if (currency === null) return `¤${format(language, null, 0).format(minor)}`;
  const digits = fraction === 'always' || minor % 10 ** currency.exponent !== 0 ? currency.exponent : 0;
  return format(language, currency.code, digits).format(minorToDecimal(minor, currency.exponent));
}

/** A currency's label: its code, or ¤ when the table never named one. */
export function currencyLabel(currency: TableMoney | null): string {
  return currency?.code ?? '¤';
}

/** The same currency: code and exponent. */
export function sameMoney(a: TableMoney | null, b: TableMoney | null): boolean {
  return a === null || b === null ? a === b : a.code === b.code && a.exponent === b.exponent;
}

/**
 * A currency named by its code alone (a ticket's, from the validation authority's register), with
 * ISO 4217's minor-unit exponent as Intl has it, as the gaming-day report writes the liability
 * (`minorDigits`): null for a code that is not three capital letters.
 */
export function moneyOfCode(code: string): TableMoney | null {
  if (!/^[A-Z]{3}$/.test(code)) return null;
  const exponent = new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
  return { code, exponent };
}

/**
 * An amount of a ticket on its table's page, in the ticket's own currency: the table's when it is
 * the table's code, else by the ticket's currency's own exponent. Until a review of 6 December one
 * in another currency took the table's exponent (1,234 yen on a pataca table written ¥12.34), and on
 * a table that never named its currency every ticket was minor units behind ¤ though its currency is known.
 */
export function formatTicketMoney(minor: number, code: string, table: TableMoney | null, language: Language): string {
  if (table !== null && code === table.code) return formatTableMoney(minor, table, language);
  return formatTableMoney(minor, moneyOfCode(code), language);
}

/**
 * The currency a table held at one seq of its journal: its span from the greatest seq not past it
 * (`currencies`, the upstream's currency_spans), as the reports read each entry; the table's
 * currency of now when it has no span that far back (a table that never named one, or an upstream
 * older than the spans).
 */
export function currencyAt(
  d: { currency: TableMoney | null; currencies: readonly { fromSeq: number; code: string; exponent: number }[] },
  seq: number,
): TableMoney | null {
  let held: TableMoney | null = null;
  let from = -Infinity;
  for (const s of d.currencies)
    if (s.fromSeq <= seq && s.fromSeq > from) {
      from = s.fromSeq;
      held = { code: s.code, exponent: s.exponent };
    }
  return held ?? d.currency;
}
