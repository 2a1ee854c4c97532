import { citationWords } from '../../locales/citation.js';
import type { RoundEvidence } from './api.js';
import { actionWords, betWords, cardPlaceWords, correctionWords, profileWords, uncorrectableWords } from './codes.js';
import { h } from './dom.js';
import { gameName } from './floor.js';
import { listWords, type Words } from './i18n.js';
import { formatTableMoney, type TableMoney } from './money.js';
import { table } from './table-page.js';

/** Where the bundle downloads from: the same answer, named as a file by its table and round. */
export function evidenceHref(terminalId: string, roundId: string): string {
  return `/backoffice/api/tables/${encodeURIComponent(terminalId)}/rounds/${encodeURIComponent(roundId)}/evidence?download=1`;
}

/** One round's recall, as the table's own recall shows it, with its evidence bundle to download. */
export function roundPage(w: Words, e: RoundEvidence, currency: TableMoney | null, back: () => void): HTMLElement {
  const t = w.t;
  const r = e.round;
  const money = (v: number) => formatTableMoney(v, currency, w.language);
  const station = (n: number) => t('backoffice.table.station', { n });
  // A citation (a line's rule, a correction's article, a void's) by its text's name and its articles, in the page's language.
  const cited = (rule: string) => citationWords(t, rule);
  const backLink = h('a', { href: `#/table/${encodeURIComponent(e.terminalId)}` }, `← ${t('backoffice.evidence.back')}`);
  backLink.addEventListener('click', (ev) => {
    ev.preventDefault();
    back();
  });
  const status = r.status === 'settled' ? t('backoffice.table.settled') : `✖ ${t('backoffice.table.void')}`;
  const first = e.proof.links[0]?.[0] ?? r.seq;
  const last = e.proof.links.at(-1)?.[0] ?? r.seq;
  return h(
    'section',
    { class: 'round-page', 'data-testid': 'round-recall', 'data-round': r.roundId },
    backLink,
    h('h1', {}, t('backoffice.evidence.title', { round: r.roundId })),
    h('p', {}, t('backoffice.evidence.game', { game: gameName(t, r.game), profile: profileWords(t, r.profile) })),
    h('p', { 'data-testid': 'round-status' }, t('backoffice.evidence.closed', { status, time: w.time(r.ts), seq: r.seq })),
    r.status === 'void' ? h('p', {}, t('backoffice.evidence.voided', { reason: r.reason ?? '', who: listWords(w.language, r.authorisedBy ?? []) })) : null,
    r.voidRule
      ? h('p', {}, t('backoffice.evidence.voidRule', { why: r.uncorrectable ? uncorrectableWords(t, r.uncorrectable) : '', rule: cited(r.voidRule) }))
      : null,
    h(
      'a',
      { href: evidenceHref(e.terminalId, r.roundId), download: `evidence-${e.terminalId}-${r.roundId}.json`, 'data-testid': 'evidence-download' },
      t('backoffice.evidence.download'),
    ),
    h('h2', {}, t('backoffice.evidence.cards')),
    h('p', { 'data-testid': 'round-cards' }, r.cards.map((c) => `${c.card} → ${cardPlaceWords(t, c.to)}`).join(' · ') || '—'),
    h('h2', {}, t('backoffice.evidence.decisions')),
    h(
      'ol',
      {},
      r.decisions.map((d) => {
        const said = actionWords(t, r.game, d.action);
        const action = d.auto ? t('backoffice.evidence.auto', { action: said }) : said;
        return h('li', {}, t('backoffice.evidence.decision', { seat: d.hand === undefined ? d.seat : `${d.seat}.${d.hand + 1}`, action }));
      }),
    ),
    h('h2', {}, t('backoffice.evidence.bets')),
    table(
      [t('backoffice.table.stations'), t('backoffice.evidence.seat'), t('backoffice.evidence.bet'), t('backoffice.table.amount')],
      r.bets.map((b) => [station(b.station), String(b.seat), betWords(t, r.game, b.bet), money(b.amount)]),
    ),
    h('h2', {}, t('backoffice.evidence.lines')),
    table(
      [
        t('backoffice.table.stations'),
        t('backoffice.evidence.seat'),
        t('backoffice.evidence.bet'),
        t('backoffice.evidence.stake'),
        t('backoffice.table.net'),
        t('backoffice.evidence.rule'),
      ],
      r.lines.map((l) => [
        station(l.station),
        l.hand === undefined ? String(l.seat) : `${l.seat}.${l.hand + 1}`,
        betWords(t, r.game, l.bet),
        money(l.stake),
        money(l.net),
        cited(l.rule),
      ]),
    ),
    h('h2', {}, t('backoffice.evidence.credits')),
    table(
      [t('backoffice.table.stations'), t('backoffice.evidence.before'), t('backoffice.evidence.after')],
      r.credits.map((c) => [station(c.station), money(c.before), money(c.after)]),
    ),
    ...(r.corrections?.length
      ? [
          h('h2', {}, t('backoffice.evidence.corrections')),
          h(
            'ul',
            {},
            r.corrections.map((c) =>
              h(
                'li',
                {},
                t('backoffice.evidence.correction', {
                  correction: correctionWords(t, c.correction),
                  card: c.card ?? '',
                  article: cited(c.article),
                  who: listWords(w.language, c.confirmedBy),
                }),
              ),
            ),
          ),
        ]
      : []),
    h('p', {}, e.rules ? t('backoffice.evidence.rules', { seq: e.rules.seq }) : t('backoffice.evidence.noRules')),
    h('p', { 'data-testid': 'round-proof' }, t('backoffice.evidence.proof', { first, last, entries: r.entrySeqs.length, head: e.head.seq })),
  );
}
