import type { TableDetail } from './api.js';
import { alarmList } from './alarms.js';
import { h } from './dom.js';
import { gameName } from './floor.js';
import type { Words } from './i18n.js';
import { currencyLabel, formatTableMoney } from './money.js';

type Ack = (id: number, note: string) => Promise<void>;

/** One table's page: stations with credit and meters, recent rounds, faults, jackpots, handpays, transfers, alarms. */
export function tablePage(w: Words, d: TableDetail, canAck: boolean, ack: Ack, back: () => void): HTMLElement {
  const t = w.t;
  // Every amount of this page is minor units of this table's own currency.
  const money = (v: number) => formatTableMoney(v, d.currency, w.language);
  const backLink = h('a', { href: '#/floor' }, `← ${t('backoffice.table.back')}`);
  backLink.addEventListener('click', (e) => {
    e.preventDefault();
    back();
  });
  const meterNames = ['totalIn', 'creditsWagered', 'creditsWon', 'totalOut', 'gamesPlayed', 'handpays'] as const;
  const stations = table(
    [t('backoffice.table.stations'), t('backoffice.table.credit'), ...meterNames.map((m) => t(`service.meter.${m}`))],
    d.stations.map((s) => [
      t('backoffice.table.station', { n: s.station }),
      money(s.credit),
      ...meterNames.map((m) => (m === 'gamesPlayed' || m === 'handpays' ? String(s.meters[m] ?? 0) : money(s.meters[m] ?? 0))),
    ]),
  );
  const rounds = table(
    [t('backoffice.table.round'), t('backoffice.table.time'), t('backoffice.table.status'), t('backoffice.table.cards')],
    d.rounds.map((r) => [
      r.round?.roundId ?? String(r.seq),
      w.time(r.ts),
      r.status === 'settled' ? t('backoffice.table.settled') : `✖ ${t('backoffice.table.void')}`,
      (r.round?.cards ?? []).map((c) => c.card).join(' '),
    ]),
  );
  const entries = (list: TableDetail['jackpots']) =>
    table(
      [t('backoffice.table.entry'), t('backoffice.table.time'), t('backoffice.table.amount')],
      list.map((e) => [`${e.seq} ${e.type}`, w.time(e.ts), amountOf(e.payload, money)]),
    );
  const name = d.health?.tableId ?? d.terminalId;
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
    h('p', {}, d.faults.length ? `⚠ ${d.faults.join(', ')}` : t('backoffice.floor.none')),
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
    h('h2', {}, t('backoffice.alarms.title')),
    alarmList(w, d.alarms, canAck, ack),
  );
}

function amountOf(payload: unknown, money: (v: number) => string): string {
  if (typeof payload !== 'object' || payload === null) return '';
  const amount = Reflect.get(payload, 'amount');
  if (typeof amount === 'number') return money(amount);
  const transfer = Reflect.get(payload, 'transfer');
  const inner = typeof transfer === 'object' && transfer !== null ? Reflect.get(transfer, 'amount') : undefined;
  return typeof inner === 'number' ? money(inner) : '';
}

export function table(head: string[], rows: string[][]): HTMLElement {
  if (rows.length === 0) return h('p', { class: 'empty' }, '—');
  return h(
    'table',
    { class: 'grid' },
    h('thead', {}, h('tr', {}, ...head.map((x) => h('th', { scope: 'col' }, x)))),
    h('tbody', {}, ...rows.map((r) => h('tr', {}, ...r.map((x) => h('td', {}, x))))),
  );
}
