import type { ServicePage } from '../../../../../protocol/index.js';
import { minorDigits } from '../../../../../locales/money.js';
import { macauTime } from './time.js';
import type { PageKit } from './kit.js';

/** The progressive jackpot (Portugal, rules 38–50): the pools, their movements, the last awards, and a level's reset. */
export function jackpotPage(page: Extract<ServicePage, { page: 'jackpot' }>, k: PageKit): void {
  const { t, a, currency, money, sup, rows, btn } = k;
  // Portugal's progressive (rules 38–50): the pools, their movements, the last 25 awards; a
  // level set by two people on the authority's reference (typed in whole units of the currency).
  if (page.pools === null) {
    rows.push(t('service.jackpot.none'));
    return;
  }
  rows.push(t('service.jackpot.program', { reference: page.reference ?? '—', stake: page.stake === null ? '—' : money(page.stake) }));
  if (page.stopped) rows.push(t('jackpot.stopped'));
  for (const p of page.pools) rows.push('  ' + t('service.jackpot.pool', { level: p.level, pool: money(p.pool), held: money(p.held) }));
  rows.push(t('service.jackpot.history'));
  if (page.history.length === 0) rows.push('  ' + t('service.jackpot.nothing'));
  for (const m of page.history.slice(0, 12))
    rows.push(
      '  ' +
        t(m.roundId === null ? 'service.jackpot.resetRow' : m.rounding > 0 ? 'service.jackpot.moveRowRounded' : 'service.jackpot.moveRow', {
          at: macauTime(m.ts).slice(0, 16),
          round: m.roundId ?? '',
          level: m.level,
          before: money(m.before),
          contribution: money(m.contribution),
          award: money(m.award),
          rounding: money(m.rounding),
          seed: money(m.seed),
          after: money(m.after),
        }),
    );
  rows.push(t('service.jackpot.hits'));
  if (page.hits.length === 0) rows.push('  ' + t('service.jackpot.nothing'));
  for (const h of page.hits)
    rows.push(
      '  ' +
        t('service.jackpot.hitRow', {
          at: macauTime(h.ts).slice(0, 16),
          round: h.roundId,
          station: h.station,
          seat: h.seat,
          combination: t(`jackpot.combination.${h.combination}`),
          level: h.level,
          amount: money(h.amount),
        }),
    );
  for (const p of page.pools)
    btn(
      `act-jackpot-reset-${p.level}`,
      t('service.action.jackpot-reset', { level: p.level }),
      () =>
        a.ask({
          title: t('service.action.jackpot-reset', { level: p.level }),
          label: t('service.jackpot.typeAmount', { currency }),
          kind: 'digits',
          then: (digits) => {
            const to = Number(digits) * 10 ** minorDigits(currency);
            if (!Number.isSafeInteger(to) || to <= 0) return;
            a.ask({
              title: t('service.action.jackpot-reset', { level: p.level }),
              label: t('service.action.authorisation'),
              kind: 'reference',
              then: (authorisation) => a.act({ kind: 'jackpot-reset', level: p.level, to, authorisation }),
            });
          },
        }),
      sup,
    );
}
