// What the printer's end-to-end tests and the hostile suite share: the real TCL driver over a fake
// USB bridge in front of the byte simulator, every event recorded.
import assert from 'node:assert/strict';
import { openPrinter, type OpenedPrinter } from '../open.js';
import { EventRecorder } from '../sim/recorder.js';
import { sampleTicket } from './test-ticket.js';
import type { TicketData } from './ticket.js';
import type { PrinterEvent, PrinterOptions } from './types.js';

/** Short timers: the simulator answers at once. */
export const FAST_PRINTER: PrinterOptions = {
  pollIntervalMs: 2,
  printPollIntervalMs: 2,
  replyTimeoutMs: 60,
  settleMs: 120,
  printTimeoutMs: 3000,
  reconnectBaseMs: 5,
  reconnectMaxMs: 40,
};

export interface PrinterRig {
  p: OpenedPrinter;
  sim: NonNullable<OpenedPrinter['simulator']>;
  rec: EventRecorder<PrinterEvent>;
}

export function printerRig(extra: PrinterOptions = {}): PrinterRig {
  const rec = new EventRecorder<PrinterEvent>();
  const p = openPrinter('sim', { ...FAST_PRINTER, usbReadTimeoutMs: 30, ...extra, sim: { keepReceived: true } }); // the tests read what the driver sent
  p.on(rec.listener);
  const sim = p.simulator;
  assert.ok(sim);
  return { p, sim, rec };
}

/** Connected and the layout defined (a print before that is refused as not sent). */
export async function layoutDefined(r: { p: { readonly ready: boolean }; rec: EventRecorder<PrinterEvent> }): Promise<void> {
  await r.rec.until(() => r.p.ready, 3000, 'layout defined');
}

/** Ticket n: its validation number is n on 18 digits. */
export function ticketNo(n: number): TicketData {
  return sampleTicket({ validationNumber: String(n).padStart(18, '0'), ticketNumber: n });
}
