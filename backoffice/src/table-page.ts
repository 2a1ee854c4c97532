import type { TableDetail } from './api.js';
import { alarmList } from './alarms.js';
import { entryWords, faultWords } from './codes.js';
import { h } from './dom.js';
import { gameName } from './floor.js';
import { listWords, type Words } from './i18n.js';
import { currencyAt, currencyLabel, formatTableMoney, formatTicketMoney } from './money.js';

type Ack = (id: number, note: string) => Promise<void>;

/** The meters the page shows per station, as the upstream answers them (upstream/backoffice/table-detail.ts). */
export const TABLE_PAGE_METERS = ['totalIn', 'creditsWagered', 'creditsWon', 'totalOut', 'gamesPlayed', 'handpays'] as const;

/** One table's page: stations with credit and meters, recent rounds, faults, jackpots, handpays, transfers, alarms. */
/**
 * `roundHref`: where a recent round's recall and evidence open (null: the user's role reads no
 * evidence, the round's id is shown as text).
 */
export function tablePage(
  w: Words,
  d: TableDetail,
  canAck: boolean,
  ack: Ack,
  back: () => void,
  roundHref: ((roundId: string) => string) | null = null,
): HTMLElement {
  const t = w.t;
  // Every amount of this page is minor units of this table's own currency.
  const money = (v: number) => formatTableMoney(v, d.currency, w.language);
  const backLink = h('a', { href: '#/floor' }, `← ${t('backoffice.table.back')}`);
  backLink.addEventListener('click', (e) => {
    e.preventDefault();
    back();
  });
  const meterNames = TABLE_PAGE_METERS;
  const stations = table(
    [t('backoffice.table.stations'), t('backoffice.table.credit'), ...meterNames.map((m) => t(`service.meter.${m}`))],
    d.stations.flatMap((s) =>
      // One line per currency the station's meters were journalled in: a table that changed currency never shows their sum.
      (s.meters.length ? s.meters : [{ currency: d.currency, meters: {} }]).map((g, i) => [
        t('backoffice.table.station', { n: s.station }),
        // In the currency held when the journal last left it (a station untouched since a change holds the old one).
        i > 0 ? '' : s.creditSeq === undefined ? money(s.credit) : formatTableMoney(s.credit, currencyAt(d, s.creditSeq), w.language),
        ...meterNames.map((m) =>
          m === 'gamesPlayed' || m === 'handpays' ? String(g.meters[m] ?? 0) : formatTableMoney(g.meters[m] ?? 0, g.currency, w.language),
        ),
      ]),
    ),
  );
  const rounds = table(
    [t('backoffice.table.round'), t('backoffice.table.time'), t('backoffice.table.status'), t('backoffice.table.cards')],
    d.rounds.map((r) => [
      r.round?.roundId && roundHref
        ? h(
            'a',
            { href: roundHref(r.round.roundId), 'aria-label': t('backoffice.evidence.open', { round: r.round.roundId }), 'data-round': r.round.roundId },
            r.round.roundId,
          )
        : (r.round?.roundId ?? String(r.seq)),
      w.time(r.ts),
      r.status === 'settled' ? t('backoffice.table.settled') : `✖ ${t('backoffice.table.void')}`,
      (r.round?.cards ?? []).map((c) => c.card).join(' '),
    ]),
  );
  const entries = (list: TableDetail['jackpots']) =>
    table(
      [t('backoffice.table.entry'), t('backoffice.table.time'), t('backoffice.table.amount')],
      // Each in the currency the table held when it journalled it (its span), not the table's of now.
      list.map((e) => [`${e.seq} ${entryWords(t, e.type)}`, w.time(e.ts), amountOf(e.payload, (v) => formatTableMoney(v, currencyAt(d, e.seq), w.language))]),
    );
  const name = d.health?.tableId ?? d.terminalId;
  const tickets = ticketsSection(w, d);
  return h(
    'section',
    { class: 'table-page', 'data-testid': 'table-page' },
    backLink,
    h(
      'h1',
      {},
      t('backoffice.table.title', { id: name }),
      d.health?.game ? ` — ${gameName(t, d.health.game)}` : '',
      h('span', { 'data-testid': 'table-currency' }, ` — ${currencyLabel(d.currency)}`),
    ),
    h('h2', {}, t('backoffice.floor.faults')),
    h(
      'p',
      { 'data-testid': 'table-faults' },
      d.faults.length
        ? `⚠ ${listWords(
            w.language,
            d.faults.map((f) => faultWords(t, f)),
          )}`
        : t('backoffice.floor.none'),
    ),
    h('h2', {}, t('backoffice.table.stations')),
    stations,
    h('h2', {}, t('backoffice.table.rounds')),
    rounds,
    h('h2', {}, t('backoffice.table.jackpots')),
    entries(d.jackpots),
    h('h2', {}, t('backoffice.table.handpays')),
    entries(d.handpays),
    h('h2', {}, t('backoffice.table.transfers')),
    entries(d.transfers),
    ...tickets,
    h('h2', {}, t('backoffice.alarms.title')),
    alarmList(w, d.alarms, canAck, ack),
  );
}

