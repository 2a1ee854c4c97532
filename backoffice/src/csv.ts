import { minorToDecimal } from '../../locales/money.js';
import type { i18n } from 'i18next';
import { currencyLabel, moneyOfCode } from './money.js';
import { COUNTS, hold, MONEY, totalsByCurrency, type GamingDayReport, type ReportLine } from './report-model.js';
import { correctionCsvCells, correctionsCutWords, correctionsHead } from './corrections.js';
import { theoreticalCsvCells, theoreticalHead } from './theoretical.js';
import { syncWords } from './report-sync.js';

/**
 * The gaming day as CSV (RFC 4180; a UTF-8 byte order mark so a spreadsheet reads the Chinese
 * headers): one line per table, one per station, and the floor's total. Amounts are exact
 * decimals of the currency's major unit written from the integer minor units (no float on the
 * way), so the file adds up to the ledgers' meters to the avo; the header is in the page's language.
 * Each line is in its own table's currency (its code in the currency column, its exponent for the
 * decimals), and the floor's total is one line per currency: MOP is never added to HKD. A table
 * that never named its currency is written in minor units under ¤. Then hold against theoretical
 * per table, game, profile and bet, the voids and corrections with their articles (always, under
 * its title and header: a day with none shows none), the outstanding ticket liability, and whether
 * the day was open, complete or provisional when read (each table behind on a line of its own).
 */
export function reportCsv(w: { t: i18n['t'] }, report: GamingDayReport): string {
  const t = w.t;
  const head = [
    t('backoffice.report.col.table'),
    t('backoffice.report.col.station'),
    t('backoffice.report.col.currency'),
    ...MONEY.map((c) => t(`backoffice.report.col.${c}`)),
    ...COUNTS.map((c) => t(`backoffice.report.col.${c}`)),
    t('backoffice.report.col.hold'),
    t('backoffice.report.col.notes'),
  ];
  const row = (l: ReportLine, table: string, station: string) => {
    const h = hold(l);
    const digits = l.currency?.exponent ?? 0;
    return [
      table,
      station,
      currencyLabel(l.currency),
      ...MONEY.map((c) => minorToDecimal(l[c], digits)),
      ...COUNTS.map((c) => String(l[c])),
      h === null ? '' : (h * 100).toFixed(2),
      Object.entries(l.notes)
        .sort(([a], [b]) => Number(a) - Number(b))
        .map(([d, n]) => `${minorToDecimal(Number(d), digits)}x${n}`)
        .join(' '),
    ];
  };
  const lines = [head];
  for (const l of report.lines) {
    const station = /^station:(\d+)$/.exec(l.scope)?.[1];
    if (l.scope !== 'table' && station === undefined) continue;
    lines.push(row(l, l.terminalId, station ?? ''));
  }
  for (const total of totalsByCurrency(report.lines)) lines.push(row(total, t('backoffice.report.total'), ''));
  // Hold against theoretical after a blank line, under its own title and header (theoretical.ts).
  if (report.theoretical.length > 0) lines.push([], [t('backoffice.report.theoretical')], theoreticalHead(t));
  for (const l of report.theoretical) lines.push(theoreticalCsvCells(t, l));
  // The voids and corrections after a blank line, under their title and header, as on the printable page (corrections.ts).
  lines.push([], [t('backoffice.report.corrections')], correctionsHead(t));
  for (const c of report.corrections) lines.push(correctionCsvCells(t, c));
  // A table with more than the report lists says so under them: none is dropped unsaid.
  for (const c of report.correctionsCut) lines.push([correctionsCutWords(t, c)]);
  // The outstanding ticket liability after a blank line: its label, as of when, currency, tickets, amount.
  if (report.liability.currencies.length > 0) lines.push([]);
  for (const c of report.liability.currencies) {
    // In its own currency's major unit, whatever code the register holds (a table's word): any other
    // than MOP and HKD was written as its bare minor units until a review of 6 December.
    const money = moneyOfCode(c.currency);
    lines.push([
      t('backoffice.report.liability'),
      report.liability.asOf,
      c.currency,
      String(c.tickets),
      money ? minorToDecimal(c.amount, money.exponent) : String(c.amount),
    ]);
  }
  // Last, after a blank line, how far the tables' journals had come when it was read (report-sync.ts):
  // a file taken away says it was provisional as the page does. Instants as the report gives them (UTC).
  for (const b of syncWords(t, report.sync, (iso) => iso).blocks) lines.push([], [b.said], ...b.lines.map((line) => [line]));
  return `\ufeff${lines.map((cells) => cells.map(cell).join(',')).join('\r\n')}\r\n`;
}

/**
 * One field: quoted when it holds a comma, quote or line break; a text that a spreadsheet would
 * run as a formula (= + - @ at its start) is quoted with an apostrophe first (OWASP's CSV
 * injection advice). Our numbers never start so but a negative one, which is left as it is.
 */
function cell(v: string): string {
  const safe = /^[=+@\t\r]/.test(v) || (/^-/.test(v) && !/^-\d+(\.\d+)?$/.test(v)) ? `'${v}` : v;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
