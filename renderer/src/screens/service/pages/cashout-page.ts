import { SERVICE_PAGE_SIZE, type ServicePage } from '../../../../../protocol/index.js';
import { entryWords } from './events-page.js';
import { shorten } from './rows.js';
import { macauTime } from './time.js';
import type { PageKit } from './kit.js';

/** Cash-out: the handpays waiting (each confirmed by its own button) and the credits cancelled. */
export function cashoutPage(page: Extract<ServicePage, { page: 'cashout' }>, k: PageKit): void {
  const { t, a, money, canAct, rows, btn } = k;
  rows.push(t('service.field.pending'));
  if (page.pending === null) rows.push('  ' + t('service.field.pendingOff'));
  else if (page.pending.length === 0) rows.push('  ' + t('service.field.pendingNone'));
  else
    page.pending.forEach((p, at) => {
      // Numbered through the pages: the 17th waiting is 17 on the second page.
      const i = page.offset + at;
      const row = t('service.field.pendingRow', { station: p.station, amount: money(p.amount), two: p.twoPerson ? t('service.field.twoPerson') : '' });
      rows.push('  ' + t('punctuation.numbered', { n: i + 1, text: row }));
      // Not paid by this handpay: the attendant can tell the player where it is.
      if (p.streakHeld !== undefined) rows.push('     ' + t('service.field.streakHeld', { amount: money(p.streakHeld) }));
      btn(
        `handpay-${i + 1}`,
        t('service.action.handpay-confirm-row', { n: i + 1 }),
        () => a.act({ kind: 'handpay-confirm', station: p.station, requestTxId: p.requestTxId }),
        canAct,
      );
    });
  k.pager(page, SERVICE_PAGE_SIZE.cashout, (offset) => a.open('cashout', { offset }));
  rows.push(t('service.field.twoPersonAbove', { amount: money(page.twoPersonAbove) }), '', t('service.field.cancelledCredits'));
  // Each as the event log says it: by its fields in words (the station, the amount), at Macau's time.
  for (const e of page.cancelled) rows.push(shorten(`  #${e.seq} ${macauTime(e.ts)} ${entryWords(e, k)}`));
}
