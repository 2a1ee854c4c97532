import { SERVICE_PAGE_SIZE, type ServicePage } from '../../../../../protocol/index.js';
import { betWordsOf } from '../../../../../locales/bet-key.js';
import { cardPlaceSaid } from '../../../../../locales/card-place.js';
import { citationWords } from '../../../../../locales/citation.js';
import { choicesWords } from '../../../../../locales/rule-choice.js';
import { decisionsLine } from './decisions-line.js';
import type { PageKit } from './kit.js';
import { macauTime } from './time.js';

/** Game recall: the rounds of a page, each with its cards, decisions, bets, settled lines, corrections and void; replay and evidence. */
export function recallPage(page: Extract<ServicePage, { page: 'recall' }>, k: PageKit): void {
  const { t, a, money, rows, wrap, btn } = k;
  // A citation (a line's rule, a correction's article, a void's) by its text's name and its articles, in the screen's language.
  const cited = (rule: string) => citationWords(t, rule);
  // Where each card went, in the screen's language; a place this version does not know, as recorded.
  const place = (to: string) => {
    const said = cardPlaceSaid(to);
    return said ? t(said.key, { ...said.values }) : to;
  };
  if (page.rounds.length === 0) rows.push(t('service.field.noRounds'));
  page.rounds.forEach((r, i) => {
    rows.push(
      t('punctuation.numbered', {
        n: i + 1,
        text: t('service.field.recallRound', { seq: r.seq, round: r.roundId, status: t(`service.recallStatus.${r.status}`), ts: macauTime(r.ts) }),
      }),
    );
    // The rule set the round was played under, and its authorisation on record (issue 51).
    if (r.rules)
      wrap(
        '   ' +
          (r.rules.reference
            ? t('service.field.ruleRecord', {
                digest: r.rules.digest.slice(0, 12),
                reference: r.rules.reference,
                effective: r.rules.effective ?? '—',
                article: r.rules.article,
              })
            : t('service.field.ruleRecordDemo', { digest: r.rules.digest.slice(0, 12) })),
      );
    wrap('   ' + t('service.field.cards', { cards: r.cards.map((x) => `${x.card}→${place(x.to)}`).join(' ') }));
    if (r.decisions.length) wrap('   ' + decisionsLine(t, r));
    for (const b of r.bets)
      wrap('   ' + t('service.field.bet', { station: b.station, seat: b.seat, bet: betWordsOf(t, r.game, b.bet), amount: money(b.amount) }));
    for (const l of r.lines) {
      // A winning-streak stake decided here was staked in an earlier round: said so, as the station's recall says it.
      const bet = l.carried ? t('recall.carried', { bet: betWordsOf(t, r.game, l.bet) }) : betWordsOf(t, r.game, l.bet);
      wrap('   ' + t('service.field.line', { seat: l.seat, bet, stake: money(l.stake), net: money(l.net), rule: cited(l.rule) }));
      // A line settled under a non-default choice names it (the option and its value in words), with the authorisation reference.
      if (l.choices?.length) wrap('      ' + t('service.field.lineChoices', { choices: choicesWords(t, l.choices), authorisation: l.authorisation ?? '—' }));
    }
    // Cut to the page's caps: said, never shown as whole (the evidence export has all of it).
    const o = r.omitted;
    if (o && o.decisions + o.bets + o.lines > 0) wrap('   ' + t('service.field.recallOmitted', { decisions: o.decisions, bets: o.bets, lines: o.lines }));
    for (const x of r.corrections ?? [])
      wrap(
        '   ' +
          t('service.field.correctionDone', {
            correction: t(`service.correction.${x.correction}`),
            card: x.card ?? '—',
            article: cited(x.article),
            by: x.confirmedBy,
          }),
      );
    if (o?.corrections) wrap('   ' + t('service.field.recallCorrectionsOmitted', { count: o.corrections }));
    if (r.status === 'void') {
      const why = r.uncorrectable ? t(`service.uncorrectable.${r.uncorrectable}`) : (r.reason ?? '');
      rows.push('   ' + t('service.field.voidReason', { reason: why, by: r.authorisedBy ?? [] }));
      if (r.voidRule) rows.push('   ' + t('service.field.voidRule', { article: cited(r.voidRule) }));
    }
    btn(`replay-${i + 1}`, t('service.action.replay', { n: i + 1 }), () => a.replay(r), r.cards.length > 0);
    btn(`evidence-${i + 1}`, t('service.action.export-evidence', { n: i + 1 }), () => a.download(`/service/export/evidence/${encodeURIComponent(r.roundId)}`));
  });
  const station = page.station;
  btn('recall-station', station === null ? t('service.action.allStations') : t('service.action.station', { station }), () => {
    const next = station === null ? 1 : station >= 7 ? null : station + 1;
    a.choose({ recallStation: next });
    a.open('recall', next === null ? {} : { station: next });
  });
  k.pager(page, SERVICE_PAGE_SIZE.recall, (offset) => a.open('recall', { offset, ...(station !== null ? { station } : {}) }));
}
