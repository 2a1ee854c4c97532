import type { Language } from '../../protocol/index.js';
import { currencyLabel, formatTableMoney, sameMoney, type TableMoney } from './money.js';

/**
 * What the plots may draw as one line: the tables of one currency, code and exponent alike. The
 * page sums their minor units and scales the sum by the group's exponent, so a table counting
 * patacas in avos is never added to one counting them otherwise, nor to a Hong Kong dollar.
 */
export interface CurrencyGroup<T> {
  /** The choice's value: `all:MOP:2`, `all:¤` for the tables that never named a currency. */
  value: string;
  currency: TableMoney | null;
  tables: T[];
}

const moneyKey = (c: TableMoney | null) => (c === null ? '¤' : `${c.code}:${c.exponent}`);
const groupValue = (c: TableMoney | null) => `all:${moneyKey(c)}`;

/**
 * The choice of one table's series in one currency (a table that changed currency within the day
 * has one per currency): `table:MOP:2:T3`, apart from the groups' values and from each other
 * whatever the table's id.
 */
export const seriesValue = (s: { terminalId: string; currency: TableMoney | null }) => `table:${moneyKey(s.currency)}:${s.terminalId}`;

/** The tables by currency (code and exponent), in the report's order: by code, then exponent; the tables of no currency last. */
export function currencyGroups<T extends { currency: TableMoney | null }>(tables: readonly T[]): CurrencyGroup<T>[] {
  const out: CurrencyGroup<T>[] = [];
  for (const s of tables) {
    let g = out.find((x) => sameMoney(x.currency, s.currency));
    if (!g) out.push((g = { value: groupValue(s.currency), currency: s.currency, tables: [] }));
    g.tables.push(s);
  }
  const key = (g: CurrencyGroup<T>) => (g.currency ? `${g.currency.code}${g.currency.exponent}` : '\uffff');
  return out.sort((a, b) => key(a).localeCompare(key(b)));
}

/** A group's name: its code, or where another group has the same code, how it writes an amount (`MOP 0.00` beside `MOP 0`). */
export function groupLabel<T>(group: CurrencyGroup<T>, groups: readonly CurrencyGroup<T>[], language: Language): string {
  const c = group.currency;
  if (c === null || groups.filter((g) => g.currency?.code === c.code).length < 2) return currencyLabel(c);
  return formatTableMoney(0, c, language);
}

/** A table's series named by its group's label (`MOP`, or `MOP 0.00` where two groups share the code). */
export function seriesLabel<T extends { currency: TableMoney | null }>(series: T, groups: readonly CurrencyGroup<T>[], language: Language): string {
  const group = groups.find((g) => sameMoney(g.currency, series.currency));
  return group ? groupLabel(group, groups, language) : currencyLabel(series.currency);
}

/** The series a choice draws: a group's, or one table's in one currency. */
export function chosenTables<T extends { terminalId: string; currency: TableMoney | null }>(tables: readonly T[], value: string): T[] {
  const group = currencyGroups(tables).find((g) => g.value === value);
  return group ? group.tables : tables.filter((s) => seriesValue(s) === value);
}
