import { z } from 'zod';
import type { Ledger } from '../../ledger/ledger.js';
import { ticketLog } from '../../ledger/ticket-log.js';
import { MAX_STATION_TICKETS, TICKET_RETURN_REASONS, type StationTicket } from '../../protocol/index.js';
import type { HeldTicketsIn } from '../floor/station-gates.js';

const NamesStation = z.object({ payload: z.object({ station: z.number() }) });

/**
 * Each station's own last tickets for the player's recall (issue 47; docs/tito.md): read from the
 * journal (`ticketLog` of that station), again only after a ticket entry was journalled, so a
 * station's list is the same array while it stands (compared and encoded once). Newest first,
 * tickets out and in together, each by its number's last four digits only.
 */
export class StationTickets {
  private readonly lists = new Map<number, StationTicket[]>();
  /** Which approved tickets in the host holds for a person: `held`, not `approved` (being stacked), in the list. */
  private held: HeldTicketsIn | null = null;
  private offHeld: () => void = () => undefined;

  /**
   * `changed`: told after a ticket entry, once the lists are stale. Whoever heard of the same
   * commit before this listener (the table's credit mirror, refreshing the screens) read the old
   * list, so the screens must look again.
   */
  constructor(
    private readonly ledger: Ledger,
    changed: () => void = () => undefined,
  ) {
    // A ticket entry reads its station's list again when next asked (every ticket entry names its station).
    ledger.onAppended((entries) => {
      let stale = false;
      for (const e of entries) {
        if (!e.type.startsWith('ticket.')) continue;
        const named = NamesStation.safeParse(JSON.parse(e.body));
        if (named.success) this.lists.delete(named.data.payload.station);
        else this.lists.clear();
        stale = true;
      }
      if (stale) changed();
    });
  }

  /**
   * Reads held tickets in from `held` from now on. Its change only makes that station's list stale:
   * the floor's own change, heard after (the hub attaches this first), has the screens look again.
   */
  heldBy(held: HeldTicketsIn | null): void {
    this.offHeld();
    this.held = held;
    this.lists.clear();
    this.offHeld = held?.onChange((station) => this.lists.delete(station)) ?? (() => undefined);
  }

  of(station: number): StationTicket[] {
    const had = this.lists.get(station);
    if (had) return had;
    const log = ticketLog(this.ledger, MAX_STATION_TICKETS, station);
    const list = [...log.out, ...log.in]
      .sort((a, b) => b.seq - a.seq)
      .slice(0, MAX_STATION_TICKETS)
      .map((r): StationTicket => {
        const returned = r.direction === 'in' ? TICKET_RETURN_REASONS.find((x) => x === r.reason) : undefined;
        const state = r.state === 'approved' && r.requestId !== undefined && this.held?.isHeld(r.requestId) ? 'held' : r.state;
        return { direction: r.direction, ts: r.ts, last4: r.validation.slice(-4), amount: r.amount, state, ...(returned ? { returned } : {}) };
      });
    this.lists.set(station, list);
    return list;
  }
}
