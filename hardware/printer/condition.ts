// A status reply read as the printer's condition: what the host shows (paper low, head open…) and
// what the print judge reads (busy, validation number done, the last template). Bits: tcl.ts FLAG,
// their meaning: docs/protocols/tcl.md ("Status flags").
import { FLAG, has, type TclStatus } from './tcl.js';

/** A condition that stops the printer printing (or a ticket coming out whole). */
export type PrinterFault =
  | 'paper-out'
  | 'platen-up'
  | 'paper-jam'
  | 'head-error'
  | 'voltage-error'
  | 'temperature-error'
  | 'cutter-error'
  | 'system-error'
  | 'memory-error'
  | 'supply-index-missing'
  | 'offline'
  | 'firmware-error'
  | 'command-error'
  | 'data-error';

export interface PrinterCondition {
  /** The reply had all five flag bytes: without flags 4 and 5 nothing about the validation number is known. */
  extended: boolean;
  busy: boolean;
  paperLow: boolean;
  paperInChute: boolean;
  chassisOpen: boolean;
  topOfForm: boolean;
  /** The printer was reset or powered up since its flags were last cleared. */
  reset: boolean;
  /** The print engine took the barcode data of the current job. */
  barcodeAccessed: boolean;
  /** The validation number of the current (or last) job is printed. */
  validationDone: boolean;
  journalMode: boolean;
  faults: readonly PrinterFault[];
  lastTemplate: string;
  firmware: string;
}

const FAULT_BITS: readonly (readonly [1 | 2 | 3 | 4, number, PrinterFault])[] = [
  [1, FLAG.f1.PAPER_OUT, 'paper-out'],
  [1, FLAG.f1.PLATEN_UP, 'platen-up'],
  [4, FLAG.f4.PAPER_JAM, 'paper-jam'],
  [1, FLAG.f1.HEAD_ERROR, 'head-error'],
  [1, FLAG.f1.VOLTAGE_ERROR, 'voltage-error'],
  [2, FLAG.f2.TEMPERATURE_ERROR, 'temperature-error'],
  [4, FLAG.f4.CUTTER_ERROR, 'cutter-error'],
  [1, FLAG.f1.SYSTEM_ERROR, 'system-error'],
  [2, FLAG.f2.JOB_MEMORY_OVERFLOW | FLAG.f2.BUFFER_OVERFLOW | FLAG.f2.LIBRARY_LOAD_ERROR | FLAG.f2.LIBRARY_REF_ERROR, 'memory-error'],
  [3, FLAG.f3.MISSING_SUPPLY_INDEX, 'supply-index-missing'],
  [3, FLAG.f3.OFFLINE, 'offline'],
  [3, FLAG.f3.FLASH_PROGRAM_ERROR | FLAG.f3.LIBRARIES_CORRUPT, 'firmware-error'],
  [3, FLAG.f3.COMMAND_ERROR, 'command-error'],
  [2, FLAG.f2.PR_DATA_ERROR, 'data-error'],
];

export function conditionOf(s: TclStatus): PrinterCondition {
  const faults = FAULT_BITS.filter(([byte, bits]) => has(s, byte, bits)).map(([, , f]) => f);
  return {
    extended: s.flags.length >= 5,
    busy: has(s, 1, FLAG.f1.BUSY),
    paperLow: has(s, 4, FLAG.f4.PAPER_LOW),
    paperInChute: has(s, 3, FLAG.f3.PAPER_IN_CHUTE),
    chassisOpen: has(s, 5, FLAG.f5.CHASSIS_OPEN),
    topOfForm: has(s, 5, FLAG.f5.TOP_OF_FORM),
    reset: has(s, 5, FLAG.f5.RESET),
    barcodeAccessed: has(s, 5, FLAG.f5.BARCODE_ACCESSED),
    validationDone: has(s, 5, FLAG.f5.VALIDATION_DONE),
    journalMode: has(s, 4, FLAG.f4.JOURNAL_MODE),
    faults,
    lastTemplate: s.lastTemplate,
    firmware: s.version,
  };
}

const SOFT: readonly PrinterFault[] = ['command-error', 'data-error'];

/**
 * Faults that stop a ticket: all but a bad command or bad data (errors `^C|^` clears), and the
 * general system-error bit when those are all it comes with.
 */
export function blocking(c: PrinterCondition): PrinterFault[] {
  const hard = c.faults.filter((f) => !SOFT.includes(f) && f !== 'system-error');
  return hard.length > 0 || !c.faults.some((f) => SOFT.includes(f)) ? c.faults.filter((f) => !SOFT.includes(f)) : [];
}

/** The condition as a short stable key (an event is emitted when it changes). */
export function conditionKey(c: PrinterCondition): string {
  const on = (Object.keys(c) as (keyof PrinterCondition)[]).filter((k) => c[k] === true);
  return `${on.join(',')}|${c.faults.join(',')}|${c.lastTemplate}`;
}
