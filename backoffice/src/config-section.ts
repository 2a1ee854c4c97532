import { ApiError, type ConfigRequest, type Proposal } from './api.js';
import { profileWords } from './codes.js';
import { h } from './dom.js';
import { failureWords } from './failure.js';
import { isMessageKey } from '../../locales/i18n.js';
import { saidWords } from '../../locales/said.js';
import { listWords, type Words } from './i18n.js';
import { currencyLabel, formatTableMoney, type TableMoney } from './money.js';
import { table } from './table-page.js';

// A table's configuration changes on its page (issue 49 item 6; docs/backoffice.md): each request
// with who proposed and approved it and what the table answered in its journal, the buttons for a
// second person, and the form that proposes a change of the limits, a rule option or the rule profile.

export interface ConfigActions {
  /** The signed-in user's name: their own request waits for someone else. */
  me: string;
  may: boolean;
  propose(p: Proposal): Promise<void>;
  decide(id: number, how: 'approve' | 'withdraw'): Promise<void>;
}

const MARK: Record<ConfigRequest['state'], string> = { proposed: '◌', approved: '✔', delivered: '➜', applied: '●', refused: '✖', withdrawn: '⨯' };

/**
 * A decimal amount of the currency's major unit as whole minor units (`1234.5` → 123450 avos), by
 * its digits: no float on the way. Null for anything else (a sign, too many decimals, letters).
 */
export function decimalToMinor(text: string, digits: number): number | null {
  const m = /^(\d{1,13})(?:[.,](\d+))?$/.exec(text.trim());
  if (!m || (m[2]?.length ?? 0) > digits) return null;
  const minor = Number(`${m[1]}${(m[2] ?? '').padEnd(digits, '0')}`);
  return Number.isSafeInteger(minor) && minor > 0 ? minor : null;
}

/** A rule option's value as typed: true/false, a number, else the text. */
export function optionValue(text: string): string | number | boolean {
  const v = text.trim();
  if (v === 'true' || v === 'false') return v === 'true';
  return /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v;
}

/**
 * The most a station credit limit may be (minor units: SAS 0x1A's 8 digits). The upstream holds a
 * proposal to terms/config-order-terms.ts CREDIT_LIMIT_MAX, which this page's build cannot import;
 * this only spares a supervisor a proposal the upstream would refuse.
 */
export const CREDIT_LIMIT_MAX = 99_999_999;

/** What the form holds when it is sent. */
export interface ProposalFields {
  key: string;
  min: string;
  max: string;
  option: string;
  value: string;
  profile: string;
  /** The station credit limit, in the major unit as typed. */
  creditLimit: string;
  authorisation: string;
  note: string;
}

/**
 * The proposal the form's fields make, or null when they make none: amounts by their digits (the
 * minimum not above the maximum), a rule option's name, a profile's code (`macau-2004`: whether
 * the table's game has it is the table's guard's to say), and always the authorisation reference.
 */
export function proposalOf(f: ProposalFields, digits: number): Proposal | null {
  const authorisation = f.authorisation.trim();
  if (!authorisation) return null;
  const note = f.note;
  if (f.key === 'limits') {
    const min = decimalToMinor(f.min, digits);
    const max = decimalToMinor(f.max, digits);
    return min !== null && max !== null && min <= max ? { key: 'limits', after: { min, max }, authorisation, note } : null;
  }
  if (f.key === 'creditLimit') {
    // The table holds it to what SAS 0x1A can say; the upstream refuses more before anyone approves it.
    const limit = decimalToMinor(f.creditLimit, digits);
    return limit !== null && limit <= CREDIT_LIMIT_MAX ? { key: 'creditLimit', after: limit, authorisation, note } : null;
  }
  if (f.key === 'profile') {
    const profile = f.profile.trim();
    return /^[a-z][a-z0-9-]{0,63}$/.test(profile) ? { key: 'profile', after: profile, authorisation, note } : null;
  }
  const option = f.option.trim();
  return option ? { key: 'profileOptions', after: { [option]: optionValue(f.value) }, authorisation, note } : null;
}

/** What a table's heartbeat says of its rules: the profile it plays and the profiles its game has. */
export interface TableRules {
  profile?: string | undefined;
  profiles?: readonly string[] | undefined;
}

/**
 * The profiles the form offers for a table: its own game's (as its heartbeat names them), not the
 * one it plays; none when the table has not said (no heartbeat yet, an older build): then the form
 * offers no profile change, as it cannot know the game's. Another game's profile is never offered.
 */
export function profileChoices(rules: TableRules | null): string[] {
  const all = rules?.profiles ?? [];
  return [...new Set(all)].filter((p) => /^[a-z][a-z0-9-]{0,63}$/.test(p) && p !== rules?.profile);
}

/**
 * The words of a request's state. A credit limit delivered is made by the table as it arrives
 * (host/floor/remote-config.ts, IMMEDIATE_KEYS), not at the next shoe as the other keys are: until
 * the journal syncs back it is said to be being made.
 */
