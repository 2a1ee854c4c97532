import type { PrinterFault } from '../../../hardware/printer/condition.js';
import { openTilts, type NewEntry } from '../../../ledger/index.js';
import { ticketLog, type TicketLogRow } from '../../../ledger/ticket-log.js';
import { journalledMachineId } from '../../../ledger/machine-id-queries.js';
import type { NotPrintedReason } from '../../../hardware/printer/judge.js';
import {
  TICKET_NOT_PRINTED_REASONS,
  TICKET_RETURN_REASONS,
  type PrinterFaultName,
  type PrinterRow,
  type TicketNotPrintedReason,
  type TicketRow,
  type TicketVoidReason,
} from '../../../protocol/index.js';
import type { PrinterStatus } from '../../devices/printers.js';
import { readTicketFault, readTicketFaultSaid } from '../../floor/ticket-fault.js';
import { settleRefusal } from '../../floor/ticket-fault.js';
import { serviceSaid } from '../../../locales/said.js';
import { refusedBy } from '../refusal-words.js';
import type { TicketsPart } from '../service-backend.js';
import type { Changes } from './changes.js';
import type { LiveBackendDeps } from './deps.js';
import { actDetailSaid, serviceActionEntry } from './service-journal.js';

// The hardware's list of printer faults and the screens' are one: a fault one adds is a compile error here until the other has it.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const _sameFaults: Same<PrinterFault, PrinterFaultName> = true;
void _sameFaults;
const _sameNotPrinted: Same<NotPrintedReason, TicketNotPrintedReason> = true;
void _sameNotPrinted;

/** The printer's not-printed reason as the page carries it (a code the screen words); undefined for one the host no longer names. */
export function notPrintedReason(reason: string | undefined): TicketNotPrintedReason | undefined {
  return TICKET_NOT_PRINTED_REASONS.find((x) => x === reason);
}

/**
 * A void's reason as the journal holds it (host/floor/ticket-out.ts: `not printed: <the printer's
 * reason>`, or a person's `settled by hand: not printed`) as a code the screen words: the journal's
 * English went raw to the page in every language (a review of 6 December).
 */
export function voidReason(reason: string): TicketVoidReason {
  if (reason.startsWith('settled by hand')) return 'by-hand';
  const printer = /^not printed: (.*)$/.exec(reason);
  return notPrintedReason(printer?.[1]) ?? 'other';
}

/** A station's printer as service mode shows it: its link, paper, faults, and when that last changed. */
export function printerRow(p: PrinterStatus): PrinterRow {
  const c = p.condition;
  return {
    station: p.station,
    device: p.device,
    spec: p.spec.slice(0, 128),
    state: p.state,
    ...(p.firmware ? { firmware: p.firmware.slice(0, 128) } : {}),
    paper: c === null ? null : c.faults.includes('paper-out') ? 'out' : c.paperLow ? 'low' : 'ok',
    faults: c ? [...c.faults] : [],
    chassisOpen: c?.chassisOpen ?? false,
    paperInChute: c?.paperInChute ?? false,
    busy: c?.busy ?? false,
    changedAt: p.changedAt === null ? null : new Date(p.changedAt).toISOString(),
  };
}

/**
 * A ticket of the log as the page carries it: the number's last four digits only (a ticket is
 * paid to whoever holds it; the full number stays in the journal and at the authority).
 */
export function ticketRow(r: TicketLogRow, isHeld: (requestId: string) => boolean = () => false): TicketRow {
  // Approved with no end: being stacked while an acceptor has it, else held for a person (the host knows which, not the journal).
  const state = r.state === 'approved' && r.requestId !== undefined && isHeld(r.requestId) ? 'held' : r.state;
  const returned = TICKET_RETURN_REASONS.find((x) => x === r.reason);
  return {
    direction: r.direction,
    seq: r.seq,
    ts: r.ts,
    since: r.since,
    station: r.station,
    last4: r.validation.slice(-4),
    amount: r.amount,
    state,
    ...(r.state === 'returned' && returned ? { returned } : {}),
    ...(r.state === 'voided' && r.reason ? { voided: voidReason(r.reason) } : {}),
  };
}

/** What the Tickets page reads and settles of the floor: the held tickets out and in. */
type TicketsFloor = {
  tickets: Pick<LiveBackendDeps['floor']['tickets'], 'held' | 'settleByHand'> & Partial<Pick<LiveBackendDeps['floor']['tickets'], 'numberingId'>>;
  ticketsIn?: LiveBackendDeps['floor']['ticketsIn'];
};

/**
 * Service mode's Tickets page: the printers and the last tickets out and in (docs/tito.md); it
 * looks again at each ticket entry and printer change, and when an acceptor leaves a ticket held.
 */
