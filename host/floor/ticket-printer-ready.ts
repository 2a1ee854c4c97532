import { blocking } from '../../hardware/printer/condition.js';
import type { TicketPrinter } from '../../hardware/printer/types.js';
import type { HandpayWhy } from '../../protocol/index.js';

/** Why the printer cannot take a ticket now; out of paper said as such (the player is told why an attendant comes). */
export function printerWhyNot(printer: TicketPrinter): Extract<HandpayWhy, 'paper-out' | 'printer-not-ready'> | null {
  const c = printer.condition;
  if (c?.faults.includes('paper-out')) return 'paper-out';
  // A printer that refused the ticket's layout (a font it lacks, another firmware) looks idle, and would take no ticket.
  if (!printer.ready || !c?.extended || c.busy || c.chassisOpen || c.paperInChute || blocking(c).length > 0) return 'printer-not-ready';
  return null;
}
