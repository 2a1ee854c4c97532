import type { TFunction } from 'i18next';
import type { StationState, StationTicket } from '../../../protocol/index.js';
import { formatMoney, intlLocale } from '../../../locales/money.js';

/**
 * The player's own tickets in the station's recall (issue 47; docs/tito.md): each ticket printed
 * here or inserted here, newest first, with when, its number's last four digits only, its amount
 * and where it stands (why it went back, for one returned), in the player's language.
 */
export function ticketLines(tickets: readonly StationTicket[] | undefined, s: Pick<StationState, 'currency' | 'language'>, t: TFunction): string[] {
  const list = tickets ?? [];
  if (list.length === 0) return [t('recall.tickets'), t('recall.noTickets')];
  const time = new Intl.DateTimeFormat(intlLocale(s.language), { dateStyle: 'short', timeStyle: 'short', hour12: true, timeZone: 'Asia/Macau' });
  return [
    t('recall.tickets'),
    ...list.map((k) => {
      const state = t(`recall.ticketState.${k.state}`);
      const values = {
        when: time.format(new Date(k.ts)),
        last4: k.last4,
        amount: k.amount === null ? '—' : formatMoney(k.amount, s.currency, s.language),
        state: k.returned ? t('recall.ticketWhy', { state, why: t(`service.tickets.reason.${k.returned}`) }) : state,
      };
      return t(k.direction === 'out' ? 'recall.ticketOut' : 'recall.ticketIn', values);
    }),
  ];
}
