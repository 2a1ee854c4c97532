import { TableCurrency } from './table-currency.js';

/** The currencies this runtime's Intl knows (its CLDR data; ISO 4217's current codes). */
const KNOWN = new Set(Intl.supportedValuesOf('currency'));

/**
 * ISO 4217's minor-unit exponent of a currency this runtime knows, as Intl gives it (the host
 * computes a table's the same way: `minorDigits`, locales/money.ts); null for a code it does not
 * know, whose exponent nobody here can check.
 */
export function isoExponent(code: string): number | null {
  if (!KNOWN.has(code)) return null;
  return new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits ?? null;
}

/**
 * A heartbeat's currency: well-formed (`TableCurrency`), and for a code this runtime knows, with
 * that currency's own exponent. A table that says HKD in whole dollars (or MOP in thousandths)
 * would have its amounts read at 100 (or 1/10) times their worth beside every other table's.
 */
export const HeartbeatCurrency = TableCurrency.refine(
  (c) => {
    const iso = isoExponent(c.code);
    return iso === null || iso === c.exponent;
  },
  { message: "the exponent is not ISO 4217's for this currency" },
);
