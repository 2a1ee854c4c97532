import type { BillAcceptorOptions, EscrowedTicket } from '../../../hardware/billacceptor/types.js';
import { FakeAcceptor, type AcceptorTruth } from '../../fake-acceptor/fake-acceptor.js';

// The campaigns' fake bill acceptor (cli/fake-acceptor/fake-acceptor.ts) with barcode tickets, at the level
// of the ID-003 ticket cycle's promises (hardware/billacceptor/id003/tickets.ts): a ticket in
// escrow is offered to the host and held while it asks; STACK puts it in the stacker, and the
// host is told it is stacked until it takes it (an ACK withheld, a kill: told again at power-up,
// as the driver does from the host's journalled `pendingTicket`); RETURN gives it back; a power-up
// gives back a ticket still in escrow. The truth outlives the host.

export interface TicketSlotTruth {
  readonly device: string;
  next: number;
  /** Each ticket by escrow id: its number, where it is, and whether the host took its stacked report. */
  readonly tickets: Map<string, { validation: string; where: 'escrow' | 'stacker' | 'returned'; told: boolean }>;
}

export function ticketSlotTruth(device: string): TicketSlotTruth {
  return { device, next: 1, tickets: new Map() };
}

export type Inserted = 'stacked' | 'returned' | 'held' | 'refused';

export class SimTicketAcceptor extends FakeAcceptor {
  constructor(
    notes: AcceptorTruth,
    private readonly slot: TicketSlotTruth,
    options: BillAcceptorOptions,
  ) {
    super(notes, options);
  }

  /** Power-up: a ticket left in escrow goes back to the player (notes as before). */
  override start(): void {
    super.start();
    for (const [escrowId, t] of this.slot.tickets) {
      if (t.where !== 'escrow') continue;
      t.where = 'returned';
      this.emit({ type: 'ticketReturned', ticket: { validationNumber: t.validation, escrowId }, reason: 'power-up' });
    }
  }

  /**
   * Power-up with a ticket in the stacker the host never took: told stacked (recovered) when the
   * host's journal says it sent STACK for it, as the driver's ticket cycle does from `pendingTicket`.
   */
  async recover(): Promise<void> {
    const pending = this.options.pendingTicket;
    for (const [escrowId, t] of this.slot.tickets) {
      if (t.where !== 'stacker' || t.told) continue;
      if (!pending || pending.escrowId !== escrowId || !pending.stackSent) continue;
      await this.tell({ validationNumber: t.validation, escrowId }, true);
    }
  }

  /** A player inserts a ticket: offered to the host, held while it asks, then stacked or returned. */
  async insertTicket(validation: string): Promise<Inserted> {
    if (!this.options.onTicket) return 'refused';
    const escrowId = `${this.slot.device}:T${this.slot.next++}`;
    this.slot.tickets.set(escrowId, { validation, where: 'escrow', told: false });
    const ticket: EscrowedTicket = { validationNumber: validation, escrowId };
    this.emit({ type: 'ticketEscrowed', ticket });
    // A throw: the host died asking (or could not journal): no command; the ticket waits in escrow for the power-up.
    const decision = await this.options.onTicket(ticket);
    const t = this.slot.tickets.get(escrowId);
    if (!t) return 'held';
    if (decision === 'stack') {
      t.where = 'stacker';
      await this.tell(ticket, false);
      return 'stacked';
    }
    t.where = 'returned';
    this.emit({ type: 'ticketReturned', ticket, reason: 'host' });
    return 'returned';
  }

  private async tell(ticket: EscrowedTicket, recovered: boolean): Promise<void> {
    const t = this.slot.tickets.get(ticket.escrowId);
    if (!t) return;
    // A throw withholds the ACK: the stacked report stays owed (told again at the next power-up),
    // as the driver's ticket cycle does (it says a failure and does not acknowledge the unit).
    try {
      await this.options.onTicketStacked?.(ticket, recovered);
    } catch (e) {
      this.emit({ type: 'failure', reason: `ticket-stacked callback failed, device not acknowledged: ${e instanceof Error ? e.message : String(e)}` });
      return;
    }
    t.told = true;
    this.emit({ type: 'ticketStacked', ticket, recovered });
  }
}