export function tickets(
  d: Pick<LiveBackendDeps, 'ledger' | 'config' | 'printers'> & { floor?: TicketsFloor },
  changes: Changes,
): TicketsPart & { dispose(): void } {
  const off = [
    d.ledger.onAppended((entries) => {
      if (entries.some((e) => e.type.startsWith('ticket.') || e.type.startsWith('tilt.'))) changes.changed();
    }),
    d.printers?.onChange(() => changes.changed()) ?? (() => undefined),
    d.floor?.ticketsIn?.onChange(() => changes.changed()) ?? (() => undefined),
  ];
  return {
    page() {
      const log = ticketLog(d.ledger);
      return {
        limit: d.config.tickets.limit,
        // Under SAS the id is the one long poll 0x4C set (journalled), never the configuration's; else the
        // one the table numbers under (the upstream's, when it has said), as host/floor/ticket-out.ts does.
        machineId:
          d.config.tickets.authority === 'sas'
            ? journalledMachineId(d.ledger, 'sas')
            : (d.floor?.tickets.numberingId?.() ?? journalledMachineId(d.ledger, 'upstream') ?? d.config.tickets.machineId ?? null),
        printers: (d.printers?.statuses() ?? []).map(printerRow),
        // Read from the journal: the fault record is the `tilt.raise` entry, open until its `tilt.clear`.
        faults: openTilts(d.ledger).flatMap((f) => {
          // Said by key since 6 December; an older one by its English detail.
          const read = f.kind === 'ticket-late-verdict' && f.station !== undefined ? (readTicketFaultSaid(f.say) ?? readTicketFault(f.detail ?? '')) : null;
          if (!read || f.station === undefined) return [];
          const { reason, ...rest } = read;
          const said = notPrintedReason(reason);
          return [{ station: f.station, since: f.ts, ...rest, by: read.by.slice(0, 128), ...(said ? { reason: said } : {}) }];
        }),
        out: log.out.map((r) => ticketRow(r)),
        in: log.in.map((r) => ticketRow(r, (id) => d.floor?.ticketsIn?.isHeld(id) ?? false)),
      };
    },
    held: () => d.floor?.tickets.held() ?? [],
    /**
     * A person settles a held ticket (docs/tito.md, "A ticket held after a jam"): the ticket's end
     * (`ticket.void`, the credit back, or `ticket.printed`) is journalled naming them with the
     * service action, in one transaction, and only then is the screen told.
     */
    settle(station, last4, outcome, authorisedBy) {
      const record = (s: { last4: string; amount: number }) =>
        settleRecord(authorisedBy, 'ticket-settle', outcome === 'void' ? 'actTicketVoid' : 'actTicketPrinted', { station, ...s }, d.config.currency);
      const r = d.floor?.tickets.settleByHand(station, last4, outcome, authorisedBy, record) ?? settleRefusal(serviceSaid('ticketsNone'));
      if (!r.ok) return refusedBy(r.say);
      changes.changed();
      return {
        ok: true,
        key: outcome === 'void' ? 'service.done.ticketVoid' : 'service.done.ticketPrinted',
        // The currency with the amount: the screen's `money` format needs it (without, it showed minor units).
        values: { station, last4: r.last4, amount: r.amount, currency: d.config.currency },
      };
    },
    heldIn: () => d.floor?.ticketsIn?.held() ?? [],
    /**
     * A person settles a ticket in the acceptor left (docs/tito.md, "A ticket in held after an
     * acceptor's dispute"): its end (`ticket.redeem.stacked`, the station credited, or
     * `ticket.redeem.returned`) is journalled naming them with the service action, in one
     * transaction, and only then is the screen told.
     */
    settleIn(ticket, outcome, authorisedBy) {
      const none = settleRefusal(serviceSaid('ticketInNoneHeld', { station: ticket.station }));
      const record = (s: { station: number; last4: string; amount: number }) =>
        settleRecord(authorisedBy, 'ticket-in-settle', outcome === 'stacked' ? 'actTicketInStacked' : 'actTicketInReturned', s, d.config.currency);
      const r = d.floor?.ticketsIn?.settleByHand(ticket, outcome, authorisedBy, record) ?? none;
      if (!r.ok) return refusedBy(r.say);
      changes.changed();
      return {
        ok: true,
        key: outcome === 'stacked' ? 'service.done.ticketInStacked' : 'service.done.ticketInReturned',
        values: { station: r.station, last4: r.last4, amount: r.amount, currency: d.config.currency },
      };
    },
    dispose: () => off.forEach((f) => f()),
  };
}

/** A held ticket's settlement (out or in) as its service act records it: the detail by key, the ticket by its last four digits. */
function settleRecord(
  by: readonly string[],
  act: 'ticket-settle' | 'ticket-in-settle',
  phrase: 'actTicketVoid' | 'actTicketPrinted' | 'actTicketInStacked' | 'actTicketInReturned',
  s: { station: number; last4: string; amount: number },
  currency: string,
): NewEntry {
  return serviceActionEntry(by, act, actDetailSaid(phrase, { station: s.station, ticket: `…${s.last4}`, amount: s.amount, currency }));
}
