import { intlLocale } from '../../locales/money.js';
import { api } from './api.js';
import { reportCsv } from './csv.js';
import { h } from './dom.js';
import { failureWords } from './failure.js';
import type { Words } from './i18n.js';
import { currencyLabel, formatTableMoney, moneyOfCode } from './money.js';
import { COUNTS, hold, MONEY, totalsByCurrency, type GamingDayReport, type ReportLine } from './report-model.js';
import { table } from './table-page.js';
import { correctionPageCells, correctionsCutWords, correctionsHead } from './corrections.js';
import { theoreticalHead, theoreticalPageCells } from './theoretical.js';
import { syncNote } from './report-sync.js';

/**
 * The gaming day's report: per table, per station, the floor's total, and the voids and
 * corrections with their articles; a CSV of the same figures, and a page that prints on A4 (the
 * print stylesheet hides the controls) with lines to sign.
 */
export function reportPage(w: Words, initial?: string): HTMLElement {
  const t = w.t;
  const date = h('input', { type: 'date', name: 'date', 'data-testid': 'report-date', ...(initial ? { value: initial } : {}) });
  const body = h('div', { class: 'report' });
  const form = h(
    'form',
    { class: 'report-controls' },
    h('label', {}, t('backoffice.report.date'), ' ', date),
    h('button', { type: 'submit' }, t('backoffice.report.show')),
  );
  const load = async () => {
    let report: GamingDayReport;
    try {
      report = await api.report(date.value || undefined);
    } catch (e) {
      // Said in place of the report: until a review of 7 December a day the upstream refused or
      // failed left the previous day's report, its CSV and print, under the date asked, and said nothing.
      body.replaceChildren(h('p', { class: 'error', role: 'alert', 'data-testid': 'report-failed' }, failureWords(w, e)));
      return;
    }
    date.value = report.date;
    body.replaceChildren(reportBody(w, report));
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void load();
  });
  void load();
  return h('section', { 'data-testid': 'report' }, form, body);
}

function reportBody(w: Words, r: GamingDayReport): HTMLElement {
  const t = w.t;
  const percent = new Intl.NumberFormat(intlLocale(w.language), { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2 });
  // Each line in its own table's currency, named in its own column: the floor is not one currency.
  const head = [
    t('backoffice.report.col.table'),
    t('backoffice.report.col.currency'),
    ...MONEY.map((c) => t(`backoffice.report.col.${c}`)),
    ...COUNTS.map((c) => t(`backoffice.report.col.${c}`)),
    t('backoffice.report.col.hold'),
  ];
  const cells = (l: ReportLine, name: string) => {
    const hp = hold(l);
    const money = (v: number) => formatTableMoney(v, l.currency, w.language);
    return [name, currencyLabel(l.currency), ...MONEY.map((c) => money(l[c])), ...COUNTS.map((c) => String(l[c])), hp === null ? '—' : percent.format(hp)];
  };
  const tables = r.lines.filter((l) => l.scope === 'table');
  const stations = r.lines.filter((l) => /^station:\d+$/.test(l.scope));
  const csv = h('button', { type: 'button', 'data-testid': 'csv' }, t('backoffice.report.csv'));
  csv.addEventListener('click', () => {
    const blob = new Blob([reportCsv(w, r)], { type: 'text/csv;charset=utf-8' });
    const a = h('a', { href: URL.createObjectURL(blob), download: `gaming-day-${r.date}-${w.language}.csv` });
    document.body.append(a);
    a.click();
    a.remove();
  });
  const print = h('button', { type: 'button', 'data-testid': 'print' }, t('backoffice.report.print'));
  print.addEventListener('click', () => window.print());
  const time = new Intl.DateTimeFormat(intlLocale(w.language), { timeZone: 'Asia/Macau', dateStyle: 'medium', timeStyle: 'short' });
  return h(
    'div',
    {},
    h('h1', {}, t('backoffice.report.title', { date: r.date })),
    h('p', {}, t('backoffice.report.window', { from: time.format(new Date(r.from)), to: time.format(new Date(r.to)), hour: r.startHour })),
    syncNote(w, r.sync, time),
    h('p', { class: 'report-actions' }, csv, ' ', print),
    h('h2', {}, t('backoffice.report.perTable')),
    table(head, [...tables.map((l) => cells(l, l.terminalId)), ...totalsByCurrency(r.lines).map((l) => cells(l, t('backoffice.report.total')))]),
    h('h2', {}, t('backoffice.report.perStation')),
    table(
      [t('backoffice.report.col.station'), ...head.slice(1)],
      stations.map((l) => cells(l, `${l.terminalId} — ${t('backoffice.table.station', { n: Number(l.scope.slice('station:'.length)) })}`)),
    ),
    h('h2', {}, t('backoffice.report.theoretical')),
    h('p', {}, t('backoffice.report.theoreticalNote')),
    h(
      'div',
      { 'data-testid': 'theoretical' },
      table(
        theoreticalHead(t),
        r.theoretical.map((l) => theoreticalPageCells(w, l)),
      ),
    ),
    h('h2', {}, t('backoffice.report.corrections')),
    h(
      'div',
      { 'data-testid': 'corrections' },
      table(
        correctionsHead(t),
        r.corrections.map((c) => correctionPageCells(w, c)),
      ),
    ),
    ...r.correctionsCut.map((c) => h('p', { 'data-testid': 'corrections-cut' }, correctionsCutWords(t, c))),
    h('h2', {}, t('backoffice.report.liability')),
    liabilityLines(w, r),
    h('div', { class: 'signatures' }, ...[1, 2].map(() => h('p', {}, `${t('backoffice.report.signature')}: ____________________`))),
  );
}

/** The floor's outstanding ticket liability at the day's end, one line per currency. */
function liabilityLines(w: Words, r: GamingDayReport): HTMLElement {
  const t = w.t;
  const at = w.time(r.liability.asOf);
  if (r.liability.currencies.length === 0) return h('p', { 'data-testid': 'liability' }, t('backoffice.report.liabilityNone', { at }));
  return h(
    'ul',
    { 'data-testid': 'liability' },
    r.liability.currencies.map((c) => {
      // In its own currency, whatever code the register holds: any other than MOP and HKD was its bare minor units.
      const amount = formatTableMoney(c.amount, moneyOfCode(c.currency), w.language);
      return h('li', {}, t('backoffice.report.liabilityLine', { currency: c.currency, tickets: c.tickets, amount, at }));
    }),
  );
}
