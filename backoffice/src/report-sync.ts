import { z } from 'zod';
import { h } from './dom.js';
import type { Words } from './i18n.js';

/** How far each table's journal had come when the report was read (upstream/backoffice/report-sync.ts). */
export const ReportSync = z.object({
  readAt: z.string(),
  dayOver: z.boolean(),
  complete: z.boolean(),
  tables: z.array(
    z.object({
      terminalId: z.string(),
      syncedSeq: z.number().int(),
      lastSeen: z.string().nullable(),
      unsent: z.number().int().nullable(),
      complete: z.boolean(),
    }),
  ),
});
export type ReportSync = z.infer<typeof ReportSync>;

/** The sync's words: its state, its sentence, and a line for each table behind (provisional only); `time` writes an instant. */
export function syncWords(
  t: Words['t'],
  s: ReportSync,
  time: (iso: string) => string,
): { state: 'open' | 'complete' | 'provisional'; said: string; behind: string[] } {
  const at = time(s.readAt);
  if (!s.dayOver) return { state: 'open', said: t('backoffice.report.sync.open', { at }), behind: [] };
  if (s.complete) return { state: 'complete', said: t('backoffice.report.sync.complete', { at }), behind: [] };
  const behind = s.tables
    .filter((x) => !x.complete)
    .map((x) => {
      if (x.lastSeen === null) return t('backoffice.report.sync.never', { table: x.terminalId });
      const seen = time(x.lastSeen);
      return x.unsent === null
        ? t('backoffice.report.sync.tableUnknown', { table: x.terminalId, seen })
        : t('backoffice.report.sync.table', { table: x.terminalId, seen, count: x.unsent });
    });
  return { state: 'provisional', said: t('backoffice.report.sync.provisional', { at }), behind };
}

/**
 * Whether the figures may still change: the day not over, or the tables that had not sent their
 * whole journal past its end when it was read, each with when it was last heard and what it said
 * it had yet to send. Printed with the report, so a signed copy says what it was read before.
 */
export function syncNote(w: Words, s: ReportSync, time: Intl.DateTimeFormat): HTMLElement {
  const { state, said, behind } = syncWords(w.t, s, (iso) => time.format(new Date(iso)));
  if (state !== 'provisional') return h('p', { class: 'report-sync', 'data-testid': 'report-sync', 'data-state': state }, said);
  return h(
    'div',
    { class: 'report-sync', 'data-testid': 'report-sync', 'data-state': state },
    h('p', {}, said),
    h('ul', {}, ...behind.map((line) => h('li', {}, line))),
  );
}
