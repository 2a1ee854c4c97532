// Barcode tickets (TITO) in a JCM ID-003 acceptor: ESCROW (0x13) with the ticket code 0x6F and the
// barcode's characters. A ticket has a cycle of its own beside the note cycle, moved by the same
// transition table (transitions.ts): offered to the host (which asks the validation authority while
// HOLD keeps the ticket in escrow), then STACK or RETURN; the host is told the ticket is stacked at
// VEND VALID only for a ticket it told to stack, and the unit is acknowledged after that. Facts:
// docs/protocols/id003.md ("Tickets").
import { randomUUID } from 'node:crypto';
import { bytesAscii } from '../../bytes.js';
import { isValidationNumber } from '../../validation-number.js';
import type { Phase } from '../note-phase.js';
import type { BillAcceptorEvent, BillAcceptorOptions, EscrowedTicket, ViolationRule } from '../types.js';
import { TICKET_ESCROW_CODE } from './constants.js';

type Emit = (e: BillAcceptorEvent) => void;
type ReturnReason = Extract<BillAcceptorEvent, { type: 'ticketReturned' }>['reason'];

/** The barcode of an ESCROW 0x6F report, checked: exactly 18 ASCII digits (the SAS validation number). */
export function readTicketEscrow(
  data: Uint8Array,
): { ok: true; validationNumber: string } | { ok: false; reason: 'bad-length' | 'not-digits'; barcode: string } {
  const raw = data.subarray(1);
  const barcode = bytesAscii(raw);
  if (raw.length !== 18) return { ok: false, reason: 'bad-length', barcode };
  if (!raw.every((b) => b >= 0x30 && b <= 0x39) || !isValidationNumber(barcode)) return { ok: false, reason: 'not-digits', barcode };
  return { ok: true, validationNumber: barcode };
}

/** Whether an ESCROW report is a ticket's. */
export function isTicketEscrow(data: Uint8Array): boolean {
  return data[0] === TICKET_ESCROW_CODE;
}

/** How an ESCROW report relates to the ticket of the cycle (the ticket form of classifyEscrow). */
export function classifyTicketEscrow(phase: Phase, held: EscrowedTicket | null, data: Uint8Array, gap: boolean): 'escrow-same' | 'escrow-other' | 'escrow-new' {
  if (!held || phase === 'idle') return 'escrow-new';
  const after = phase === 'credited' || phase === 'disputed';
  const same = isTicketEscrow(data) && bytesAscii(data.subarray(1)) === held.validationNumber;
  if (same && !after) return 'escrow-same';
  return gap ? 'escrow-new' : 'escrow-other';
}

export interface TicketCycleState {
  phase: Phase;
  ticket: EscrowedTicket | null;
  returnEmitted: boolean;
}

const IDLE_TICKET: TicketCycleState = Object.freeze({ phase: 'idle', ticket: null, returnEmitted: false });

/** The ticket cycle: its phase, the events it says, and the host's stacked callback, once per ticket. */
export class TicketCycle {
  state: TicketCycleState = IDLE_TICKET;
  /** Why a ticket of a `return-sent` cycle goes back (said when the unit takes RETURN). */
  returnReason: ReturnReason = 'host';
  /** Escrow ids already told stacked (bounded): a repeated VEND VALID never tells it twice. */
  private told: string[] = [];
  private stackFromJournal = false;

  constructor(
    private readonly emit: Emit,
    private readonly opts: Pick<BillAcceptorOptions, 'onTicketStacked'>,
    pending: BillAcceptorOptions['pendingTicket'],
  ) {
    if (pending) {
      const { stackSent, ...ticket } = pending;
      this.state = { phase: stackSent ? 'stack-sent' : 'escrow', ticket, returnEmitted: false };
      this.stackFromJournal = stackSent;
    }
  }

  /**
   * Whether the report being read is the unit's first of a ticket known only from the journal as
   * told to stack (as the note's, driver.ts): whether STACK ever reached the unit is not known, so
   * that report is read by ID003_JOURNALLED_STACK. True once; every later report is false.
   */
  firstReportFromJournal(): boolean {
    const first = this.stackFromJournal;
    this.stackFromJournal = false;
    return first;
  }

  get phase(): Phase {
    return this.state.phase;
  }

  get ticket(): EscrowedTicket | null {
    return this.state.ticket;
  }

  get active(): boolean {
    return this.state.phase !== 'idle';
  }

  fresh(validationNumber: string): EscrowedTicket {
    return { validationNumber, escrowId: randomUUID() };
  }

  enter(phase: Phase, ticket: EscrowedTicket | null = this.state.ticket, returnEmitted = this.state.returnEmitted): void {
    this.state = phase === 'idle' ? IDLE_TICKET : { phase, ticket, returnEmitted };
  }

  /** The ticket went back to the customer: said once. */
  returned(reason: ReturnReason): void {
    const { ticket, returnEmitted } = this.state;
    if (ticket && !returnEmitted) this.emit({ type: 'ticketReturned', ticket, reason });
    this.state = { ...this.state, returnEmitted: true };
  }

  /** The unit broke its protocol over this ticket: said, nothing stacked for it, the cycle in dispute. */
  violation(rule: ViolationRule, report: string): void {
    const ticket = this.state.ticket;
    this.emit({ type: 'protocolViolation', rule, report, ...(ticket ? { ticket } : {}) });
    this.state = { ...this.state, phase: 'disputed' };
  }

  /**
   * Tells the host the ticket is stacked (its redemption may be confirmed), only from `stack-sent`
   * and once per escrow. True when the host took it (now or before): the unit may then be
   * acknowledged; false when the host's callback failed: no ACK, the report repeats.
   */
  async stacked(recovered: boolean): Promise<boolean> {
    const { phase, ticket } = this.state;
    if (!ticket) return true;
    if (phase === 'credited' || this.told.includes(ticket.escrowId)) {
      this.enter('credited');
      return true;
    }
    if (phase !== 'stack-sent') return true;
    try {
      await this.opts.onTicketStacked?.(ticket, recovered);
    } catch (e) {
      this.emit({ type: 'failure', reason: `ticket-stacked callback failed, device not acknowledged: ${e instanceof Error ? e.message : String(e)}` });
      return false;
    }
    this.enter('credited');
    this.told.push(ticket.escrowId);
    if (this.told.length > 64) this.told.shift();
    this.emit({ type: 'ticketStacked', ticket, recovered });
    return true;
  }
}