export function stateKey(
  r: Pick<ConfigRequest, 'key' | 'state'>,
): 'backoffice.config.state.deliveredAtOnce' | `backoffice.config.state.${ConfigRequest['state']}` {
  return r.key === 'creditLimit' && r.state === 'delivered' ? 'backoffice.config.state.deliveredAtOnce' : `backoffice.config.state.${r.state}`;
}

/**
 * What a request changes, in words, its amounts in the currency it was proposed in (the upstream
 * keeps it with the request); the table's own only for a request that named none. A table's
 * currency changes with its configuration: limits proposed at a MOP table are MOP amounts still.
 */
export function requestSummary(w: Words, r: ConfigRequest, table: TableMoney | null): string {
  return summary(w, r, (v) => formatTableMoney(v, r.currency ?? table, w.language, 'when-needed'));
}

function summary(w: Words, r: ConfigRequest, money: (v: number) => string): string {
  const after = r.after;
  const range = (x: unknown) =>
    typeof x === 'object' && x !== null && typeof Reflect.get(x, 'min') === 'number' && typeof Reflect.get(x, 'max') === 'number'
      ? `${money(Number(Reflect.get(x, 'min')))} – ${money(Number(Reflect.get(x, 'max')))}`
      : JSON.stringify(x);
  const body =
    r.key === 'limits'
      ? range(after)
      : r.key === 'creditLimit' && typeof after === 'number'
        ? money(after)
        : typeof after === 'object' && after !== null
          ? listWords(
              w.language,
              Object.entries(after).map(([k, v]) => `${k} = ${r.key === 'betLimits' ? range(v) : String(v)}`),
            )
          : r.key === 'profile'
            ? profileWords(w.t, String(after))
            : String(after);
  return `${w.t(`backoffice.config.key.${r.key}`)}: ${body}`;
}

function answer(w: Words, r: ConfigRequest): string {
  if (!r.outcome) return '';
  const at = w.t('backoffice.config.entryAt', { seq: r.outcome.seq, at: w.time(r.outcome.at) });
  return r.outcome.type === 'config.refused' ? `${at}: ${refusalWords(w, r.outcome)}` : at;
}

/**
 * A table's refusal in the reader's language: its key and parameters where the catalogues have
 * words for the key, else (a table of an older build) its English reason as the table wrote it.
 */
export function refusalWords(w: Words, o: Pick<NonNullable<ConfigRequest['outcome']>, 'reason' | 'said'>): string {
  const s = o.said;
  return s && isMessageKey(s.key) ? saidWords((key, options) => w.t(key, options), { key: s.key, values: s.values }) : (o.reason ?? '');
}

function buttons(w: Words, r: ConfigRequest, a: ConfigActions, say: (m: string) => void): HTMLElement | string {
  if (!a.may || r.state !== 'proposed') return '';
  const cell = h('span', { class: 'actions' });
  const act = (how: 'approve' | 'withdraw') => {
    const b = h('button', { type: 'button', 'data-testid': `config-${how}-${r.id}` }, w.t(`backoffice.config.${how}`));
    b.addEventListener('click', () => void a.decide(r.id, how).catch((e: unknown) => say(errorText(w, e))));
    return b;
  };
  if (r.proposedBy === a.me) cell.append(h('span', {}, w.t('backoffice.config.needsSecond')), ' ', act('withdraw'));
  else cell.append(act('approve'), ' ', act('withdraw'));
  return cell;
}

function errorText(w: Words, e: unknown): string {
  if (e instanceof ApiError) {
    if (e.code === 'same-person') return w.t('backoffice.config.error.same-person');
    if (e.code === 'proposer-gone') return w.t('backoffice.config.error.proposer-gone');
    if (e.code === 'decided') return w.t('backoffice.config.error.decided');
    if (e.code === 'role') return w.t('backoffice.config.error.role');
    if (e.code === 'too-many-open') return w.t('backoffice.config.error.too-many-open');
  }
  return failureWords(w, e);
}

/** States a reader of the alarms page should see: approved and not yet made, or refused by the table. */
const NOT_MADE: ReadonlySet<ConfigRequest['state']> = new Set(['approved', 'delivered', 'refused']);

/**
 * The alarms page's list of approved changes the tables have not made (waiting for their next
 * shoe) or refused (with the table's reason), each linking to its table's page.
 */
export function notMadeList(w: Words, list: readonly ConfigRequest[], currencyOf: (terminalId: string) => TableMoney | null): HTMLElement {
  const shown = list.filter((r) => NOT_MADE.has(r.state));
  return h(
    'section',
    { class: 'config-not-made' },
    h('h2', {}, w.t('backoffice.alarms.configTitle')),
    shown.length === 0
      ? h('p', { class: 'empty' }, w.t('backoffice.floor.none'))
      : h(
          'ul',
          { class: 'alarms', 'data-testid': 'config-not-made' },
          shown.map((r) =>
            h(
              'li',
              { 'data-request': String(r.id), 'data-state': r.state },
              h('strong', {}, `${MARK[r.state]} ${w.t(stateKey(r))}`),
              ' ',
              h('a', { href: `#/table/${encodeURIComponent(r.terminalId)}` }, r.terminalId),
              ` — ${requestSummary(w, r, currencyOf(r.terminalId))} (${r.authorisation}; ${r.proposedBy}, ${r.approvedBy ?? ''})`,
              r.state === 'refused' ? h('div', {}, answer(w, r)) : null,
            ),
          ),
        ),
  );
}

