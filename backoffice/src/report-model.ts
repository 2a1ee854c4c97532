import { z } from 'zod';
import { currencyLabel, sameMoney, TableMoney } from './money.js';
import { ReportSync } from './report-sync.js';

/** The gaming day's report as the upstream answers it (upstream/backoffice/gaming-day.ts); money in minor units. */
export const ReportLine = z.object({
  terminalId: z.string(),
  scope: z.string(),
  /** Every amount of the line is minor units of this (its table's currency; null: never named). */
  currency: TableMoney.nullable(),
  notes: z.record(z.string(), z.number()),
  drop: z.number().int(),
  creditsIn: z.number().int(),
  creditsOut: z.number().int(),
  handpays: z.number().int(),
  handpaid: z.number().int(),
  handpaidWins: z.number().int(),
  jackpots: z.number().int(),
  wagered: z.number().int(),
  won: z.number().int(),
  win: z.number().int(),
  rounds: z.number().int(),
  voids: z.number().int(),
  voidRefunds: z.number().int(),
  transfersIn: z.number().int(),
  transfersOut: z.number().int(),
  aftInAmount: z.number().int(),
  aftOutAmount: z.number().int(),
  ticketsIn: z.number().int(),
  ticketDrop: z.number().int(),
  ticketsOut: z.number().int(),
  ticketsOutAmount: z.number().int(),
  ticketsVoided: z.number().int(),
});
export type ReportLine = z.infer<typeof ReportLine>;

/**
 * Hold against theoretical, one line per table, game, rule profile and bet
 * (upstream/backoffice/theoretical.ts): the initial bets, the bet's house edge in percent (null:
 * none published, as for blackjack's streak and jackpot bets; then no theoretical win either),
 * the theoretical win, the actual win and their difference, in minor units of the table's currency.
 */
export const TheoreticalLine = z.object({
  terminalId: z.string(),
  currency: TableMoney.nullable(),
  game: z.string(),
  profile: z.string(),
  bet: z.string(),
  rounds: z.number().int(),
  wagered: z.number().int(),
  edge: z.number().nullable(),
  theoretical: z.number().int().nullable(),
  actual: z.number().int(),
  difference: z.number().int().nullable(),
});
export type TheoreticalLine = z.infer<typeof TheoreticalLine>;

export const GamingDayReport = z.object({
  date: z.string(),
  from: z.string(),
  to: z.string(),
  startHour: z.number(),
  lines: z.array(ReportLine),
  theoretical: z.array(TheoreticalLine),
  corrections: z.array(
    z.object({
      terminalId: z.string(),
      seq: z.number(),
      ts: z.string(),
      type: z.string(),
      kind: z.enum(['void', 'corrected', 'error-void', 'hold-lifted']),
      roundId: z.string().nullable(),
      article: z.string(),
      detail: z.string(),
      /** The misreads' details left out of a void's line (upstream/backoffice/corrections.ts, MAX_MERGED_DETAILS). */
      detailsCut: z.number().int().nonnegative(),
    }),
  ),
  /** The tables with more voids and corrections than the report lists (at most 200 a table): how many are listed, of how many. */
  correctionsCut: z.array(z.object({ terminalId: z.string(), listed: z.number().int(), total: z.number().int() })),
  liability: z.object({
    asOf: z.string(),
    currencies: z.array(z.object({ currency: z.string(), tickets: z.number().int(), amount: z.number().int() })),
  }),
  sync: ReportSync,
});
export type GamingDayReport = z.infer<typeof GamingDayReport>;

/** The money columns, in the report's order; each is a ReportLine field in minor units. */
export const MONEY = [
  'drop',
  'ticketDrop',
  'creditsIn',
  'creditsOut',
  'handpaid',
  'handpaidWins',
  'jackpots',
  'wagered',
  'won',
  'win',
  'voidRefunds',
  'transfersIn',
  'transfersOut',
  'aftInAmount',
  'aftOutAmount',
  'ticketsOutAmount',
] as const;
/** The count columns. */
export const COUNTS = ['handpays', 'rounds', 'voids', 'ticketsIn', 'ticketsOut', 'ticketsVoided'] as const;
export type MoneyColumn = (typeof MONEY)[number];
export type CountColumn = (typeof COUNTS)[number];

/**
 * The floor's totals: the tables' lines added up within each currency (a station's figures are
 * inside its table's), one total per currency, by code; MOP is never added to HKD. Tables that
 * never named their currency are totalled apart, last.
 */
export function totalsByCurrency(lines: readonly ReportLine[]): ReportLine[] {
  const out: ReportLine[] = [];
  for (const l of lines) {
    if (l.scope !== 'table') continue;
    let t = out.find((x) => sameMoney(x.currency, l.currency));
    if (!t) out.push((t = emptyTotal(l.currency)));
    for (const k of [...MONEY, ...COUNTS]) t[k] += l[k];
    for (const [d, n] of Object.entries(l.notes)) t.notes[d] = (t.notes[d] ?? 0) + n;
  }
  const key = (l: ReportLine) => (l.currency ? `${l.currency.code}${l.currency.exponent}` : '\uffff');
  return out.sort((a, b) => key(a).localeCompare(key(b)));
}

function emptyTotal(currency: TableMoney | null): ReportLine {
  return {
    terminalId: currencyLabel(currency),
    scope: 'total',
    currency,
    notes: {},
    drop: 0,
    creditsIn: 0,
    creditsOut: 0,
    handpays: 0,
    handpaid: 0,
    handpaidWins: 0,
    jackpots: 0,
    wagered: 0,
    won: 0,
    win: 0,
    rounds: 0,
    voids: 0,
    voidRefunds: 0,
    transfersIn: 0,
    transfersOut: 0,
    aftInAmount: 0,
    aftOutAmount: 0,
    ticketsIn: 0,
    ticketDrop: 0,
    ticketsOut: 0,
    ticketsOutAmount: 0,
    ticketsVoided: 0,
  };
}

/**
 * Hold: win ÷ the wagers that played (wagered less what voided rounds gave back), as a fraction
 * (null with nothing played). A ratio to show, not money.
 */
export function hold(l: ReportLine): number | null {
  const played = l.wagered - l.voidRefunds;
  return played === 0 ? null : l.win / played;
}

/** What the plots draw (upstream/backoffice/plots.ts): 24 hourly slots per table, money in minor units. */
export const Plots = z.object({
  date: z.string(),
  from: z.string(),
  hours: z.array(z.string()),
  tables: z.array(
    z.object({
      terminalId: z.string(),
      currency: TableMoney.nullable(),
      drop: z.array(z.number()),
      wagered: z.array(z.number()),
      won: z.array(z.number()),
      win: z.array(z.number()),
      lagMax: z.array(z.number().nullable()),
      /** Per hour: initial bets with a published edge, the house's win on them, its expectation, the bound on its standard deviation. */
      theoretical: z.array(z.object({ initial: z.number(), house: z.number(), expected: z.number(), sd: z.number().nullable() })),
    }),
  ),
});
export type Plots = z.infer<typeof Plots>;
