// Whether a ticket was printed, from the printer's own status replies and nothing else: a pure
// judge fed every status seen after the print command was written. `printed` needs the whole cycle
// the protocol describes for this job (the job taken, its validation number done after the flag was
// seen clear, the job ended with the status naming this job's template, no fault on the way);
// `not-printed` needs the printer never to have started it, and no fault after the command;
// everything else is `unknown`, for the host to settle with a person (docs/protocols/tcl.md,
// "Printed, not printed, unknown").
import { blocking, type PrinterCondition, type PrinterFault } from './condition.js';
import type { TemplateId } from './template.js';

export type NotPrintedReason =
  /** The driver had no link to the printer, or never wrote the command. */
  | 'not-sent'
  /** The printer was not ready (busy, a fault, a ticket in the chute, no extended status): nothing was sent. */
  | 'not-ready'
  /** The host's journal refused the attempt (onSend threw): nothing was sent. */
  | 'not-journalled'
  /** A print was already in progress. */
  | 'driver-busy'
  /** The ticket failed its schema (an 18-digit validation number, printable words…): nothing was sent. */
  | 'invalid-ticket'
  /**
   * The printer reported a fault and never started the job: no longer a verdict (since 6 December
   * such a job is `unknown`, `fault-before-start`); kept, as journals before then carry it.
   */
  | 'printer-fault'
  /** The printer stayed idle, no fault, and never started the job (it did not take the command). */
  | 'ignored';

export type UnknownReason =
  | 'link-lost'
  | 'printer-restarted'
  | 'fault-while-printing'
  /** A fault after the command and no start seen: a jam reported before the start status may follow a barcode printed whole. */
  | 'fault-before-start'
  | 'aborted'
  | 'no-validation-number'
  | 'inconsistent'
  | 'short-status'
  | 'timeout';

export interface PrintEvidence {
  /** The printer took the job (busy, or its validation flag cleared). */
  started: boolean;
  /** The validation-number-done flag rose during the job. */
  validationPrinted: boolean;
  /** The last template the printer named. */
  lastTemplate: string | null;
  /** Faults seen while the job was in the printer. */
  faults: PrinterFault[];
  /** More than one print cycle (busy or validation-done rising twice) for one command. */
  repeated: boolean;
}

export type Verdict =
  | { outcome: 'printed'; evidence: PrintEvidence }
  | { outcome: 'not-printed'; reason: NotPrintedReason; evidence: PrintEvidence }
  | { outcome: 'unknown'; reason: UnknownReason; evidence: PrintEvidence };

export class PrintJudge {
  private started = false;
  private validationPrinted = false;
  private valdoneLowSeen: boolean;
  private busy: boolean;
  /** Busy was seen set since the command (the job reached the print engine). */
  private busySeen = false;
  private busyRises = 0;
  private valdoneRises = 0;
  private faultWhileStarted = false;
  private readonly faults = new Set<PrinterFault>();
  private lastTemplate: string | null = null;

  constructor(
    readonly template: TemplateId,
    readonly before: PrinterCondition,
    private readonly sentAt: number,
    /** How long an idle printer that never started the job is watched before it is `not-printed`. */
    private readonly settleMs: number,
  ) {
    this.valdoneLowSeen = !before.validationDone;
    this.busy = before.busy;
  }

  get evidence(): PrintEvidence {
    return {
      started: this.started,
      validationPrinted: this.validationPrinted,
      lastTemplate: this.lastTemplate,
      faults: [...this.faults],
      repeated: this.busyRises > 1 || this.valdoneRises > 1,
    };
  }