/** The section: the requests, newest first, then the form for those who may propose. */
export function configSection(w: Words, list: readonly ConfigRequest[], currency: TableMoney | null, a: ConfigActions, rules: TableRules | null): HTMLElement {
  const t = w.t;
  const message = h('p', { class: 'error', role: 'alert' });
  const say = (m: string) => (message.textContent = m);
  const rows = table(
    [
      '#',
      t('backoffice.config.change'),
      t('backoffice.config.authorisation'),
      t('backoffice.config.proposedBy'),
      t('backoffice.config.approvedBy'),
      t('backoffice.table.status'),
      t('backoffice.config.answer'),
      '',
    ],
    list.map((r) => [
      String(r.id),
      requestSummary(w, r, currency),
      r.authorisation,
      `${r.proposedBy} ${w.time(r.proposedAt)}`,
      r.approvedBy && r.approvedAt ? `${r.approvedBy} ${w.time(r.approvedAt)}` : '',
      `${MARK[r.state]} ${t(stateKey(r))}`,
      answer(w, r),
      '',
    ]),
  );
  // The last cell of each row holds live buttons, not text.
  rows.querySelectorAll('tbody tr').forEach((tr, i) => {
    const r = list[i];
    if (!r) return;
    // The state's name, beside its word and mark, for tests and for a reader's own tools.
    tr.setAttribute('data-request', String(r.id));
    tr.setAttribute('data-state', r.state);
    tr.lastElementChild?.append(buttons(w, r, a, say));
  });
  return h(
    'section',
    { class: 'config', 'data-testid': 'config' },
    h('h2', {}, t('backoffice.config.title')),
    rows,
    a.may ? form(w, currency, profileChoices(rules), a, say) : null,
    message,
  );
}

/**
 * The proposal form; amounts are typed in the table's own currency (its code on the labels, its
 * exponent for the decimals). A table that never named its currency takes minor units, under ¤.
 * A profile is chosen among the table's own game's (`profiles`); without any, none is offered.
 */
function form(w: Words, money: TableMoney | null, profiles: readonly string[], a: ConfigActions, say: (m: string) => void): HTMLElement {
  const t = w.t;
  const currency = currencyLabel(money);
  const key = h('select', { name: 'key', 'data-testid': 'config-key' });
  for (const k of ['limits', 'creditLimit', 'profileOptions', 'profile'] as const)
    if (k !== 'profile' || profiles.length > 0) key.append(h('option', { value: k }, t(`backoffice.config.key.${k}`)));
  const input = (name: string) => h('input', { name, 'data-testid': `config-${name}` });
  const min = input('min');
  const max = input('max');
  const option = input('option');
  const value = input('value');
  const profile = h('select', { name: 'profile', 'data-testid': 'config-profile' }, ...profiles.map((p) => h('option', { value: p }, profileWords(t, p))));
  const authorisation = input('authorisation');
  const note = input('note');
  const limits = h('span', {}, h('label', {}, t('backoffice.config.min', { currency }), min), h('label', {}, t('backoffice.config.max', { currency }), max));
  const rule = h('span', { hidden: '' }, h('label', {}, t('backoffice.config.option'), option), h('label', {}, t('backoffice.config.value'), value));
  const rules = h('span', { hidden: '' }, h('label', {}, t('backoffice.config.profileName'), profile));
  const creditLimit = input('credit-limit');
  const credit = h('span', { hidden: '' }, h('label', {}, t('backoffice.config.creditLimit', { currency }), creditLimit));
  key.addEventListener('change', () => {
    limits.hidden = key.value !== 'limits';
    rule.hidden = key.value !== 'profileOptions';
    rules.hidden = key.value !== 'profile';
    credit.hidden = key.value !== 'creditLimit';
  });
  const f = h(
    'form',
    { class: 'config-form' },
    h('label', {}, t('backoffice.config.change'), key),
    limits,
    rule,
    rules,
    credit,
    h('label', {}, t('backoffice.config.authorisation'), authorisation),
    h('label', {}, t('backoffice.config.note'), note),
    h('button', { type: 'submit', 'data-testid': 'config-propose' }, t('backoffice.config.propose')),
  );
  f.addEventListener('submit', (e) => {
    e.preventDefault();
    const p = proposalOf(
      {
        key: key.value,
        min: min.value,
        max: max.value,
        option: option.value,
        value: value.value,
        profile: profile.value,
        creditLimit: creditLimit.value,
        authorisation: authorisation.value,
        note: note.value,
      },
      money?.exponent ?? 0,
    );
    if (!p) return say(t('backoffice.config.error.invalid', { currency }));
    void a.propose(p).catch((err: unknown) => say(errorText(w, err)));
  });
  return f;
}
