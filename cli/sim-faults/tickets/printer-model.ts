import type { PrinterCondition, PrinterFault } from '../../../hardware/printer/condition.js';
import { PrintJudge, resolveAttempt, type PrintAttempt } from '../../../hardware/printer/judge.js';
import { nextTemplate } from '../../../hardware/printer/template.js';
import type { PrintOutcome, PrintRequest, TicketPrinter } from '../../../hardware/printer/types.js';

// A ticket printer for the fault simulation, at the level of its status replies (not its bytes:
// the TCL driver and its parser meet a byte-level lying simulator in tests/security/
// hostile-printer.test.ts). Each job is told as the sequence of conditions the printer reports,
// true or lying, and judged by the driver's own judge (hardware/printer/judge.ts); a kill's
// question at restart is answered by the driver's own `resolveAttempt` from what the printer
// really holds. The truth — the paper that came out — outlives the host, as the device does.

/** How the next job goes. */
export type PrinterJob =
  /** Printed whole, its status honest. */
  | 'ok'
  /** A second whole ticket with the same number comes out, a second print cycle in the status (hardware/printer/lies.ts). */
  | 'print-twice'
  /** Jammed before the barcode, yet the status says the validation number done (beside the jam). */
  | 'jam-claims-printed'
  /** Jammed before the barcode, the status honest (the jam). */
  | 'jam'
  /**
   * Out of paper after the command: the printer never starts the job (and says so). Held for a
   * person since 6 December (the judge's `fault-before-start`: a fault after the command may follow
   * paper out), never voided by the printer's word alone.
   */
  | 'paper-out'
  /** The printer never takes the command, idle, no fault: not printed, the credit given back. Not among the campaign's draws. */
  | 'ignored'
  /** The host dies after the print command, before any verdict: the printer prints it all the same. */
  | 'host-dies';

export const PRINTER_JOBS: readonly PrinterJob[] = ['ok', 'print-twice', 'jam-claims-printed', 'jam', 'paper-out', 'host-dies'];

/** What physically came out of one printer, and what it remembers (it outlives the host). */
export interface PrinterTruth {
  readonly device: string;
  lastTemplate: string;
  /** The last job's validation number is done (printed). */
  validationDone: boolean;
  /** The last job jammed and the jam is still in the mechanism (cleared by an attendant). */
  jammed: boolean;
  /** Whole tickets that came out, in order (a number twice: printed twice). */
  readonly paper: string[];
  /** Torn tickets without a barcode (a jam). */
  readonly torn: string[];
  /** Paper out of the chute not yet taken by the player. */
  inChute: string[];
  /** Jobs sent, by number. */
  readonly jobs: Map<string, PrinterJob>;
}

export function printerTruth(device: string): PrinterTruth {
  return { device, lastTemplate: 'B', validationDone: true, jammed: false, paper: [], torn: [], inChute: [], jobs: new Map() };
}

function condition(t: { busy?: boolean; validationDone: boolean; lastTemplate: string; faults?: PrinterFault[]; chute?: boolean }): PrinterCondition {
  return {
    extended: true,
    busy: t.busy ?? false,
    paperLow: false,
    paperInChute: t.chute ?? false,
    chassisOpen: false,
    topOfForm: true,
    reset: false,
    barcodeAccessed: false,
    validationDone: t.validationDone,
    journalMode: false,
    faults: t.faults ?? [],
    lastTemplate: t.lastTemplate,
    firmware: 'SIM-TCL',
  };
}

/** A step of the judge's clock, in ms: the statuses come 100 ms apart, the settle time is 5 s. */
const POLL = 100;
const SETTLE = 5000;

export class SimPrinter implements TicketPrinter {
  readonly protocol = 'tcl' as const;

  constructor(
    private readonly truth: PrinterTruth,
    /** How the next job goes (the world's seeded draw). */
    private readonly nextJob: () => PrinterJob,
    /** The host dies now (its ledger takes nothing more): a kill after the print command. */
    private readonly die: () => void,
  ) {}

