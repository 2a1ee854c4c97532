import type { ServicePage, TicketRow } from '../../../../../protocol/index.js';
import { localTime } from './time.js';
import type { PageKit } from './kit.js';

type TicketsPage = Extract<ServicePage, { page: 'tickets' }>;

/**
 * Cash-out tickets (docs/tito.md): the table's ticket limit and validation id, each station's
 * printer (its link, paper, what stops it, since when), then the last 35 tickets out and in,
 * newest first, each by the last four digits of its number only.
 */
export function ticketsPage(page: TicketsPage, k: PageKit): void {
  const { t, money, rows, wrap } = k;
  rows.push(t('service.tickets.head', { limit: money(page.limit), machineId: page.machineId ?? t('service.tickets.noId') }));
  rows.push(t('service.tickets.printers'));
  if (page.printers.length === 0) rows.push('  ' + t('service.tickets.noPrinter'));
  for (const p of page.printers) {
    wrap(
      '  ' +
        t('service.tickets.printer', {
          device: p.device,
          station: p.station,
          state: t(`service.tickets.printerState.${p.state}`),
          paper: t(`service.tickets.paper.${p.paper ?? 'unknown'}`),
          at: p.changedAt ? localTime(p.changedAt) : t('service.tickets.never'),
        }),
    );
    const flags = [
      ...p.faults.map((f) => t(`service.tickets.fault.${f}`)),
      ...(p.chassisOpen ? [t('service.tickets.flag.chassisOpen')] : []),
      ...(p.paperInChute ? [t('service.tickets.flag.inChute')] : []),
      ...(p.busy ? [t('service.tickets.flag.busy')] : []),
    ];
    if (flags.length > 0) wrap('    ' + flags.join(' · '));
  }
  ticketRows(page.out, 'service.tickets.out', k);
  ticketRows(page.in, 'service.tickets.in', k);
}

function ticketRows(list: readonly TicketRow[], title: 'service.tickets.out' | 'service.tickets.in', k: PageKit): void {
  const { t, money, rows, wrap } = k;
  rows.push(t(title));
  if (list.length === 0) rows.push('  ' + t('service.tickets.none'));
  for (const r of list) {
    const values = {
      at: localTime(r.ts),
      station: r.station,
      last4: r.last4,
      amount: r.amount === null ? t('service.tickets.never') : money(r.amount),
      state: t(`service.tickets.state.${r.state}`),
    };
    const why = r.returned ? t(`service.tickets.reason.${r.returned}`) : r.voided;
    wrap('  ' + (why ? t('service.tickets.rowWhy', { ...values, why }) : t('service.tickets.row', values)));
  }
}
