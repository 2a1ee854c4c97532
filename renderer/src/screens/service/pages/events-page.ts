import { SERVICE_PAGE_SIZE, type ServicePage } from '../../../../../protocol/index.js';
import { isMessageKey } from '../../../../../locales/i18n.js';
import { saidWords } from '../../../../../locales/said.js';
import type { PageChoices } from './choices.js';
import { eventFilter } from './event-filter.js';
import { GROUP_NAMES } from './event-groups.js';
import { faultDetailWords } from './fault-detail.js';
import { cycle, shorten, wrapRow } from './rows.js';
import { macauTime, typedTime } from './time.js';
import type { PageKit } from './kit.js';

/** The event log: its filter above the entries, the filter buttons (severity, type groups, span, typed ends) and the pages. */
export function eventsPage(page: Extract<ServicePage, { page: 'events' }>, k: PageKit): void {
  const { t, c, a, rows, btn } = k;
  eventsHeader(k);
  if (page.entries.length === 0) rows.push(t('service.field.noEntries'));
  else rows.push(t('service.field.page', { from: page.offset + 1, to: page.offset + page.entries.length }));
  for (const e of page.entries) {
    const what = t('punctuation.labelled', { label: typeWords(e.type, k), value: entryWords(e, k) });
    rows.push(shorten(`#${e.seq} ${macauTime(e.ts)} ${t(`service.severity.${e.severity}`)} ${what}`));
  }
  const refilter = (u: Partial<PageChoices>) => {
    a.choose(u);
    a.open('events', { filter: eventFilter({ ...c, ...u }, Date.now()) });
  };
  if (c.eventPicker) {
    // The type groups, each a toggle; none chosen is every type.
    btn('type-all', t('service.action.allTypes'), () => refilter({ eventGroups: [] }), true, c.eventGroups.length === 0);
    for (const g of GROUP_NAMES) {
      const on = c.eventGroups.includes(g);
      btn(
        `type-${g}`,
        t(`service.eventGroup.${g}`),
        () => refilter({ eventGroups: on ? c.eventGroups.filter((x) => x !== g) : [...c.eventGroups, g] }),
        true,
        on,
      );
    }
    btn('types-done', t('service.action.done'), () => a.choose({ eventPicker: false }));
    return;
  }
  btn(
    'filter-severity',
    t('service.action.severity', { severity: c.eventSeverity === 'all' ? t('service.action.all') : t(`service.severity.${c.eventSeverity}`) }),
    () => refilter({ eventSeverity: cycle(['all', 'info', 'warning', 'critical'] as const, c.eventSeverity) }),
  );
  btn('filter-type', t('service.action.types'), () => a.choose({ eventPicker: true }), true, c.eventGroups.length > 0);
  btn('filter-since', t('service.action.since', { since: t(`service.since.${c.eventSince}`) }), () =>
    refilter({
      eventSince: cycle(['all', 'hour', 'shift', 'day', 'week'] as const, c.eventSince === 'custom' ? 'week' : c.eventSince),
      eventFrom: null,
      eventTo: null,
    }),
  );
  for (const end of ['from', 'to'] as const) {
    const key = end === 'from' ? 'eventFrom' : 'eventTo';
    const value = c[key];
    btn(
      `filter-${end}`,
      t(`service.action.${end}`, { at: value === null ? '—' : macauTime(value).slice(0, 16) }),
      () =>
        a.ask({
          title: t('service.pages.events'),
          label: t('service.action.typeTime'),
          kind: 'digits',
          then: (digits) => {
            const at = typedTime(digits);
            if (at === null) return;
            const other = end === 'from' ? c.eventTo : c.eventFrom;
            // From after to would list nothing: the ends are swapped rather than refused.
            const [from, to] = end === 'from' ? [at, other] : [other, at];
            const ordered = from !== null && to !== null && from > to ? { eventFrom: to, eventTo: from } : { eventFrom: from, eventTo: to };
            refilter({ eventSince: 'custom', ...ordered });
          },
        }),
      true,
      value !== null,
    );
  }
  // The host's page holds forty entries; the screen scrolls through them, then asks for the next forty.
  k.pager(page, SERVICE_PAGE_SIZE.events, (offset) => a.open('events', { offset, filter: page.filter }));
}

/**
 * An entry's type by its name in the screen's language (`entryType.<type>`; every type the journal
 * takes has one, tests/locales/entry-types.test.ts); a type this screen does not know (a later
 * host's) by its code, as it came. The code itself is in the journal's export.
 */
function typeWords(type: string, k: PageKit): string {
  const key = `entryType.${type}`;
  return isMessageKey(key) ? k.t(key) : type;
}

/**
 * What an entry says: the journal's words by key where it has them (a meter clear; a note, a
 * credit cancelled, a handpay by their fields: host/service/backend/event-words.ts), a fault raised
 * or cleared in the screen's words (where, what, who cleared it, and its detail where the host
 * worded it), any other entry its payload as the journal has it, labelled as such.
 */
export function entryWords(e: Extract<ServicePage, { page: 'events' }>['entries'][number], k: PageKit): string {
  const { t } = k;
  // An amount the host says without its currency (a credit cancelled, a handpay) is in the table's, the session's.
  if (e.said && isMessageKey(e.said.key))
    return saidWords((key, options) => t(key, options), { key: e.said.key, values: { currency: k.currency, ...e.said.values } });
  // An entry of a kind the host has no words for: its payload as the journal has it, and said to be.
  if (!e.fault) return t('service.field.eventAsRecorded', { summary: e.summary });
  const where = e.fault.station !== undefined ? t('service.field.atStation', { station: e.fault.station }) : t('service.field.atTable');
  const fault = t('punctuation.joined', { first: where, second: t(`tilt.${e.fault.kind}`) });
  const cleared = e.fault.cleared;
  const what =
    cleared === undefined
      ? fault
      : cleared.by !== undefined
        ? t('service.field.faultClearedBy', { by: cleared.by, fault })
        : t('service.field.faultClearedItself', { fault });
  const detail = faultDetailWords(t, e.fault.detail);
  return detail === null ? what : t('punctuation.labelled', { label: what, value: detail });
}

/** What the log is filtered by, above the entries. */
function eventsHeader(k: PageKit): void {
  const { c, t, rows } = k;
  const severity = c.eventSeverity === 'all' ? t('service.action.all') : t(`service.severity.${c.eventSeverity}`);
  const types = c.eventGroups.length ? c.eventGroups.map((g) => t(`service.eventGroup.${g}`)) : [t('service.action.allTypes')];
  const when =
    c.eventSince === 'custom'
      ? t('service.field.between', {
          from: c.eventFrom === null ? '…' : macauTime(c.eventFrom).slice(0, 16),
          to: c.eventTo === null ? '…' : macauTime(c.eventTo).slice(0, 16),
        })
      : t(`service.since.${c.eventSince}`);
  rows.push(...wrapRow(t('service.field.filterNow', { severity, types, when })));
}
