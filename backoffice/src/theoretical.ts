import { intlLocale, minorToDecimal } from '../../locales/money.js';
import { gameName } from './floor.js';
import type { Words } from './i18n.js';
import { currencyLabel, formatTableMoney } from './money.js';
import type { TheoreticalLine } from './report-model.js';

/**
 * Hold against theoretical on the printable page and in the CSV: one line per table, game, rule
 * profile and bet, with the figures exactly as the upstream answered them (the rounding to the
 * minor unit is the upstream's, done once). Each line is in its own table's currency; lines are
 * never added across tables, so MOP never meets HKD here. A bet with no published edge (blackjack's
 * streak and jackpot bets) says so in the edge's place and has no theoretical win nor difference:
 * never a 0, which would read as "the house expects nothing".
 */
export const THEORETICAL_COLUMNS = [
  'table',
  'currency',
  'game',
  'profile',
  'bet',
  'rounds',
  'initialBets',
  'edge',
  'theoretical',
  'actual',
  'difference',
] as const;

/** The bets the catalogues name (`bet.*`); another bet is shown by its code. */
const BETS = [
  'main',
  'banker',
  'player',
  'tie',
  'playerPair',
  'bankerPair',
  'anyPair',
  'perfectPairs',
  'sevens',
  'over13',
  'under13',
  'jackpot',
  'behind',
  'insurance',
  'double',
  'split',
  'bonus678',
  'streak2',
  'streak3',
  'streak4',
  'streak5',
  'lucky6',
] as const;
const isBet = (bet: string): bet is (typeof BETS)[number] => BETS.some((b) => b === bet);

export function theoreticalHead(t: Words['t']): string[] {
  return THEORETICAL_COLUMNS.map((c) => t(`backoffice.report.theo.${c}`));
}

/** The page's cells: names in the page's language, amounts by Intl in its Macau locale. */
export function theoreticalPageCells(w: Words, l: TheoreticalLine): string[] {
  const t = w.t;
  const money = (v: number | null) => (v === null ? '—' : formatTableMoney(v, l.currency, w.language));
  const edge = new Intl.NumberFormat(intlLocale(w.language), { style: 'percent', minimumFractionDigits: 3, maximumFractionDigits: 3 });
  return [
    l.terminalId,
    currencyLabel(l.currency),
    gameName(t, l.game),
    l.profile,
    isBet(l.bet) ? t(`bet.${l.bet}`) : l.bet,
    String(l.rounds),
    money(l.wagered),
    l.edge === null ? t('backoffice.report.theo.noEdge') : edge.format(l.edge / 100),
    money(l.theoretical),
    money(l.actual),
    money(l.difference),
  ];
}

/**
 * The CSV's cells: the game, profile and bet by their codes (what a spreadsheet filters on, in
 * every language), amounts as exact decimals of the major unit from the minor units, the edge in
 * percent to four places. With no published edge the edge cell says so and the two figures that
 * would need it are left empty.
 */
export function theoreticalCsvCells(t: Words['t'], l: TheoreticalLine): string[] {
  const digits = l.currency?.exponent ?? 0;
  const money = (v: number | null) => (v === null ? '' : minorToDecimal(v, digits));
  return [
    l.terminalId,
    currencyLabel(l.currency),
    l.game,
    l.profile,
    l.bet,
    String(l.rounds),
    money(l.wagered),
    l.edge === null ? t('backoffice.report.theo.noEdge') : l.edge.toFixed(4),
    money(l.theoretical),
    money(l.actual),
    money(l.difference),
  ];
}
