import { catalogues } from '../../locales/index.js';
import { Language } from '../../protocol/index.js';
import { api, ApiError, useCsrf, type Session } from './api.js';
import { alarmList } from './alarms.js';
import { auditPage, auditQuery } from './audit-page.js';
import { configSection, notMadeList } from './config-section.js';
import { clear, h } from './dom.js';
import { failureWords } from './failure.js';
import { FloorView } from './floor.js';
import { pageLanguage, setPageLanguage, words, type Words } from './i18n.js';
import { currencyAt } from './money.js';
import { roundPage } from './round-page.js';
import { routeOf } from './route.js';
import { tablePage } from './table-page.js';

const root = document.getElementById('app') ?? document.body;
let w: Words = words(pageLanguage());
let session: Session | null = null;
let floor: FloorView | null = null;
let ticker: number | undefined;

function languagePicker(): HTMLElement {
  const select = h('select', { 'aria-label': w.t('backoffice.nav.language'), 'data-testid': 'language' });
  // Every catalogue, each named in its own language (the screens' list: the back office's words are in each).
  for (const [l, catalogue] of Object.entries(catalogues)) {
    const o = h('option', { value: l }, catalogue.language.self);
    o.selected = l === w.language;
    select.append(o);
  }
  select.addEventListener('change', () => {
    const l = Language.safeParse(select.value);
    if (!l.success) return;
    setPageLanguage(l.data);
    w = words(l.data);
    void render();
  });
  return select;
}

function signInForm(message = ''): HTMLElement {
  const t = w.t;
  const name = h('input', { name: 'name', autocomplete: 'username', required: '' });
  const password = h('input', { name: 'password', type: 'password', autocomplete: 'current-password', required: '' });
  const error = h('p', { class: 'error', role: 'alert' }, message);
  const form = h(
    'form',
    { class: 'sign-in' },
    h('h1', {}, t('backoffice.title')),
    h('label', {}, t('backoffice.signIn.name'), name),
    h('label', {}, t('backoffice.signIn.password'), password),
    h('button', { type: 'submit' }, t('backoffice.signIn.submit')),
    error,
    languagePicker(),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    api.signIn(name.value, password.value).then(
      (s) => {
        session = s;
        useCsrf(s.csrf);
        void render();
      },
      (err: unknown) => {
        // A wrong name or password only when the upstream said so (401): no answer, or its failure,
        // said «wrong name or password» too, and a person retyped a right password (a review of 7 December).
        error.textContent =
          err instanceof ApiError && err.status === 429
            ? t('backoffice.signIn.throttled', { seconds: err.retryAfter ?? 1 })
            : err instanceof ApiError && err.status === 401
              ? t('backoffice.signIn.wrong')
              : failureWords(w, err);
      },
    );
  });
  return form;
}

function header(s: Session): HTMLElement {
  const t = w.t;
  const link = (hash: string, text: string) => h('a', { href: hash }, text);
  const out = h('button', { type: 'button', 'data-testid': 'sign-out' }, t('backoffice.signIn.signOut'));
  const outFailed = h('span', { class: 'error', role: 'alert', 'data-testid': 'sign-out-failed' });
  // Signed out only when the upstream ended the session (or had already: 401). Until a review of 7
  // December a sign-out that failed showed the sign-in form all the same, over a session still live
  // with its cookie in this browser: the next person at the screen was let in under the same name.
  out.addEventListener('click', () => {
    outFailed.textContent = '';
    api.signOut().then(
      () => signedOut(),
      (e: unknown) => {
        if (e instanceof ApiError && e.status === 401) signedOut();
        else outFailed.textContent = t('backoffice.signIn.signOutFailed', { why: failureWords(w, e) });
      },
    );
  });
  return h(
    'header',
    {},
    h('strong', {}, t('backoffice.title')),
    h(
      'nav',
      {},
      link('#/floor', t('backoffice.nav.floor')),
      link('#/alarms', t('backoffice.nav.alarms')),
      s.permissions.includes('report') ? link('#/report', t('backoffice.nav.report')) : null,
      s.permissions.includes('report') ? link('#/plots', t('backoffice.nav.plots')) : null,
      s.permissions.includes('configure') ? link('#/audit', t('backoffice.nav.audit')) : null,
    ),
    h('span', { 'data-testid': 'who' }, t('backoffice.signIn.who', { name: s.name, role: t(`backoffice.role.${s.role}`) })),
    languagePicker(),
    out,
    outFailed,
  );
}

