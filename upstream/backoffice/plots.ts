import type { Sql } from '../sql.js';
import { currencyAt, currencyKey, currencyOf, currencyOrder, type TableCurrency } from '../table-currency.js';
import type { GamingDayWindow } from './gaming-day.js';
import { hourlyStakes, hourTheoretical, type HourTheoretical, type RoundStake } from './hourly-theoretical.js';
import { arrayOf, handpayFits, intOf, meterFits } from './journal-figures.js';
import { entryMetersCountSql } from '../ingest/report-fields.js';

/**
 * One table's figures in one currency hour by hour through a gaming day (a slot an hour, money in minor
 * units): a table that changed currency within the day has a series per currency.
 */
export interface HourlySeries {
  terminalId: string;
  /** The currency its figures were journalled in (null: never named): the page adds series up only within one currency. */
  currency: TableCurrency | null;
  drop: number[];
  /** What was wagered less what voided rounds gave back: the wagers that played. */
  wagered: number[];
  won: number[];
  /** wagered − won − the round payouts paid by hand (their `handpay.request`s, by the settlement's hour): the house's result. */
  win: number[];
  /** The longest time an entry of that hour took to reach the upstream (received − journalled), seconds; null with none. */
  lagMax: (number | null)[];
  /** Hold against the theoretical edge, per hour of the rounds settled in it (upstream/backoffice/hourly-theoretical.ts). */
  theoretical: HourTheoretical[];
}

export interface Plots {
  date: string;
  from: string;
  hours: string[];
  tables: HourlySeries[];
}

type CurrencyRow = { terminal_id: string; code: string | null; exponent: number | null };

/**
 * Each table's currency at the day's end, for a table with no entry in the day: its last span
 * taken before then, or its first when it named a currency only later (none: never named).
 */
async function currenciesAtEnd(sql: Sql, to: Date): Promise<CurrencyRow[]> {
  const r = await sql.query<CurrencyRow>(
    `SELECT t.terminal_id, c.code, c.exponent FROM terminals t
     LEFT JOIN LATERAL (SELECT s.code, s.exponent FROM currency_spans s WHERE s.terminal_id = t.terminal_id
       ORDER BY s.since < $1 DESC, CASE WHEN s.since < $1 THEN -s.from_seq ELSE s.from_seq END LIMIT 1) c ON true`,
    [to],
  );
  return r.rows;
}

/**
 * What the plots draw, from the journal alone: the meters moved each hour of the gaming day per
 * table and the currency in force at each entry's seq (drop, wagered, won, so win and hold: a
 * table that changed currency within the day has a series per currency), and the sync lag of each
 * hour — how long its entries took between being journalled at the table and received here
 * (`received_at − ts`), which the upstream has for every entry it ever took, so the lag's history
 * needs no new table. A table with no entry in the day has one empty series.
 */