/**
 * The table's tickets from the validation authority's register: what it still owes on tickets it
 * issued (per currency), the newest it issued with where each stands, the newest redeemed here.
 * A ticket is named by the last four digits of its number only, as at the kiosk.
 */
function ticketsSection(w: Words, d: TableDetail): HTMLElement[] {
  const t = w.t;
  // A ticket in another currency than the table's (none should be) is shown in its own, by its own exponent.
  const amount = (v: number, code: string) => formatTicketMoney(v, code, d.currency, w.language);
  const out = d.tickets.outstanding;
  const owed = out.length
    ? out.map((o) => t('backoffice.table.ticketsOutstanding', { count: o.tickets, amount: amount(o.amount, o.currency) })).join(' · ')
    : t('backoffice.table.ticketsNoneOutstanding');
  const head = [
    t('backoffice.table.ticketNumber'),
    t('backoffice.table.stations'),
    t('backoffice.table.amount'),
    t('backoffice.table.status'),
    t('backoffice.table.time'),
  ];
  const row = (x: TableDetail['tickets']['issued'][number], at: string) => [
    `…${x.last4}`,
    t('backoffice.table.station', { n: x.station }),
    amount(x.amount, x.currency),
    t(`backoffice.table.ticketState.${x.state}`),
    w.time(at),
  ];
  return [
    h('h2', {}, t('backoffice.table.tickets')),
    h('p', { 'data-testid': 'tickets-outstanding' }, owed),
    h('h3', {}, t('backoffice.table.ticketsIssued')),
    table(
      head,
      d.tickets.issued.map((x) => row(x, x.issuedAt)),
    ),
    h('h3', {}, t('backoffice.table.ticketsRedeemed')),
    table(
      [...head, t('backoffice.table.ticketIssuer')],
      d.tickets.redeemed.map((x) => [...row(x, x.redeemedAt ?? x.issuedAt), x.issuedBy]),
    ),
  ];
}

/**
 * An entry's amount. The journal is the table's, and the ingest stores a jackpot's, a transfer's
 * completion or a hand pay's confirmation without reading its figures: an amount that is not whole
 * minor units (0.5, past 2^53) is shown as the table wrote it behind ⚠. Formatting it threw, and the
 * whole page was «Could not load» (a review of 6 December).
 */
function amountOf(payload: unknown, money: (v: number) => string): string {
  if (typeof payload !== 'object' || payload === null) return '';
  const said = (v: number) => (Number.isSafeInteger(v) ? money(v) : `⚠ ${String(v)}`);
  const amount = Reflect.get(payload, 'amount');
  if (typeof amount === 'number') return said(amount);
  const transfer = Reflect.get(payload, 'transfer');
  const inner = typeof transfer === 'object' && transfer !== null ? Reflect.get(transfer, 'amount') : undefined;
  return typeof inner === 'number' ? said(inner) : '';
}

export function table(head: string[], rows: (string | Node)[][]): HTMLElement {
  if (rows.length === 0) return h('p', { class: 'empty' }, '—');
  return h(
    'table',
    { class: 'grid' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        head.map((x) => h('th', { scope: 'col' }, x)),
      ),
    ),
    h(
      'tbody',
      {},
      rows.map((r) =>
        h(
          'tr',
          {},
          r.map((x) => h('td', {}, x)),
        ),
      ),
    ),
  );
}
