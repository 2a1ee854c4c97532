import type { Sql } from '../sql.js';
import { heldCurrencies, type TableCurrency } from '../table-currency.js';
import type { GamingDayWindow } from './gaming-day.js';
import { hourlyStakes, hourTheoretical, type HourTheoretical } from './hourly-theoretical.js';
import { arrayOf, intOf, meterFits } from './journal-figures.js';

/** One table's figures hour by hour through a gaming day (24 slots, money in minor units). */
export interface HourlySeries {
  terminalId: string;
  /** The table's currency (null: never named): the page adds tables up only within one currency. */
  currency: TableCurrency | null;
  drop: number[];
  /** What was wagered less what voided rounds gave back: the wagers that played. */
  wagered: number[];
  won: number[];
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

/**
 * What the plots draw, from the journal alone: the meters moved each hour of the gaming day per
 * table (drop, wagered, won, so win and hold), and the sync lag of each hour — how long its
 * entries took between being journalled at the table and received here (`received_at − ts`),
 * which the upstream has for every entry it ever took, so the lag's history needs no new table.
 */
export async function hourlyPlots(sql: Sql, date: string, window: GamingDayWindow): Promise<Plots> {
  const { from, to } = window;
  // 24, or from 1 to 47 on the day a change of the start hour took effect after (day-hours.ts).
  const HOURS = Math.round((to.getTime() - from.getTime()) / 3_600_000);
  const m = await sql.query<{ terminal_id: string; hour: number; name: string; value: number }>(
    `SELECT j.terminal_id, floor(extract(epoch FROM j.ts - $1::timestamptz) / 3600)::int AS hour, m->>1 AS name, SUM(${intOf('m->2')}) AS value
     FROM journal j, jsonb_array_elements(${arrayOf("j.doc->'meters'")}) m
     WHERE j.ts >= $1 AND j.ts < $2 AND j.type <> 'meter.clear' AND ${meterFits('m')} AND m->>0 = 'table' AND m->>1 IN ('totalBillsIn', 'creditsWagered', 'creditsWon', 'voidRefunds')
     GROUP BY 1, 2, 3`,
    [from, to],
  );
  const l = await sql.query<{ terminal_id: string; hour: number; lag: number }>(
    `SELECT terminal_id, floor(extract(epoch FROM ts - $1::timestamptz) / 3600)::int AS hour, MAX(extract(epoch FROM received_at - ts))::float8 AS lag
     FROM journal WHERE ts >= $1 AND ts < $2 GROUP BY 1, 2`,
    [from, to],
  );
  const stakes = await hourlyStakes(sql, from, to);
  const t = await sql.query<{ terminal_id: string }>('SELECT terminal_id FROM terminals ORDER BY terminal_id');
  const currencies = await heldCurrencies(sql);
  const series = new Map<string, HourlySeries>(
    t.rows.map((r) => [
      r.terminal_id,
      {
        terminalId: r.terminal_id,
        currency: currencies.get(r.terminal_id) ?? null,
        drop: Array<number>(HOURS).fill(0),
        wagered: Array<number>(HOURS).fill(0),
        won: Array<number>(HOURS).fill(0),
        win: Array<number>(HOURS).fill(0),
        lagMax: Array<number | null>(HOURS).fill(null),
        theoretical: Array.from({ length: HOURS }, (_, h) => hourTheoretical(stakes.get(r.terminal_id)?.get(h) ?? [])),
      },
    ]),
  );
  for (const r of m.rows) {
    const s = series.get(r.terminal_id);
    const h = Number(r.hour);
    if (!s || h < 0 || h >= HOURS) continue;
    const v = Number(r.value);
    if (r.name === 'totalBillsIn') s.drop[h] = v;
    // The wagers that played: a voided round's stakes went back (its refund is journalled when it is voided).
    else if (r.name === 'creditsWagered') s.wagered[h] = (s.wagered[h] ?? 0) + v;
    else if (r.name === 'voidRefunds') s.wagered[h] = (s.wagered[h] ?? 0) - v;
    else s.won[h] = v;
  }
  for (const r of l.rows) {
    const s = series.get(r.terminal_id);
    const h = Number(r.hour);
    if (s && h >= 0 && h < HOURS) s.lagMax[h] = Math.max(0, Number(r.lag));
  }
  for (const s of series.values()) s.win = s.wagered.map((w, i) => w - (s.won[i] ?? 0));
  return {
    date,
    from: from.toISOString(),
    hours: Array.from({ length: HOURS }, (_, i) => new Date(from.getTime() + i * 3_600_000).toISOString()),
    tables: [...series.values()],
  };
}
