import type { Logger } from 'pino';
import { Emitter } from '../../hardware/clock.js';
import type { EscrowDecision, EscrowedTicket } from '../../hardware/billacceptor/types.js';
import type { Ledger } from '../../ledger/ledger.js';
import { ticketInTxId, ticketStackedTxId } from '../../ledger/ticket-postings.js';
import { ticketInEnded, ticketInEscrow, type TicketInEscrow } from '../../ledger/ticket-queries.js';
import { AnyTicketNumber, RequestId, TicketNumber, type TICKET_RETURNS } from '../../terms/ticket-terms.js';
import type { ValidationNumber } from '../../terms/validation-number.js';

type TicketReturn = (typeof TICKET_RETURNS)[number];
// The ledger's reasons and the screens' are one list: a reason one adds is a compile error here until the other has it.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const _sameReasons: Same<TicketReturn, TicketReturnReason> = true;
void _sameReasons;
import type { TicketReturnReason } from '../../protocol/index.js';
import type { TableConfig } from '../config/table-config.js';
import type { TicketAuthority } from '../tickets/authority.js';

/** What a station's screen says of the last ticket inserted there. */
export type TicketInState =
  | { state: 'checking'; validation: string; at: number }
  | { state: 'credited'; validation: string; amount: number; at: number }
  | { state: 'returned'; validation: string; reason: TicketReturn; at: number };

export interface TicketInDeps {
  config: TableConfig;
  ledger: Ledger;
  log: Logger;
  /** The validation authority, behind its guard (host/tickets/guard.ts); absent: every ticket goes back `offline`. */
  authority: TicketAuthority | null;
}

/**
 * Ticket in at a station's acceptor (issue 47 item 3, docs/tito.md). The ticket waits in escrow
 * while the validation authority is asked: `ticket.redeem.request` is journalled before the
 * question, `ticket.redeem.approved` before the acceptor is told to stack, and the station is
 * credited only by `ticket.redeem.stacked`, at the acceptor's credit point, once per ticket at
 * this table. Anything else returns the ticket (`ticket.redeem.returned`, the reason told to the
 * player), and the authority is told so it never stays pending.
 */
export class TicketIn {
  private readonly last = new Map<number, TicketInState>();
  private readonly changes = new Emitter<number>();

  constructor(private readonly deps: TicketInDeps) {}

  /** A station's ticket state changed: its screen must be told. */
  onChange(listener: (station: number) => void): () => void {
    return this.changes.on(listener);
  }

  lastAt(station: number): TicketInState | null {
    return this.last.get(station) ?? null;
  }

  /** The ticket a kill left in the station's escrow, for the acceptor's power-up report (stackSent: it was approved). */
  pendingFor(station: number): (EscrowedTicket & { stackSent: boolean }) | null {
    const p = ticketInEscrow(this.deps.ledger, station);
    return p ? { validationNumber: p.validation, escrowId: p.requestId, stackSent: p.approved !== null } : null;
  }

  /** A ticket in escrow: journalled, asked, and answered STACK only on the authority's approval. */
  async escrow(station: number, ticket: EscrowedTicket): Promise<EscrowDecision> {
    const requestId = RequestId.safeParse(ticket.escrowId);
    // Validated by the casino's system (`tickets.authority: sas`), a number it gave (SAS system validation) is its to decide too.
    const validation = (this.deps.config.tickets.authority === 'sas' ? AnyTicketNumber : TicketNumber).safeParse(ticket.validationNumber);
    if (!requestId.success || !validation.success) {
      // A barcode of 18 digits that no scheme of ours makes: unknown, without asking anyone.
      this.deps.log.warn({ station, barcode: ticket.validationNumber }, 'ticket in: not a validation number of this floor');
      this.show(station, { state: 'returned', validation: ticket.validationNumber, reason: 'unknown', at: Date.now() });
      return 'return';
    }
    const at: Attempt = { requestId: requestId.data, validation: validation.data, station, ...this.validatedBy() };
    const again = this.askedBefore(at);
    if (again) return again;
    this.deps.ledger.append({ type: 'ticket.redeem.request', payload: at, txId: ticketInTxId(at.requestId, 'request') });
    this.show(station, { state: 'checking', validation: at.validation, at: Date.now() });
    const authority = this.deps.authority;
    const answer = authority
      ? await authority.redeem({ ...at, currency: this.deps.config.currency, limit: this.deps.config.tickets.limit })
      : ({ kind: 'refused', requestId: at.requestId, reason: 'offline' } as const);
    if (answer.kind === 'approved' && answer.currency === this.deps.config.currency) {
      this.deps.ledger.append({
        type: 'ticket.redeem.approved',
        payload: { ...at, amount: answer.amount, currency: answer.currency },
        txId: ticketInTxId(at.requestId, 'approved'),
      });
      return 'stack';
    }
    this.returned(station, at, answer.kind === 'refused' ? answer.reason : 'other-currency');
    return 'return';
  }