function signedOut(): void {
  session = null;
  void render();
}

async function acknowledge(id: number, note: string): Promise<void> {
  if (note) await api.acknowledge(id, note);
  await render();
}

async function page(s: Session): Promise<HTMLElement> {
  const route = routeOf(location.hash);
  const canAck = s.permissions.includes('acknowledge');
  if (route.page === 'unreadable') return refusedPage(route.what);
  if (route.page === 'round') return s.permissions.includes('evidence') ? roundRoute(route.table, route.round) : h('p', {}, w.t('backoffice.error.role'));
  if (route.page === 'table') return tableRoute(s, route.table);
  if (route.page === 'alarms') {
    // Each table's currency from the floor's rows: a change's limits are in its own table's.
    const [alarms, requests, rows] = await Promise.all([api.alarms(), api.allConfigRequests(), api.floor()]);
    const currencies = new Map(rows.map((r) => [r.terminalId, r.currency]));
    return h(
      'section',
      {},
      h('h1', {}, w.t('backoffice.alarms.title')),
      alarmList(w, alarms, canAck, acknowledge),
      notMadeList(w, requests, (id) => currencies.get(id) ?? null),
    );
  }
  // The plots and the report pages (uPlot, the report's model) load when first opened: the floor,
  // the page a supervisor opens first, does not wait for code it does not show.
  if (route.page === 'plots')
    return s.permissions.includes('report') ? (await import('./plots-page.js')).plotsPage(w) : h('p', {}, w.t('backoffice.error.role'));
  if (route.page === 'audit')
    return s.permissions.includes('configure') ? auditPage(w, (f) => api.audit(auditQuery(f))) : h('p', {}, w.t('backoffice.error.role'));
  if (route.page === 'report')
    return s.permissions.includes('report') ? (await import('./report-page.js')).reportPage(w) : h('p', {}, w.t('backoffice.error.role'));
  floor = early ?? openFloor();
  early = null;
  ticker = window.setInterval(() => floor?.tick(Date.now()), 1000);
  return floor.element;
}

/** One table's page and its configuration requests; a table the upstream does not know said in words. */
async function tableRoute(s: Session, id: string): Promise<HTMLElement> {
  const [detail, requests] = await Promise.all([api.table(id), api.configRequests(id)]).catch((e: unknown) => {
    // A table the upstream does not know (404) or whose name it would not read (400).
    if (e instanceof ApiError && (e.status === 404 || e.status === 400)) throw new Refused('no-table');
    throw e;
  });
  const roundHref = s.permissions.includes('evidence') ? (r: string) => `#/table/${encodeURIComponent(id)}/round/${encodeURIComponent(r)}` : null;
  const page = tablePage(w, detail, s.permissions.includes('acknowledge'), acknowledge, () => (location.hash = '#/floor'), roundHref);
  page.append(
    configSection(
      w,
      requests,
      detail.currency,
      {
        me: s.name,
        may: s.permissions.includes('table-config'),
        propose: async (p) => {
          await api.propose(id, p);
          await render();
        },
        decide: async (request, how) => {
          await api.decide(request, how);
          await render();
        },
      },
      detail.health,
    ),
  );
  return page;
}

