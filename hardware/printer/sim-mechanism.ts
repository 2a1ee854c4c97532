// The simulated printer's state and how it is reported: the five status flag bytes, and the
// splitting of the host's byte stream into `^…|^` commands.
import { FLAG, FLAG_BASE } from './tcl.js';
import type { PrinterLie } from './lies.js';

/** Steps of a job; a power cut or a jam armed on a step happens right after the printer reported it. */
export type PrinterStep = 'taken' | 'printing' | 'barcode' | 'validated' | 'cutting';

export interface Job {
  template: string;
  fields: readonly string[];
  barcode: string;
  step: PrinterStep;
  lie: PrinterLie | null;
  /** Print cycles left for this command (2 under the print-twice lie). */
  cycles: number;
}

export interface Mechanism {
  /** Region id → what it holds; template id → its region ids, in field order. */
  regions: Map<string, 'text' | 'barcode'>;
  templates: Map<string, readonly string[]>;
  job: Job | null;
  /** A job's second print, to start at the next step (the print-twice lie). */
  again: Job | null;
  /** A job in the buffer that has not started (the held lies): the next print command starts it. */
  held: Job | null;
  /** Jobs behind the one printing, started in order as it ends. */
  queued: Job[];
  busy: boolean;
  valdone: boolean;
  barcodeAccessed: boolean;
  lastTemplate: string;
  /** A template the status will name as printed without any job (the stale-validation lie). */
  fakeTemplate: string | null;
  reset: boolean;
  commandError: boolean;
  dataError: boolean;
  paperLow: boolean;
  paperOut: boolean;
  platenUp: boolean;
  chassisOpen: boolean;
  jam: boolean;
  chute: number;
  polls: number;
}

const bit = (on: boolean, b: number): number => (on ? b : 0);

/** The five flag bytes of the mechanism's true state. */
export function statusFlags(m: Mechanism): number[] {
  const system = m.paperOut || m.platenUp || m.jam || m.commandError || m.dataError;
  return [
    FLAG_BASE | bit(m.busy, FLAG.f1.BUSY) | bit(system, FLAG.f1.SYSTEM_ERROR) | bit(m.platenUp, FLAG.f1.PLATEN_UP) | bit(m.paperOut, FLAG.f1.PAPER_OUT),
    FLAG_BASE | bit(m.dataError, FLAG.f2.PR_DATA_ERROR),
    FLAG_BASE | bit(m.chute > 0, FLAG.f3.PAPER_IN_CHUTE) | bit(m.commandError, FLAG.f3.COMMAND_ERROR),
    FLAG_BASE | bit(m.paperLow, FLAG.f4.PAPER_LOW) | bit(m.jam, FLAG.f4.PAPER_JAM),
    FLAG_BASE |
      bit(m.reset, FLAG.f5.RESET) |
      bit(m.barcodeAccessed, FLAG.f5.BARCODE_ACCESSED) |
      bit(m.chassisOpen, FLAG.f5.CHASSIS_OPEN) |
      bit(!m.busy && !m.jam && !m.paperOut, FLAG.f5.TOP_OF_FORM) |
      bit(m.valdone, FLAG.f5.VALIDATION_DONE),
  ];
}

const CARET = 0x5e;
const BAR = 0x7c;
/** A command longer than this is dropped (the printer's input buffer). */
export const MAX_COMMAND = 4096;

/**
 * The host's bytes as commands: from a `^` to the first `|^` after it (fields never hold a raw `^`).
 * Bytes before a `^` are dropped; so is a command that outgrows MAX_COMMAND. Text is UTF-8.
 */
export class CommandSplitter {
  private buf: number[] = [];

  push(bytes: Uint8Array): string[] {
    const out: string[] = [];
    for (const b of bytes) {
      if (this.buf.length === 0 && b !== CARET) continue;
      this.buf.push(b);
      const n = this.buf.length;
      if (n >= 3 && b === CARET && this.buf[n - 2] === BAR) {
        out.push(new TextDecoder().decode(Uint8Array.from(this.buf)));
        this.buf = [];
      } else if (n > MAX_COMMAND) this.buf = [];
    }
    return out;
  }

  reset(): void {
    this.buf = [];
  }
}
