import type { PrinterCondition } from './condition.js';

/**
 * A printer's decoded status for a test: idle, paper in, no fault, with `over` on top (the tests
 * of the judge, the host's printers and service mode's Tickets page share it).
 */
export function printerCondition(over: Partial<PrinterCondition> = {}): PrinterCondition {
  return {
    extended: true,
    busy: false,
    paperLow: false,
    paperInChute: false,
    chassisOpen: false,
    topOfForm: true,
    reset: false,
    barcodeAccessed: false,
    validationDone: false,
    journalMode: false,
    faults: [],
    lastTemplate: 'A',
    firmware: 'TEST',
    ...over,
  };
}
