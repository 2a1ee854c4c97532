// The ticket printer as the host sees it: one print at a time, each answered printed / not printed /
// unknown from the printer's own status, and an attempt the host journals before the bytes go so
// that a ticket in flight at a power cut can be asked about afterwards.
import type { Clock } from '../clock.js';
import type { WireFrame } from '../wire-frame.js';
import type { PrinterCondition, PrinterFault } from './condition.js';
import type { PrintAttempt, Verdict } from './judge.js';
import type { LayoutOptions } from './template.js';
import type { TicketData } from './ticket.js';

export type PrintOutcome = Verdict & { validationNumber: string; attempt?: PrintAttempt };

/**
 * What the printer's replies broke:
 * - `unsolicited-print`: a print cycle (busy, or the validation number done again) with no job of ours in it;
 * - `repeated-print`: more than one print cycle for one print command (the ticket printed twice);
 * - `garbage`: bytes that are no status reply.
 */
export type PrinterViolation = 'unsolicited-print' | 'repeated-print' | 'garbage';

/**
 * What a printer's failure was, by code (the host words it in the reader's language; `reason` is
 * the same in English, for the log):
 * - `layout-refused`: the printer refused the ticket layout, with the faults it set;
 * - `reset-held-jobs`: jobs sent and never confirmed printed left no template free: the printer was reset to lose them;
 * - `reset-unreported`: the reset sent at start was never reported, twice: no ticket until the printer reports one.
 */
export type PrinterFailure = { code: 'layout-refused'; faults: readonly PrinterFault[] } | { code: 'reset-held-jobs' } | { code: 'reset-unreported' };

export type PrinterEvent =
  | { type: 'connected'; firmware: string }
  | { type: 'disconnected'; reason: string }
  | { type: 'reconnected' }
  /** The condition changed (paper low, out, jam, head up, chassis open, busy, in chute…). */
  | { type: 'condition'; condition: PrinterCondition }
  | { type: 'printed'; outcome: PrintOutcome }
  | { type: 'protocolViolation'; rule: PrinterViolation; report: string }
  | { type: 'failure'; reason: string; failure: PrinterFailure };

export interface PrinterOptions extends LayoutOptions {
  /** Status poll while idle (Aristocrat polls a TCL printer every 500 ms, 100 ms while printing). */
  pollIntervalMs?: number;
  printPollIntervalMs?: number;
  replyTimeoutMs?: number;
  /** Unanswered status requests in a row before the link is taken as lost. */
  retries?: number;
  /** An idle printer that has not started a job by then never took it: `not-printed`. */
  settleMs?: number;
  /** A print with no verdict by then is `unknown` (`timeout`). */
  printTimeoutMs?: number;
  /** Refuse to print while a ticket waits in the chute (default true: the next one would push it out). */
  refuseWhenChuteFull?: boolean;
  reconnectBaseMs?: number;
  reconnectMaxMs?: number;
  clock?: Clock;
}

export interface PrintRequest {
  ticket: TicketData;
  /**
   * Awaited with the attempt (the template the ticket goes on, the printer's last template) before
   * the command is written: the host journals it there. A throw sends nothing (`not-journalled`).
   */
  onSend?: (attempt: PrintAttempt) => void | Promise<void>;
}

export interface TicketPrinter {
  readonly protocol: 'tcl';
  on(listener: (e: PrinterEvent) => void): () => void;
  onFrame(listener: (f: WireFrame) => void): () => void;
  start(): void;
  /** The last condition read, or null before the first reply. */
  readonly condition: PrinterCondition | null;
  /** Connected with the ticket layout defined (the printer took it): otherwise a print is never sent. */
  readonly ready: boolean;
  /** Prints one ticket; always resolves (never throws, never hangs past `printTimeoutMs`). */
  print(request: PrintRequest): Promise<PrintOutcome>;
  /**
   * A journalled attempt whose outcome the host never learnt (a restart, a link loss): answered
   * from the printer's status once it is connected and idle, within `printTimeoutMs`.
   */
  resolve(attempt: PrintAttempt): Promise<PrintOutcome>;
  close(): Promise<void>;
}
