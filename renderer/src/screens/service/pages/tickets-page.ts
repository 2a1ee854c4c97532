import type { ServiceAction, ServicePage, TicketRow } from '../../../../../protocol/index.js';
import type { MessageKey } from '../../../../../locales/i18n.js';
import { macauTime } from './time.js';
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
          at: p.changedAt ? macauTime(p.changedAt) : t('service.tickets.never'),
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
  heldRows(page.held, HELD_OUT, k);
  heldRows(page.heldIn, HELD_IN, k);
  faultRows(page, k);
  ticketRows(page.out, 'service.tickets.out', k);
  ticketRows(page.in, 'service.tickets.in', k);
}

type HeldOut = TicketsPage['held'][number];
type HeldIn = TicketsPage['heldIn'][number];

/**
 * A list of held tickets as the page words it: its heading, how they are settled, each ticket's
 * row, and its two settlements, each a button (its test id, its caption) and the action it asks for.
 */
interface HeldList<H extends HeldOut | HeldIn, O extends string> {
  title: 'service.tickets.held' | 'service.tickets.heldIn';
  how: 'service.tickets.heldHow' | 'service.tickets.heldInHow';
  row: 'service.tickets.heldRow' | 'service.tickets.heldInRow';
  /** Each settlement's caption, in the order its buttons are drawn. */
  settlements: Readonly<Record<O, MessageKey>>;
  id: (h: H, outcome: O) => string;
  act: (h: H, outcome: O) => ServiceAction;
}

/**
 * Tickets the printer could not judge, each with its two settlements (a technician alone, or a
 * supervisor and a second person above the two-person amount, as a handpay): void, the credit back,
 * or printed and handed over. The action names the ticket by its last four digits; the host checks them.
 */
const HELD_OUT: HeldList<HeldOut, 'void' | 'printed'> = {
  title: 'service.tickets.held',
  how: 'service.tickets.heldHow',
  row: 'service.tickets.heldRow',
  settlements: { void: 'service.action.ticket-void-row', printed: 'service.action.ticket-printed-row' },
  id: (h, outcome) => `ticket-${outcome}-${h.station}`,
  act: (h, outcome) => ({ kind: 'ticket-settle', station: h.station, ticket: h.last4, outcome }),
};

/**
 * Tickets in the acceptor left without an end after their approval (it broke its protocol or
 * jammed after STACK), each with its two settlements, as a held ticket out's: in the cashbox, the
 * station credited, or not there, returned to the player. Several may wait at one station, so each
 * action names its attempt (`seq`) beside the number's last four digits; the host checks both.
 */
const HELD_IN: HeldList<HeldIn, 'stacked' | 'returned'> = {
  title: 'service.tickets.heldIn',
  how: 'service.tickets.heldInHow',
  row: 'service.tickets.heldInRow',
  settlements: { stacked: 'service.action.ticket-in-stacked-row', returned: 'service.action.ticket-in-returned-row' },
  id: (h, outcome) => `ticket-in-${outcome}-${h.seq}`,
  act: (h, outcome) => ({ kind: 'ticket-in-settle', station: h.station, seq: h.seq, ticket: h.last4, outcome }),
};

/** A list of held tickets, numbered, each with its two settlement buttons; nothing when none is held. */
function heldRows<H extends HeldOut | HeldIn, O extends string>(held: readonly H[], list: HeldList<H, O>, k: PageKit): void {
  const { t, a, money, canAct, rows, wrap, btn } = k;
  if (held.length === 0) return;
  rows.push(t(list.title));
  wrap('  ' + t(list.how));
  held.forEach((h, i) => {
    const row = t(list.row, {
      station: h.station,
      last4: h.last4,
      amount: money(h.amount),
      at: macauTime(h.since),
      two: h.twoPerson ? t('service.field.twoPerson') : '',
    });
    wrap('  ' + t('punctuation.numbered', { n: i + 1, text: row }));
    for (const [outcome, label] of Object.entries(list.settlements) as [O, MessageKey][])
      btn(list.id(h, outcome), t(label, { n: i + 1 }), () => a.act(list.act(h, outcome)), canAct);
  });
}

/**
 * Open ticket faults: a printer's late verdict that differs from a person's settlement (the player
 * may have lost that credit, or holds paper never paid). Each is worked with the player and cleared
 * by an attendant or technician (the host checks the role), as on the Status page.
 */
function faultRows(page: TicketsPage, k: PageKit): void {
  const { t, a, money, canAct, rows, wrap, btn } = k;
  if (page.faults.length === 0) return;
  rows.push(t('service.tickets.faults'));
  wrap('  ' + t('service.tiltHow.ticket-late-verdict'));
  for (const f of page.faults) {
    const reason = f.reason ? t(`service.tickets.voidReason.${f.reason}`) : t('service.tickets.never');
    const said = f.printer === 'printed' ? t('service.tickets.faultSaid.printed') : t('service.tickets.faultSaid.not-printed', { reason });
    const values = { station: f.station, last4: f.last4, amount: money(f.amount), by: f.by, at: macauTime(f.since), said };
    wrap('  ' + t(f.settled === 'printed' ? 'service.tickets.faultSettledPrinted' : 'service.tickets.faultSettledVoid', values));
    const clear = { kind: 'clear-tilt' as const, tilt: 'ticket-late-verdict', station: f.station };
    btn(
      `ticket-fault-clear-${f.station}`,
      t('service.action.clear-tilt-station', { fault: t('tilt.ticket-late-verdict'), station: f.station }),
      () => a.act(clear),
      canAct,
    );
  }
}

function ticketRows(list: readonly TicketRow[], title: 'service.tickets.out' | 'service.tickets.in', k: PageKit): void {
  const { t, money, rows, wrap } = k;
  rows.push(t(title));
  if (list.length === 0) rows.push('  ' + t('service.tickets.none'));
  for (const r of list) {
    const values = {
      at: macauTime(r.ts),
      station: r.station,
      last4: r.last4,
      amount: r.amount === null ? t('service.tickets.never') : money(r.amount),
      state: t(`service.tickets.state.${r.state}`),
    };
    const why = r.returned ? t(`service.tickets.reason.${r.returned}`) : r.voided ? t(`service.tickets.voidReason.${r.voided}`) : '';
    wrap('  ' + (why ? t('service.tickets.rowWhy', { ...values, why }) : t('service.tickets.row', values)));
  }
}