export async function hourlyPlots(sql: Sql, date: string, window: GamingDayWindow): Promise<Plots> {
  const { from, to } = window;
  // 24, or from 1 to 47 on the day a change of the start hour took effect after (day-hours.ts).
  const HOURS = Math.round((to.getTime() - from.getTime()) / 3_600_000);
  const m = await sql.query<CurrencyRow & { hour: number; name: string; value: number }>(
    `SELECT j.terminal_id, c.code, c.exponent, floor(extract(epoch FROM j.ts - $1::timestamptz) / 3600)::int AS hour, m->>1 AS name, SUM(${intOf('m->2')}) AS value
     FROM journal j ${currencyAt('j')}, jsonb_array_elements(${arrayOf("j.doc->'meters'")}) m
     WHERE j.ts >= $1 AND j.ts < $2 AND j.type <> 'meter.clear' AND ${meterFits('m')} AND m->>0 = 'table' AND m->>1 IN ('totalBillsIn', 'creditsWagered', 'creditsWon', 'voidRefunds')
       AND ${entryMetersCountSql('j.doc')}
     GROUP BY 1, 2, 3, 4, 5`,
    [from, to],
  );
  const l = await sql.query<CurrencyRow & { hour: number; lag: number }>(
    `SELECT j.terminal_id, c.code, c.exponent, floor(extract(epoch FROM j.ts - $1::timestamptz) / 3600)::int AS hour, MAX(extract(epoch FROM j.received_at - j.ts))::float8 AS lag
     FROM journal j ${currencyAt('j')} WHERE j.ts >= $1 AND j.ts < $2 GROUP BY 1, 2, 3, 4`,
    [from, to],
  );
  // The round payouts paid by hand: no credit won, but the house's loss all the same (gaming-day.ts `handpaidWins`).
  const hp = await sql.query<CurrencyRow & { hour: number; amount: number | null }>(
    `SELECT j.terminal_id, c.code, c.exponent, floor(extract(epoch FROM j.ts - $1::timestamptz) / 3600)::int AS hour, SUM(${intOf("j.doc->'payload'->'amount'")}) AS amount
     FROM journal j ${currencyAt('j')} WHERE j.ts >= $1 AND j.ts < $2 AND j.type = 'handpay.request' AND ${handpayFits("j.doc->'payload'")}
     GROUP BY 1, 2, 3, 4`,
    [from, to],
  );
  const stakes = await hourlyStakes(sql, from, to);
  const series = new Map<string, HourlySeries>();
  const of = (r: CurrencyRow) => {
    const currency = currencyOf(r);
    const key = currencyKey(r.terminal_id, currency);
    let s = series.get(key);
    if (!s) series.set(key, (s = emptySeries(r.terminal_id, currency, HOURS, stakes.get(key))));
    return s;
  };
  for (const r of m.rows) {
    const s = of(r);
    const h = Number(r.hour);
    if (h < 0 || h >= HOURS) continue;
    const v = Number(r.value);
    if (r.name === 'totalBillsIn') s.drop[h] = v;
    // The wagers that played: a voided round's stakes went back (its refund is journalled when it is voided).
    else if (r.name === 'creditsWagered') s.wagered[h] = (s.wagered[h] ?? 0) + v;
    else if (r.name === 'voidRefunds') s.wagered[h] = (s.wagered[h] ?? 0) - v;
    else s.won[h] = v;
  }
  for (const r of l.rows) {
    const s = of(r);
    const h = Number(r.hour);
    if (h >= 0 && h < HOURS) s.lagMax[h] = Math.max(0, Number(r.lag));
  }
  const handpaid = new Map<HourlySeries, number[]>();
  for (const r of hp.rows) {
    const s = of(r);
    const h = Number(r.hour);
    if (h < 0 || h >= HOURS) continue;
    const row = handpaid.get(s) ?? Array<number>(HOURS).fill(0);
    row[h] = (row[h] ?? 0) + Number(r.amount ?? 0);
    handpaid.set(s, row);
  }
  const heard = new Set([...series.values()].map((s) => s.terminalId));
  for (const r of await currenciesAtEnd(sql, to)) if (!heard.has(r.terminal_id)) of(r);
  for (const s of series.values()) s.win = s.wagered.map((w, i) => w - (s.won[i] ?? 0) - (handpaid.get(s)?.[i] ?? 0));
  return {
    date,
    from: from.toISOString(),
    hours: Array.from({ length: HOURS }, (_, i) => new Date(from.getTime() + i * 3_600_000).toISOString()),
    tables: [...series.values()].sort((a, b) => a.terminalId.localeCompare(b.terminalId) || currencyOrder(a.currency, b.currency)),
  };
}

function emptySeries(terminalId: string, currency: TableCurrency | null, hours: number, stakes: Map<number, RoundStake[]> | undefined): HourlySeries {
  return {
    terminalId,
    currency,
    drop: Array<number>(hours).fill(0),
    wagered: Array<number>(hours).fill(0),
    won: Array<number>(hours).fill(0),
    win: Array<number>(hours).fill(0),
    lagMax: Array<number | null>(hours).fill(null),
    theoretical: Array.from({ length: hours }, (_, h) => hourTheoretical(stakes?.get(h) ?? [])),
  };
}
