import type { Logger } from 'pino';
import type { Handpays } from '../floor/handpays.js';
import type { TicketOut } from '../floor/ticket-out.js';
import type { Timers } from '../table/timers.js';

/** The held tickets the attendant sees and settles (host/floor/ticket-out.ts), and the whole number of the one at a station. */
export type AttendantTickets = Pick<TicketOut, 'held' | 'settleByHand'> & { validationAt(station: number): string | null };

export interface SimAttendantDeps {
  /** Pending handpays, and the two-person rule a held ticket's settlement follows too. */
  handpays: Pick<Handpays, 'pending' | 'confirm' | 'needsWitness'>;
  tickets?: AttendantTickets;
  /**
   * What came out of the station's simulated printer; null where the printer is not simulated (a
   * real person settles it) or is busy with a job (a ticket may still be coming out: looked at later).
   */
  paperAt: (station: number) => readonly { barcode: string; whole: boolean }[] | null;
}

/**
 * Autoplay's floor attendant. A simulated player's cash-out locks its station until a handpay is
 * confirmed, and a ticket the printer cannot judge (a kill while it printed: `printer-restarted`)
 * locks it until a person settles it; in autoplay (and the soak) an attendant does both after a
 * short while (a held ticket once it was seen held on the round before, as a person walks over),
 * with a second person where the amount needs one. A held ticket is settled as the
 * Tickets page asks a person to (docs/tito.md, "A ticket held after a jam"): printed if the
 * simulated printer's paper holds it whole, else void, the credit back. Journalled like any
 * handpay or settlement, under names that say they were simulated; never started outside `--autoplay`.
 */
export function startSimAttendant(deps: SimAttendantDeps, timers: Timers, log: Logger, everyMs = 500): () => void {
  let handle: unknown = null;
  let stopped = false;
  /** The held tickets seen on the round before (by validation number): settled on this one if still held. */
  let seen = new Set<string>();
  const round = () => {
    payHandpays(deps, log);
    seen = settleHeld(deps, seen, log);
    if (!stopped) handle = timers.setTimeout(round, everyMs);
  };
  handle = timers.setTimeout(round, everyMs);
  return () => {
    stopped = true;
    if (handle !== null) timers.clearTimeout(handle);
  };
}

function payHandpays({ handpays }: SimAttendantDeps, log: Logger): void {
  for (const p of handpays.pending()) {
    const r = handpays.confirm(p.requestTxId, 'autoplay-attendant', p.needsWitness ? 'autoplay-witness' : undefined);
    if (!r.ok) log.warn({ requestTxId: p.requestTxId, reason: r.reason }, 'simulated attendant could not pay a handpay');
  }
}

function settleHeld({ handpays, tickets, paperAt }: SimAttendantDeps, seen: ReadonlySet<string>, log: Logger): Set<string> {
  const held = new Set<string>();
  if (!tickets) return held;
  for (const h of tickets.held()) {
    const validation = tickets.validationAt(h.station);
    if (!validation) continue;
    held.add(validation);
    const paper = paperAt(h.station);
    if (!paper || !seen.has(validation)) continue;
    const outcome = paper.some((t) => t.barcode === validation && t.whole) ? 'printed' : 'void';
    const by = handpays.needsWitness(h.amount) ? ['autoplay-attendant', 'autoplay-witness'] : ['autoplay-attendant'];
    const r = tickets.settleByHand(h.station, h.last4, outcome, by);
    if (!r.ok) log.warn({ station: h.station, reason: r.detail }, 'simulated attendant could not settle a held ticket');
  }
  return held;
}
