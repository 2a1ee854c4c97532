import { type AuditFilter, type AuditPage } from './api.js';
import { h } from './dom.js';
import { failureWords } from './failure.js';
import type { Words } from './i18n.js';

/**
 * The actions the upstream writes to its audit log (upstream/backoffice/audit.ts `AUDIT_ACTIONS`),
 * which this page's build cannot import: the filter offers these, and the upstream refuses any other.
 */
export const AUDIT_ACTIONS = [
  'sign-in',
  'sign-in.refused',
  'sign-out',
  'settings.change',
  'alarm.acknowledge',
  'config.propose',
  'config.approve',
  'config.withdraw',
  'config.deliver',
  'report.read',
  'round.evidence',
  'user.add',
  'user.replace',
  'user.disable',
  'floor.stream.ended',
  'floor.stream.dropped',
] as const;
type AuditAction = (typeof AUDIT_ACTIONS)[number];
const isAction = (a: string): a is AuditAction => AUDIT_ACTIONS.some((x) => x === a);

export function actionWord(t: Words['t'], action: string): string {
  return isAction(action) ? t(`backoffice.audit.actions.${action}`) : t('backoffice.audit.other', { action });
}

/** The query of one page, in the order the upstream reads it; nothing for a filter left empty. */
export function auditQuery(f: AuditFilter): string {
  const q = new URLSearchParams();
  if (f.action) q.set('action', f.action);
  if (f.notAction) q.set('notAction', f.notAction);
  if (f.actor) q.set('actor', f.actor);
  if (f.before !== undefined) q.set('before', String(f.before));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** One page's rows: when, who, from where, what (in words; the code beside it), and the detail as the upstream wrote it. */
export function auditRows(w: Words, page: AuditPage): HTMLElement {
  const t = w.t;
  if (page.rows.length === 0) return h('p', { class: 'empty', 'data-testid': 'audit-none' }, t('backoffice.audit.none'));
  const head = h(
    'tr',
    {},
    [t('backoffice.audit.at'), t('backoffice.audit.actor'), t('backoffice.audit.address'), t('backoffice.audit.action'), t('backoffice.audit.detail')].map(
      (c) => h('th', {}, c),
    ),
  );
  return h(
    'table',
    { class: 'audit', 'data-testid': 'audit-rows' },
    h('thead', {}, head),
    h(
      'tbody',
      {},
      page.rows.map((r) =>
        h(
          'tr',
          { 'data-id': String(r.id), 'data-action': r.action },
          h('td', {}, w.time(r.at)),
          h('td', {}, r.actor ?? '—'),
          h('td', {}, r.address ?? '—'),
          h('td', { title: r.action }, actionWord(t, r.action)),
          h('td', { class: 'detail' }, JSON.stringify(r.detail)),
        ),
      ),
    ),
  );
}

/**
 * The filter the form asks for: the action chosen, or with «every action but this one» ticked every
 * other (the refused sign-ins left out, to see what was done behind their flood), and who.
 */
export function auditFilter(form: { action: string; allBut: boolean; actor: string }): AuditFilter {
  const who = form.actor.trim();
  const action = form.action ? (form.allBut ? { notAction: form.action } : { action: form.action }) : {};
  return { ...action, ...(who ? { actor: who } : {}) };
}

/** The filter without its cursor: the newest page of the same rows. */
function newestOf(f: AuditFilter): AuditFilter {
  return { ...(f.action ? { action: f.action } : {}), ...(f.notAction ? { notAction: f.notAction } : {}), ...(f.actor ? { actor: f.actor } : {}) };
}

function filterForm(w: Words, show: (f: AuditFilter) => void): HTMLFormElement {
  const t = w.t;
  const action = h(
    'select',
    { name: 'action', 'aria-label': t('backoffice.audit.action'), 'data-testid': 'audit-action' },
    h('option', { value: '' }, t('backoffice.audit.every')),
  );
  for (const a of AUDIT_ACTIONS) action.append(h('option', { value: a }, actionWord(t, a)));
  const actor = h('input', {
    name: 'actor',
    maxlength: '64',
    'aria-label': t('backoffice.audit.actor'),
    placeholder: t('backoffice.audit.actor'),
    'data-testid': 'audit-actor',
  });
  const allBut = h('input', { type: 'checkbox', name: 'allBut', 'data-testid': 'audit-all-but' });
  const form = h(
    'form',
    { class: 'audit-filter' },
    h('label', {}, t('backoffice.audit.action'), action),
    h('label', {}, allBut, t('backoffice.audit.allBut')),
    h('label', {}, t('backoffice.audit.actor'), actor),
    h('button', { type: 'submit' }, t('backoffice.audit.show')),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    show(auditFilter({ action: action.value, allBut: allBut.checked, actor: actor.value }));
  });
  return form;
}

/**
 * The audit log a page at a time, newest first, filtered by action and by who: a flood of refused
 * sign-ins fills the newest pages, and what was done behind it is a filter or an older page away.
 * Newer goes back the way Older came (the cursors kept), as the upstream pages only older.
 */
export async function auditPage(w: Words, load: (f: AuditFilter) => Promise<AuditPage>): Promise<HTMLElement> {
  const t = w.t;
  const rows = h('div', {});
  const failed = h('p', { class: 'error', role: 'alert', 'data-testid': 'audit-failed' });
  const newer = h('button', { type: 'button', 'data-testid': 'audit-newer' }, t('backoffice.audit.newer'));
  const older = h('button', { type: 'button', 'data-testid': 'audit-older' }, t('backoffice.audit.older'));
  let filter: AuditFilter = {};
  let cursors: number[] = [];
  let shown: AuditPage = { rows: [], older: null };
  const show = async (f: AuditFilter, back: number[]) => {
    const page = await load(f);
    filter = f;
    cursors = back;
    shown = page;
    rows.replaceChildren(auditRows(w, page));
    newer.hidden = back.length === 0;
    older.hidden = page.older === null;
  };
  const go = (f: AuditFilter, back: number[]) => {
    failed.textContent = '';
    show(f, back).catch((e: unknown) => {
      failed.textContent = failureWords(w, e);
    });
  };
  older.addEventListener('click', () => {
    if (shown.older === null) return;
    go({ ...filter, before: shown.older }, [...cursors, filter.before ?? 0]);
  });
  newer.addEventListener('click', () => {
    const back = cursors.slice(0, -1);
    const before = cursors.at(-1) ?? 0;
    go({ ...newestOf(filter), ...(before === 0 ? {} : { before }) }, back);
  });
  await show({}, []);
  return h(
    'section',
    { 'data-testid': 'audit' },
    h('h1', {}, t('backoffice.audit.title')),
    filterForm(w, (f) => go(f, [])),
    failed,
    rows,
    h('nav', { class: 'pages' }, newer, older),
  );
}