/** One round's recall and its evidence bundle; a refusal (another table's round, an unknown one) said in words. */
async function roundRoute(id: string, roundId: string): Promise<HTMLElement> {
  const backToTable = () => (location.hash = `#/table/${encodeURIComponent(id)}`);
  try {
    const [evidence, detail] = await Promise.all([api.evidence(id, roundId), api.table(id)]);
    // In the currency the table held when it closed the round (its span), not the table's of now.
    return roundPage(w, evidence, currencyAt(detail, evidence.round.seq), backToTable);
  } catch (e) {
    // A round whose name the upstream would not read (400) is none it holds.
    const refusal = e instanceof ApiError ? (e.status === 400 ? 'no-round' : REFUSALS.find((r) => r === e.code)) : undefined;
    if (!refusal) throw e;
    return refusedPage(refusal);
  }
}

const REFUSALS = ['no-round', 'round-of-another-table', 'round-open', 'round-unreadable', 'round-too-large', 'no-table'] as const;
type Refusal = (typeof REFUSALS)[number];

/** A table or round the page cannot show, said in the page's words. */
class Refused extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal);
  }
}

function refusedPage(refusal: Refusal): HTMLElement {
  return h('p', { class: 'error', role: 'alert', 'data-testid': 'round-refused' }, w.t(`backoffice.evidence.refused.${refusal}`));
}

function isFloorRoute(): boolean {
  const route = location.hash.replace(/^#\/?/, '');
  return route === '' || route === 'floor';
}

function openFloor(): FloorView {
  const view = new FloorView(
    w,
    (id) => (location.hash = `#/table/${encodeURIComponent(id)}`),
    () => {
      session = null;
      void render(w.t('backoffice.signIn.ended'));
    },
  );
  view.connect();
  return view;
}

/**
 * The floor's stream opened at once, beside the session's request rather than after it: the first
 * paint waits for one round trip, not two. Without a session the stream is refused (401) and
 * closed when the sign-in form is shown; it never carries anything the session would not.
 */
let early: FloorView | null = isFloorRoute() ? openFloor() : null;

/**
 * The number of the latest render. A render awaits the upstream's answers, and an address changed
 * meanwhile starts another: only the latest may write the page, or a slower answer for the address
 * before (a table's 404, another table's page) replaced the page of the address shown (a review of
 * 7 December, seen as a flaky browser test).
 */
let latest = 0;

/** The page for the hash; `signedOutMessage` is said above the sign-in form if it is what is shown. */
async function render(signedOutMessage = ''): Promise<void> {
  const mine = ++latest;
  const superseded = () => mine !== latest;
  if (!isFloorRoute()) {
    early?.close();
    early = null;
  }
  floor?.close();
  floor = null;
  window.clearInterval(ticker);
  document.documentElement.lang = w.language;
  document.title = w.t('backoffice.title');
  if (!session) {
    try {
      session = await api.session();
      useCsrf(session.csrf);
    } catch (e) {
      if (superseded()) return;
      early?.close();
      early = null;
      clear(root);
      root.append(signInForm(cookieTwice(e) ? failureWords(w, e) : signedOutMessage));
      return;
    }
  }
  // The floor's branch of page() opens the floor before its first await: only the latest render may.
  if (superseded()) return;
  const s = session;
  let body: HTMLElement;
  try {
    body = await page(s);
  } catch (e) {
    if (superseded()) return;
    if (e instanceof Refused) body = refusedPage(e.refusal);
    else if (e instanceof ApiError && e.status === 401) {
      session = null;
      clear(root);
      root.append(signInForm(cookieTwice(e) ? failureWords(w, e) : ''));
      return;
    } else body = h('p', { class: 'error', role: 'alert' }, failureWords(w, e));
  }
  if (superseded()) return;
  clear(root);
  root.append(header(s), h('main', {}, body));
}

/** A session refused as two cookies of its name (one planted): the sign-in form says why, as signing in again alone does not mend it. */
function cookieTwice(e: unknown): boolean {
  return e instanceof ApiError && e.code === 'cookie-twice';
}

window.addEventListener('hashchange', () => void render());
void render();