  /**
   * The same escrow asked about again: the ID-003 driver does so when its link was lost between
   * the host's answer and STACK and the unit still holds the ticket after the reconnect. Its
   * attempt is answered from the journal, never asked of the authority twice (the guard refuses a
   * request asked again, `offline`, and the approved ticket would go back): approved and open,
   * STACK on that approval (the authority holds the ticket pending for this attempt); ended, it
   * goes back with the reason it was given. An attempt journalled and not yet answered (its
   * question still out) is asked again as before, and the guard refuses it.
   */
  private askedBefore(at: Attempt): EscrowDecision | null {
    const ledger = this.deps.ledger;
    if (!ledger.byTxId(ticketInTxId(at.requestId, 'request'))) return null;
    const ended = ticketInEnded(ledger, at.requestId);
    if (ended !== undefined) {
      this.show(at.station, { state: 'returned', validation: at.validation, reason: ended?.reason ?? 'offline', at: Date.now() });
      return 'return';
    }
    const open = ticketInEscrow(ledger, at.station);
    if (open?.requestId !== at.requestId || open.validation !== at.validation || !open.approved) return null;
    this.deps.log.info({ station: at.station, validation: at.validation }, 'ticket in: asked again after its approval: stacked on it');
    return 'stack';
  }

  /** The acceptor stacked the ticket it was told to: the station is credited, once, and the authority told. */
  async stacked(station: number, ticket: EscrowedTicket): Promise<void> {
    const pending = ticketInEscrow(this.deps.ledger, station);
    if (!pending || pending.requestId !== ticket.escrowId || !pending.approved) {
      // Stacked without an approval journalled for it: never credited (the ACK is withheld; a fault follows at the acceptor).
      throw new Error(`ticket ${ticket.validationNumber} stacked at station ${station} without an approval journalled for it`);
    }
    const at = attemptOf(pending);
    this.deps.ledger.append({
      type: 'ticket.redeem.stacked',
      payload: { ...at, amount: pending.approved.amount, currency: pending.approved.currency },
      txId: ticketStackedTxId(at.validation),
    });
    this.show(station, { state: 'credited', validation: at.validation, amount: pending.approved.amount, at: Date.now() });
    this.deps.log.info({ station, validation: at.validation, amount: pending.approved.amount }, 'ticket in: stacked and credited');
    const ack = await this.deps.authority?.confirm(at.requestId, at);
    if (ack && !ack.ok)
      this.deps.log.warn({ station, validation: at.validation, detail: ack.detail }, 'ticket in: the authority was not told now (the synced journal tells it)');
  }

  /** The acceptor gave back a ticket the host was asked about (after an approval: it did not stack). */
  deviceReturned(station: number, ticket: EscrowedTicket, reason: 'host' | 'escrow-timeout' | 'power-up' | 'device'): void {
    if (reason === 'host') return; // the host's own return, journalled when it answered
    const pending = ticketInEscrow(this.deps.ledger, station);
    if (!pending || pending.requestId !== ticket.escrowId) return;
    this.returned(station, attemptOf(pending), reason === 'device' ? 'acceptor-returned' : 'acceptor-fault');
  }

  private returned(station: number, at: Attempt, reason: TicketReturn): void {
    this.deps.ledger.append({ type: 'ticket.redeem.returned', payload: { ...at, reason }, txId: ticketInTxId(at.requestId, 'end') });
    this.show(station, { state: 'returned', validation: at.validation, reason, at: Date.now() });
    this.deps.log.info({ station, validation: at.validation, reason }, 'ticket in: returned');
    void this.deps.authority?.cancel(at.requestId, at);
  }

  /** The label of an attempt the casino's system validates (the upstream ingests it and leaves it to that system). */
  private validatedBy(): { authority?: 'sas' } {
    return this.deps.config.tickets.authority === 'sas' ? { authority: 'sas' } : {};
  }

  private show(station: number, s: TicketInState): void {
    this.last.set(station, s);
    this.changes.emit(station);
  }
}

/** An attempt as journalled: its request's words, the label of the system asked included. */
type Attempt = { requestId: RequestId; validation: ValidationNumber; station: number; authority?: 'sas' };

function attemptOf(p: TicketInEscrow): Attempt {
  return { requestId: p.requestId, validation: p.validation, station: p.station, ...(p.authority ? { authority: p.authority } : {}) };
}