  on(): () => void {
    return () => undefined;
  }
  onFrame(): () => void {
    return () => undefined;
  }
  start(): void {}
  async close(): Promise<void> {}

  /** The model's printer always holds the layout (its faults are jams and lost links). */
  get ready(): boolean {
    return true;
  }

  get condition(): PrinterCondition {
    const t = this.truth;
    return condition({
      validationDone: t.validationDone,
      lastTemplate: t.lastTemplate,
      faults: t.jammed ? ['paper-jam'] : [],
      chute: t.inChute.length > 0,
    });
  }

  async print(request: PrintRequest): Promise<PrintOutcome> {
    const t = this.truth;
    const n = request.ticket.validationNumber;
    const before = this.condition;
    const attempt: PrintAttempt = { validationNumber: n, template: nextTemplate(t.lastTemplate) ?? 'A', before: t.lastTemplate };
    try {
      await request.onSend?.(attempt);
    } catch {
      // The host could not journal it (or died doing it): no command is written.
      return { outcome: 'not-printed', reason: 'not-journalled', evidence: noEvidence(t.lastTemplate), validationNumber: n, attempt };
    }
    const job = this.nextJob();
    t.jobs.set(n, job);
    const statuses = this.run(job, n, attempt);
    if (job === 'host-dies') this.die();
    const judge = new PrintJudge(attempt.template, before, 0, SETTLE);
    for (const [i, s] of statuses.entries()) {
      const v = judge.observe(s, (i + 1) * POLL);
      if (v) return { ...v, validationNumber: n, attempt };
    }
    return { ...judge.end('timeout'), validationNumber: n, attempt };
  }

  /** What the printer does with the job (its truth), and the statuses it reports meanwhile. */
  private run(job: PrinterJob, n: string, a: PrintAttempt): PrinterCondition[] {
    const t = this.truth;
    const busy = condition({ busy: true, validationDone: false, lastTemplate: a.before });
    const done = (lastTemplate: string) => condition({ validationDone: true, lastTemplate, chute: true });
    switch (job) {
      case 'ok':
      case 'host-dies':
        this.printed(n, a, 1);
        return [busy, done(a.template)];
      case 'print-twice':
        this.printed(n, a, 2);
        return [busy, done(a.template), condition({ busy: true, validationDone: false, lastTemplate: a.template }), done(a.template)];
      case 'jam':
      case 'jam-claims-printed':
        t.torn.push(n);
        t.lastTemplate = a.template;
        t.validationDone = false;
        t.jammed = true;
        return [busy, condition({ validationDone: job === 'jam-claims-printed', lastTemplate: a.template, faults: ['paper-jam'] })];
      case 'paper-out':
        return Array.from({ length: SETTLE / POLL + 1 }, () => condition({ validationDone: t.validationDone, lastTemplate: a.before, faults: ['paper-out'] }));
      case 'ignored':
        return Array.from({ length: SETTLE / POLL + 1 }, () => condition({ validationDone: t.validationDone, lastTemplate: a.before }));
    }
  }

  private printed(n: string, a: PrintAttempt, copies: number): void {
    const t = this.truth;
    for (let i = 0; i < copies; i++) {
      t.paper.push(n);
      t.inChute.push(n);
    }
    t.lastTemplate = a.template;
    t.validationDone = true;
  }

  /** A restart's question about a ticket journalled and never ended: the driver's own answer from the printer's memory. */
  async resolve(a: PrintAttempt): Promise<PrintOutcome> {
    const now = this.condition;
    return { ...resolveAttempt(a, now, now), validationNumber: a.validationNumber, attempt: a };
  }
}

function noEvidence(lastTemplate: string): PrintOutcome['evidence'] {
  return { started: false, validationPrinted: false, lastTemplate, faults: [], repeated: false };
}
