import { z } from 'zod';
import { h } from './dom.js';
import type { Words } from './i18n.js';

/** How far each table's journal had come when the report was read (upstream/backoffice/report-sync.ts). */
export const ReportSync = z.object({
  readAt: z.string(),
  dayOver: z.boolean(),
  complete: z.boolean(),
  changedAfterComplete: z.boolean(),
  /** Tables whose figures of the day are past what any table takes in a day (upstream/backoffice/gaming-day.ts): left out of the report. */
  outOfRange: z.array(z.string()),
  tables: z.array(
    z.object({
      terminalId: z.string(),
      syncedSeq: z.number().int(),
      lastSeen: z.string().nullable(),
      unsent: z.number().int().nullable(),
      complete: z.boolean(),
      changed: z.object({ entries: z.number().int(), firstReceivedAt: z.string(), lastReceivedAt: z.string() }).nullable(),
      /** Entries received in the day dated after its end (a clock fast): in no figure of the day. */
      datedAfter: z.object({ entries: z.number().int(), earliest: z.string(), latest: z.string() }).nullable(),
    }),
  ),
});
export type ReportSync = z.infer<typeof ReportSync>;

/** A sentence, and a line under it for each table it names. */
export interface SyncBlock {
  said: string;
  lines: string[];
}

export type SyncState = 'open' | 'complete' | 'provisional' | 'changed';

/**
 * The sync's words: its state and its sentences, each with a line for each table it names; `time`
 * writes an instant. A day some table changed after it had said the day was complete says so first
 * (upstream/ingest/misdated.ts), instead of a plain "complete".
 */
export function syncWords(t: Words['t'], s: ReportSync, time: (iso: string) => string): { state: SyncState; blocks: SyncBlock[] } {
  const { state, blocks } = journalWords(t, s, time);
  const first: SyncBlock[] = [];
  if (s.outOfRange.length > 0)
    first.push({ said: t('backoffice.report.sync.outOfRange'), lines: s.outOfRange.map((table) => t('backoffice.report.sync.outOfRangeTable', { table })) });
  const after = s.tables.flatMap((x) =>
    x.datedAfter === null
      ? []
      : [
          t('backoffice.report.sync.datedAfterTable', {
            table: x.terminalId,
            count: x.datedAfter.entries,
            first: time(x.datedAfter.earliest),
            last: time(x.datedAfter.latest),
          }),
        ],
  );
  if (after.length > 0) first.push({ said: t('backoffice.report.sync.datedAfter'), lines: after });
  return { state, blocks: [...first, ...blocks] };
}

/** How far the tables' journals had come: the day open, complete, provisional or changed after it was complete. */
function journalWords(t: Words['t'], s: ReportSync, time: (iso: string) => string): { state: SyncState; blocks: SyncBlock[] } {
  const at = time(s.readAt);
  if (!s.dayOver) return { state: 'open', blocks: [{ said: t('backoffice.report.sync.open', { at }), lines: [] }] };
  const changed = s.tables.flatMap((x) =>
    x.changed === null
      ? []
      : [
          t('backoffice.report.sync.changedTable', {
            table: x.terminalId,
            count: x.changed.entries,
            first: time(x.changed.firstReceivedAt),
            last: time(x.changed.lastReceivedAt),
          }),
        ],
  );
  if (s.complete) {
    if (changed.length === 0) return { state: 'complete', blocks: [{ said: t('backoffice.report.sync.complete', { at }), lines: [] }] };
    return { state: 'changed', blocks: [{ said: t('backoffice.report.sync.changed', { at }), lines: changed }] };
  }
  const provisional = { said: t('backoffice.report.sync.provisional', { at }), lines: behind(t, s, time) };
  if (changed.length === 0) return { state: 'provisional', blocks: [provisional] };
  return { state: 'changed', blocks: [{ said: t('backoffice.report.sync.changedToo'), lines: changed }, provisional] };
}

/** A line for each table that had not sent its whole journal past the day's end. */
function behind(t: Words['t'], s: ReportSync, time: (iso: string) => string): string[] {
  return s.tables
    .filter((x) => !x.complete)
    .map((x) => {
      if (x.lastSeen === null) return t('backoffice.report.sync.never', { table: x.terminalId });
      const seen = time(x.lastSeen);
      return x.unsent === null
        ? t('backoffice.report.sync.tableUnknown', { table: x.terminalId, seen })
        : t('backoffice.report.sync.table', { table: x.terminalId, seen, count: x.unsent });
    });
}

/**
 * Whether the figures may still change: the day not over, or the tables that had not sent their
 * whole journal past its end when it was read, each with when it was last heard and what it said
 * it had yet to send; and whether they changed after a table had said the day was complete.
 * Printed with the report, so a signed copy says what it was read before.
 */
export function syncNote(w: Words, s: ReportSync, time: Intl.DateTimeFormat): HTMLElement {
  const { state, blocks } = syncWords(w.t, s, (iso) => time.format(new Date(iso)));
  const only = blocks[0];
  if (blocks.length === 1 && only && only.lines.length === 0) {
    return h('p', { class: 'report-sync', 'data-testid': 'report-sync', 'data-state': state }, only.said);
  }
  return h(
    'div',
    { class: 'report-sync', 'data-testid': 'report-sync', 'data-state': state },
    blocks.flatMap((b) => [
      h('p', {}, b.said),
      h(
        'ul',
        {},
        b.lines.map((line) => h('li', {}, line)),
      ),
    ]),
  );
}