  /** One status after the command was written; a verdict once one is reached. */
  observe(c: PrinterCondition, now: number): Verdict | null {
    this.lastTemplate = c.lastTemplate;
    if (!c.extended) return this.unknown('short-status');
    if (c.reset) return this.unknown('printer-restarted');
    if (c.busy && !this.busy) this.busyRises++;
    if (c.busy) this.busySeen = true;
    this.busy = c.busy;
    if (c.busy || (this.before.validationDone && !c.validationDone) || (c.barcodeAccessed && !this.before.barcodeAccessed)) this.started = true;
    if (!c.validationDone) this.valdoneLowSeen = true;
    else if (this.valdoneLowSeen && this.started) {
      this.valdoneRises++;
      this.validationPrinted = true;
      this.valdoneLowSeen = false;
    }
    const hard = blocking(c);
    for (const f of hard) this.faults.add(f);
    if (this.started && hard.length > 0) this.faultWhileStarted = true;
    if (!this.started) {
      if (c.lastTemplate === this.template && this.before.lastTemplate !== this.template) return this.unknown('inconsistent');
      // A fault seen since the command (the driver sends none to a printer in one), no start seen: the
      // poll may have missed the start, and the paper may carry the barcode whole (a review of 6
      // December: it was voided, the credit back, while the player could hold the paper). Held for a
      // person, whom the fault needs anyway; not printed only with no fault on the way.
      if (now - this.sentAt >= this.settleMs && !c.busy) return this.faults.size > 0 ? this.unknown('fault-before-start') : this.notPrinted('ignored');
      return null;
    }
    if (c.busy) return null;
    // A flag cleared with no busy and no validation number yet: the printer took the command and
    // has not started printing (a printer may clear first, then start); wait, within the deadline.
    if (!this.busySeen && !this.validationPrinted) return null;
    // The job has left the print engine: the status must now name it and its validation number.
    if (this.faultWhileStarted) return this.unknown('fault-while-printing');
    if (c.lastTemplate !== this.template) return this.unknown('aborted');
    if (!this.validationPrinted) return this.unknown('no-validation-number');
    return { outcome: 'printed', evidence: this.evidence };
  }

  /** The link went, or the print's deadline passed, before a verdict. */
  end(why: 'link-lost' | 'timeout'): Verdict {
    return this.unknown(why);
  }

  private unknown(reason: UnknownReason): Verdict {
    return { outcome: 'unknown', reason, evidence: this.evidence };
  }

  private notPrinted(reason: NotPrintedReason): Verdict {
    return { outcome: 'not-printed', reason, evidence: this.evidence };
  }
}

/** What the host journalled before the command went: enough to ask the printer about it later. */
export interface PrintAttempt {
  validationNumber: string;
  /** The template the ticket was printed on. */
  template: TemplateId;
  /** The last template the printer named just before (never the same as `template`). */
  before: string;
}

/**
 * A ticket sent before a restart of the host (or a link loss), judged from the printer's status
 * now: `first` is the session's first status (read before the driver cleared any flag), `now` the
 * printer idle. Printed when the printer names this attempt's template as its last, with its
 * validation number done; not printed when it still names the template before and stands in no
 * fault; unknown otherwise, or when the printer itself restarted (its memory of the job is gone).
 * A fault in either status (the driver sends no command to a printer in one, so it came after) may
 * have stopped the job part-way, its barcode printed whole on paper the player holds: a jam after
 * the barcode leaves the template before named, and was read as not printed, voided (a review of
 * 6 December); it is `unknown`, the ticket held for a person who looks at the printer. `cycled`:
 * a print cycle (busy, or the validation flag low) was seen since `first`; a template that came to
 * be named after `first` without one is a job the printer never ran (`inconsistent`).
 */
export function resolveAttempt(a: PrintAttempt, first: PrinterCondition, now: PrinterCondition, cycled = true): Verdict {
  const evidence: PrintEvidence = {
    started: now.lastTemplate === a.template,
    validationPrinted: now.lastTemplate === a.template && now.validationDone,
    lastTemplate: now.lastTemplate,
    faults: [...new Set([...blocking(first), ...blocking(now)])],
    repeated: false,
  };
  if (!first.extended || !now.extended) return { outcome: 'unknown', reason: 'short-status', evidence };
  if (first.reset || now.reset) return { outcome: 'unknown', reason: 'printer-restarted', evidence };
  if (now.busy) return { outcome: 'unknown', reason: 'timeout', evidence };
  if (a.before === a.template) return { outcome: 'unknown', reason: 'inconsistent', evidence };
  if (now.lastTemplate === a.template) {
    // Named during this session with no print cycle seen in it (busy, or the validation flag low): a printer that names a job it never ran.
    if (first.lastTemplate !== a.template && !cycled) return { outcome: 'unknown', reason: 'inconsistent', evidence };
    if (now.validationDone && evidence.faults.length === 0) return { outcome: 'printed', evidence };
    return { outcome: 'unknown', reason: now.validationDone ? 'fault-while-printing' : 'no-validation-number', evidence };
  }
  if (now.lastTemplate === a.before)
    return evidence.faults.length > 0
      ? { outcome: 'unknown', reason: 'fault-while-printing', evidence }
      : { outcome: 'not-printed', reason: 'ignored', evidence };
  return { outcome: 'unknown', reason: 'inconsistent', evidence };
}
