/**
 * The most any one table's figure may hold where the floor's figures sum every table's: 2^41 minor
 * units (2.2 × 10^12 avos, 22 billion patacas), past anything a table takes in a day or has out on
 * tickets, and MAX_TABLES (4,095, the most enrolled) of it total under 2^53, so the floor's totals
 * stay exact. The figures are a table's word (each meter delta, bet and ticket amount checked a
 * safe integer on its own); their sum is not, and from 2^53 it is no safe integer (past it,
 * inexact) and refused by the pages' and routes' schemas, for every table. A table past it is left out of the floor's figure and named (reviews of
 * 4 December: the gaming day's lines, the ticket liability).
 */
export const TABLE_FIGURE_BOUND = 2 ** 41;

/** Whether a table's summed figure (as the database's exact text, or a number) is within TABLE_FIGURE_BOUND either way. */
export function withinTableBound(figure: string | number | bigint | null): boolean {
  if (figure === null) return true;
  try {
    const v = BigInt(figure);
    return v <= BigInt(TABLE_FIGURE_BOUND) && v >= -BigInt(TABLE_FIGURE_BOUND);
  } catch {
    return false;
  }
}

/**
 * A table's figure as the database summed it (exact text), as a number: NaN when past
 * TABLE_FIGURE_BOUND, so a figure a double would not hold exactly (past 2^53, Number rounds it) is
 * never read as if exact; a line holding NaN is one past the bound (gaming-day.ts's pastBound).
 */
export function boundedFigure(figure: string | number | bigint | null): number {
  return figure === null ? 0 : withinTableBound(figure) ? Number(figure) : Number.NaN;
}

/** Outstanding figures of one table in one currency, as the database summed them (`amount` as exact text). */
export interface TableOutstanding {
  readonly terminal_id: string;
  readonly currency: string;
  readonly tickets: number;
  readonly amount: string;
}

/**
 * Each table's outstanding tickets summed into the floor's, per currency; a table with any
 * currency past TABLE_FIGURE_BOUND is left out of every currency and named.
 */
export function floorOutstanding(rows: readonly TableOutstanding[]): {
  currencies: { currency: string; tickets: number; amount: number }[];
  outOfRange: string[];
} {
  const out = new Set(rows.filter((r) => !withinTableBound(r.amount)).map((r) => r.terminal_id));
  const sums = new Map<string, { tickets: number; amount: number }>();
  for (const r of rows) {
    if (out.has(r.terminal_id)) continue;
    const s = sums.get(r.currency) ?? { tickets: 0, amount: 0 };
    sums.set(r.currency, { tickets: s.tickets + r.tickets, amount: s.amount + Number(r.amount) });
  }
  return {
    currencies: [...sums].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([currency, s]) => ({ currency, ...s })),
    outOfRange: [...out].sort(),
  };
}

/**
 * The most tables the upstream enrols (upstream/auth.ts, enrolTerminal): MAX_TABLES of
 * TABLE_FIGURE_BOUND total 2^53 − 2^41, a safe integer, so the floor's figures (floorOutstanding
 * here, the report's totals: backoffice/src/report-model.ts, totalsByCurrency) added in JavaScript
 * numbers stay exact and within the schemas. Not 4,096: that many at the bound total 2^53 itself,
 * exact but no safe integer, and the liability's route answered 500 (a review of 8 December). A
 * revoked table counts: its journal and tickets stay.
 */
export const MAX_TABLES = 4095;
