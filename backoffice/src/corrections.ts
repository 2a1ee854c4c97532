import type { i18n } from 'i18next';
import type { Words } from './i18n.js';
import type { GamingDayReport } from './report-model.js';

type Correction = GamingDayReport['corrections'][number];

/**
 * The day's voids and corrections (upstream/backoffice/gaming-day.ts), one line each, on the
 * printable page and in the CSV alike: the table, the round (or the entry's seq when it names
 * none), when, what it was (a round voided, a dealing error corrected), the article that decided it
 * (a void's `rule`, a correction's `article`; empty when none did) and the detail (the reason given).
 */
export function correctionsHead(t: i18n['t']): string[] {
  return [
    t('backoffice.report.col.table'),
    t('backoffice.table.round'),
    t('backoffice.table.time'),
    t('backoffice.report.kind'),
    t('backoffice.report.article'),
    t('backoffice.report.detail'),
  ];
}

/** What the entry was, in words: a round voided, a dealing error corrected, one that voided its round, or a hold lifted that voided none. */
function kind(t: i18n['t'], c: Correction): string {
  return t(`backoffice.report.kinds.${c.kind}`);
}

/** The detail, and how many misreads' details were left out of it, if any. */
function detail(t: i18n['t'], c: Correction): string {
  if (c.detailsCut === 0) return c.detail;
  const cut = t('backoffice.report.detailsCut', { n: c.detailsCut });
  // Joined by the catalogue: each language its own separator.
  return c.detail ? t('backoffice.report.detailWithCut', { detail: c.detail, cut }) : cut;
}

/** A line of the page: its time in Macau's, in the language's Macau locale. */
export function correctionPageCells(w: Words, c: Correction): string[] {
  return [c.terminalId, c.roundId ?? String(c.seq), w.time(c.ts), kind(w.t, c), c.article, detail(w.t, c)];
}

/** A line of the CSV: its time as the instant (ISO 8601, UTC), what a spreadsheet sorts on in any language. */
export function correctionCsvCells(t: i18n['t'], c: Correction): string[] {
  return [c.terminalId, c.roundId ?? String(c.seq), c.ts, kind(t, c), c.article, detail(t, c)];
}

/** A table whose voids and corrections of the day are more than the report lists: how many are listed, of how many, and where the rest are. */
export function correctionsCutWords(t: i18n['t'], c: GamingDayReport['correctionsCut'][number]): string {
  return t('backoffice.report.correctionsCut', { table: c.terminalId, listed: c.listed, total: c.total });
}
