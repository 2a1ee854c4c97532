import type { Logger } from 'pino';
import type { Handpays } from '../floor/handpays.js';
import type { TicketOut } from '../floor/ticket-out.js';
import type { Timers } from '../table/timers.js';

/** The held tickets the attendant sees and settles (host/floor/ticket-out.ts), and the whole number of the one at a station. */
export type AttendantTickets = Pick<TicketOut, 'held' | 'settleByHand'> & { validationAt(station: number): string | null };

export interface SimAttendantDeps {
  handpays: Pick<Handpays, 'pending' | 'confirm'>;
  tickets?: AttendantTickets;
  /** What came out of the station's simulated printer; null where the printer is not simulated (a real person settles it). */
  paperAt: (station: number) => readonly { barcode: string; whole: boolean }[] | null;
  /** The table's two-person amount (`handpayTwoPersonAbove`): above it a second person is named. */
  twoPersonAbove: () => number;
}

/**
 * Autoplay's floor attendant. A simulated player's cash-out locks its station until a handpay is
 * confirmed, and a ticket the printer cannot judge (a kill while it printed: `printer-restarted`)
 * locks it until a person settles it; in autoplay (and the soak) an attendant does both after a
 * short while, with a second person where the amount needs one. A held ticket is settled as the
 * Tickets page asks a person to (docs/tito.md, "A ticket held after a jam"): printed if the
 * simulated printer's paper holds it whole, else void, the credit back. Journalled like any
 * handpay or settlement, under names that say they were simulated; never started outside `--autoplay`.
 */
export function startSimAttendant(deps: SimAttendantDeps, timers: Timers, log: Logger, everyMs = 500): () => void {
  let handle: unknown = null;
  let stopped = false;
  const round = () => {
    payHandpays(deps, log);
    settleHeld(deps, log);
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

function settleHeld({ tickets, paperAt, twoPersonAbove }: SimAttendantDeps, log: Logger): void {
  for (const h of tickets?.held() ?? []) {
    const paper = paperAt(h.station);
    const validation = tickets?.validationAt(h.station);
    if (!paper || !validation || !tickets) continue;
    const outcome = paper.some((t) => t.barcode === validation && t.whole) ? 'printed' : 'void';
    const by = h.amount > twoPersonAbove() ? ['autoplay-attendant', 'autoplay-witness'] : ['autoplay-attendant'];
    const r = tickets.settleByHand(h.station, h.last4, outcome, by);
    if (!r.ok) log.warn({ station: h.station, reason: r.detail }, 'simulated attendant could not settle a held ticket');
  }
}
