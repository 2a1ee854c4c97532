import type { ServicePage } from '../../../../../protocol/index.js';
import type { PageKit } from './kit.js';

/** The stations as the supervisor types them: numbers joined by `/`, a range `201-204`, `0` for none; null when not so. */
export function parseStations(text: string): number[] | null {
  if (text.trim() === '0') return [];
  const out: number[] = [];
  for (const part of text.split('/')) {
    const m = /^(\d{1,4})(?:-(\d{1,4}))?$/.exec(part.trim());
    if (!m) return null;
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    // At most the 250 a peer may list (host/peers/peer-config.ts); the host checks each number.
    if (to < from || to - from >= 250) return null;
    for (let s = from; s <= to; s++) if (!out.includes(s)) out.push(s);
  }
  return out.length > 250 ? null : out;
}

/** The stations as a row shows them, as they are typed: ranges with `-`, joined by `/`. */
export function stationList(stations: readonly number[]): string {
  const sorted = [...stations].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === (sorted[j] ?? 0) + 1) j++;
    parts.push(j > i ? `${sorted[i]}-${sorted[j]}` : `${sorted[i]}`);
    i = j + 1;
  }
  return parts.join('/');
}

/**
 * The peer tables (issue 50 item 4): each as this host's files hold it, its links, and why it is
 * refused if it is; a supervisor enrols one from the file its host handed this one (the stations
 * homed there typed on the pad) or removes one, and a second person confirms either.
 */
export function peersPage(page: Extract<ServicePage, { page: 'peers' }>, k: PageKit): void {
  const { t, a, sup, rows, wrap, btn } = k;
  if (!page.transfers) wrap(t('service.peers.notLinked'));
  if (page.peers.length === 0) rows.push(t('service.peers.none'));
  const linked = (up: boolean) => t(up ? 'service.field.connected' : 'service.field.notConnected');
  for (const p of page.peers.slice(0, 16)) {
    wrap(
      t('service.peers.row', { table: p.table, url: p.url ?? t('service.peers.noUrl'), stations: stationList(p.stations) || t('service.peers.noStations') }),
    );
    if (p.fingerprint) wrap('  ' + t('service.peers.certificate', { fingerprint: p.fingerprint }));
    rows.push(
      '  ' + t('service.peers.links', { out: linked(p.linkOut), in: linked(p.linkIn), dialsIn: t(p.dialsIn ? 'service.peers.yes' : 'service.peers.no') }),
    );
    if (p.problem) wrap('  ' + t(`service.peers.problem.${p.problem}`));
  }
  // The enrolment file comes from the peer's host (a USB key at the cabinet): chosen, then its stations typed.
  btn(
    'act-peer-add',
    t('service.action.peer-add'),
    () =>
      a.upload((enrolment) =>
        a.ask({
          title: t('service.action.peer-add'),
          label: t('service.peers.askStations'),
          kind: 'reference',
          then: (typed) => {
            const stations = parseStations(typed);
            if (stations) a.act({ kind: 'peer-add', enrolment, stations });
          },
        }),
      ),
    sup,
  );
  for (const p of page.peers.slice(0, 8))
    btn(`act-peer-revoke-${p.table}`, `${t('service.action.peer-revoke')} ${p.table}`, () => a.act({ kind: 'peer-revoke', table: p.table }), sup);
  // This table's enrolment file for a peer (what that table's `peer-add` takes): for a table typed
  // on the pad, or one listed; downloaded once, by this session, when the second person confirmed.
  btn(
    'act-peer-issue',
    t('service.action.peer-issue'),
    () =>
      a.ask({
        title: t('service.action.peer-issue'),
        label: t('service.peers.askTable'),
        kind: 'reference',
        then: (table) => a.act({ kind: 'peer-issue', table }),
      }),
    sup,
  );
  for (const p of page.peers.slice(0, 8)) {
    if (p.download)
      btn(`peer-download-${p.table}`, `${t('service.action.peer-download')} ${p.table}`, () => a.download(`/service/export/peer-enrolment/${p.table}`), sup);
    else btn(`act-peer-issue-${p.table}`, `${t('service.action.peer-issue')} ${p.table}`, () => a.act({ kind: 'peer-issue', table: p.table }), sup);
    if (p.dialsIn)
      btn(`act-peer-withdraw-${p.table}`, `${t('service.action.peer-withdraw')} ${p.table}`, () => a.act({ kind: 'peer-withdraw', table: p.table }), sup);
  }
  openTransfers(page.open, k);
}

type OpenRow = Extract<ServicePage, { page: 'peers' }>['open'][number];

/** An open transfer as a row: its number, station, receiver, amount and where it stands. */
export function openRowText(o: OpenRow, k: Pick<PageKit, 't' | 'money'>): string {
  const { t, money } = k;
  const state =
    o.disputed !== null
      ? t('service.peers.openState.disputed', { to: o.to, claimed: money(o.disputed) })
      : o.answers
        ? t(`service.peers.openState.${o.phase}`)
        : t('service.peers.openState.unanswered', { to: o.to });
  return t('service.peers.openRow', { serial: o.serial, station: o.station, to: o.to, amount: money(o.amount), state });
}

/**
 * This table's open transfers (the credit debited here, in flight): each disputed one, or one
 * whose receiver cannot answer, two people may settle as received there or returned here, on the
 * reference of the record they settled it on (docs/transfers.md).
 */
function openTransfers(open: readonly OpenRow[], k: PageKit): void {
  const { t, a, sup, rows, wrap, btn } = k;
  if (open.length === 0) return;
  rows.push(t('service.peers.openHead', { count: open.length }));
  for (const o of open.slice(0, 8)) wrap('  ' + openRowText(o, k));
  for (const o of open.filter((x) => x.settleable).slice(0, 4))
    for (const as of ['completed', 'reversed'] as const) {
      const label = `${t(`service.action.transfer-settle-${as}`)} ${o.serial}`;
      btn(
        `act-transfer-settle-${as}-${o.serial}`,
        label,
        () =>
          a.ask({
            title: label,
            label: t('service.peers.askReference'),
            kind: 'reference',
            then: (reference) => a.act({ kind: 'transfer-settle', serial: o.serial, as, reference }),
          }),
        sup,
      );
    }
}
