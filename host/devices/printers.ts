import type { Logger } from 'pino';
import { Emitter } from '../../hardware/clock.js';
import { openPrinter, type OpenedPrinter } from '../../hardware/open.js';
import { blocking, type PrinterCondition, type PrinterFault } from '../../hardware/printer/condition.js';
import type { PrinterEvent, PrinterFailure, TicketPrinter } from '../../hardware/printer/types.js';
import type { TableConfig } from '../config/table-config.js';
import { tiltDetailSaid, type Said } from '../../locales/said.js';
import type { SampledLines } from './sampled-lines.js';

/** A station's printer as Printers holds it: the ticket printer, and the simulator behind a `sim` spec. */
export type PrinterDevice = TicketPrinter & Pick<OpenedPrinter, 'simulator'>;

/** What service mode shows of a station's printer. */
export interface PrinterStatus {
  station: number;
  device: string;
  spec: string;
  state: 'connecting' | 'ready' | 'disconnected' | 'fault';
  condition: PrinterCondition | null;
  firmware?: string;
  /** When its link or its status last changed (ms since the epoch); null before the first. */
  changedAt: number | null;
}

export interface PrinterDeps {
  config: TableConfig;
  log: Logger;
  /**
   * For tests: the device factory (default: the TCL driver, over the simulator for `sim`). A
   * printer is what `at` hands the ticket-out path, and its simulator where there is one: not the
   * driver class, whose private members no fake can have.
   */
  open?: (spec: string) => PrinterDevice;
  /** Told whenever a printer's state changes (its station's screen and service mode look again). */
  onChange?: (station: number) => void;
  now?: () => number;
  /** How long a printer must say paper (no jam, no other mechanism fault) before `printer-paper-out` (`printer-jam`, `printer-fault`) clears (default 10 s). */
  paperBackMs?: number;
  /**
   * How long a printer may stay unable to take a ticket with no fault bit (its reset flag set, a
   * ticket in the chute, the chassis open, busy, only the short status) before it is
   * `printer-fault` (default 60 s).
   */
  stuckMs?: number;
  /** Violations and failures, sampled per printer and kind (the host's SampledLog); without it, each is logged. */
  sampledLog?: SampledLines;
  /**
   * The faults a printer's link and paper are journalled as (`printer-offline`, `printer-paper-out`):
   * staff see them, and the casino's system hears them as SAS exceptions 60 and 61 (docs/sas.md).
   */
  faults?: {
    raise(kind: PrinterFaultKind, where: { station: number; detail?: string; say?: Said }): void;
    conditionGone(kind: PrinterFaultKind, station: number): void;
  };
}

/** Paper back this long, with no word of paper out, before the fault clears (`clearPaperOutLater`). */
const PAPER_BACK_MS = 10_000;

/** A printer not ready for a ticket this long with no fault bit is `printer-fault` (`stuckMs`). */
const STUCK_MS = 60_000;

/** What keeps a printer from a ticket with no fault bit, and the words each is said in (the first one held is named). */
type Stuck = 'printerStuckShort' | 'printerStuckReset' | 'printerStuckChute' | 'printerStuckChassis' | 'printerStuckBusy';
function stuckBy(c: PrinterCondition): Stuck | null {
  if (!c.extended) return 'printerStuckShort';
  if (c.reset) return 'printerStuckReset';
  if (c.paperInChute) return 'printerStuckChute';
  if (c.chassisOpen) return 'printerStuckChassis';
  // A print takes seconds (the driver's deadline is 30 s); busy from the session's first status on is no print cycle seen, nor unsolicited.
  return c.busy ? 'printerStuckBusy' : null;
}

/** A station's printer held not ready: what, whether raised, its raise to come and its end to come. */
interface StuckWatch {
  by: Stuck;
  raised: boolean;
  cancelRaise: () => void;
  cancelEnd: (() => void) | null;
}

/** The printer's faults the table journals. */
export type PrinterFaultKind = 'printer-offline' | 'printer-paper-out' | 'printer-misbehaved' | 'printer-jam' | 'printer-fault';

/** The faults that clear by themselves once the printer has stopped reporting them for `paperBackMs`. */
const STANDING = ['printer-paper-out', 'printer-jam', 'printer-fault'] as const satisfies readonly PrinterFaultKind[];
type StandingKind = (typeof STANDING)[number];

const OWN_FAULT: readonly PrinterFault[] = ['paper-out', 'paper-jam'];
/** Bits a printer sets beside a fault of its own (the simulator's system error with paper out, a jam, the head open). */
const SUMMARY: readonly PrinterFault[] = ['system-error', 'offline'];

/**
 * What `printer-fault` names: the faults that stop a ticket, but paper out and a jam (faults of
 * their own) and a command or data error (the driver's `^C|^` clears them: blocking() leaves them
 * out); a summary bit only when nothing else explains it.
 */
function mechanismFaults(c: PrinterCondition): PrinterFault[] {
  const stops = blocking(c);
  const named = stops.filter((x) => !OWN_FAULT.includes(x) && !SUMMARY.includes(x));
  if (named.length > 0 || stops.some((x) => OWN_FAULT.includes(x))) return named;
  return stops.filter((x) => SUMMARY.includes(x));
}

/** A printer's failure in the reader's words (a `tiltDetail.*` key). */
function failureSaid(failure: PrinterFailure): Said {
  if (failure.code === 'layout-refused') return tiltDetailSaid('printerLayoutRefused', { printerFaults: failure.faults.join(' ') });
  return tiltDetailSaid(failure.code === 'reset-held-jobs' ? 'printerResetHeldJobs' : 'printerResetUnreported');
}

/** The faults that clear only by the printer's word: its link back, or its statuses (`printer-misbehaved` waits for a person). */
const AUTO_PRINTER_FAULTS: readonly PrinterFaultKind[] = ['printer-offline', ...STANDING];
const isAutoPrinterFault = (kind: string): kind is PrinterFaultKind => AUTO_PRINTER_FAULTS.some((k) => k === kind);

/**
 * A station the configuration no longer gives a printer: its printer's faults restored from the
 * journal clear only by themselves, from a printer that will never answer again, so the start ends
 * them, with why (a review: they stayed for good, refused to everyone, and the casino's system never
 * heard them end). `printer-misbehaved` is latched: a person clears it after looking.
 */
export function clearRemovedPrinterFaults(
  faults: { list(): readonly { kind: string; station?: number }[]; conditionGone(kind: PrinterFaultKind, station: number, say?: Said): void },
  config: TableConfig,
): void {
  const printed = new Set(config.stations.filter((s) => s.printer).map((s) => s.station));
  for (const t of faults.list())
    if (t.station !== undefined && !printed.has(t.station) && isAutoPrinterFault(t.kind))
      faults.conditionGone(t.kind, t.station, tiltDetailSaid('printerRemoved'));
}

/** One ticket printer per station that has one in the configuration (`stations[].printer`), through the hardware layer. */
export class Printers {
  private readonly devices = new Map<number, PrinterDevice>();
  private readonly status = new Map<number, PrinterStatus>();
  private readonly changes = new Emitter<number>();
  /** A printer's link up (connected, or back after a loss): its station's ticket in print is asked about again. */
  private readonly links = new Emitter<number>();
  /** Per station and standing kind (`printer-paper-out`, `printer-jam`, `printer-fault`): what cancels a clear still to come. */
  private readonly goneSince = new Map<string, () => void>();
  /**
   * Per station, a printer held not ready for a ticket with no fault bit (a review of 6 December: a
   * reset flag at every status, a chute never emptied, made every cash-out a handpay, no fault raised).
   */
  private readonly stuck = new Map<number, StuckWatch>();
  /** Each station's last condition (the stuck watch's raise reads it). */
  private readonly lastCondition = new Map<number, PrinterCondition>();

  /** Violations and failures: the first of a kind at once, then one a second per printer and kind, with the count. */
  private readonly sampledLog: SampledLines;

  constructor(private readonly deps: PrinterDeps) {
    this.sampledLog = deps.sampledLog ?? { warn: (_kind, fields, msg) => deps.log.warn(fields, msg), close: () => undefined };
  }

  /** A printer's link came up (before its layout is defined: a question asked now is answered first). */
  onLinkUp(listener: (station: number) => void): () => void {
    return this.links.on(listener);
  }

  /** A printer's link or status changed (service mode's Tickets page looks again). */
  onChange(listener: (station: number) => void): () => void {
    return this.changes.on(listener);
  }

  start(): void {
    const open = this.deps.open ?? openPrinter;
    for (const s of this.deps.config.stations) {
      if (!s.printer) continue;
      const device = `PR-${s.station}`;
      this.status.set(s.station, { station: s.station, device, spec: s.printer, state: 'connecting', condition: null, changedAt: null });
      const p = open(s.printer);
      p.on((e) => {
        const st = this.status.get(s.station);
        if (!st) return;
        if (e.type === 'connected') Object.assign(st, { state: 'ready', firmware: e.firmware });
        else if (e.type === 'disconnected') st.state = 'disconnected';
        else if (e.type === 'reconnected') st.state = 'ready';
        else if (e.type === 'condition') Object.assign(st, { condition: e.condition, state: e.condition.faults.length > 0 ? 'fault' : 'ready' });
        else if (e.type === 'protocolViolation' || e.type === 'failure')
          // Sampled per printer and kind: a printer telling one lie after another wrote a warn line each.
          this.sampledLog.warn(`${device}:${e.type}:${e.type === 'protocolViolation' ? e.rule : ''}`, { station: s.station, event: e }, 'ticket printer');
        if (e.type === 'connected' || e.type === 'disconnected' || e.type === 'reconnected' || e.type === 'condition')
          st.changedAt = (this.deps.now ?? Date.now)();
        try {
          this.fault(s.station, e);
        } catch (err) {
          this.deps.log.error({ err, station: s.station }, "a ticket printer's fault could not be journalled");
        }
        this.deps.onChange?.(s.station);
        this.changes.emit(s.station);
        if (e.type === 'connected' || e.type === 'reconnected') this.links.emit(s.station);
      });
      this.devices.set(s.station, p);
    }
  }

  /**
   * A link lost is `printer-offline` until the printer answers; paper out is `printer-paper-out`, a
   * jam `printer-jam`, the head open or another fault of the mechanism `printer-fault`, until the
   * statuses say otherwise; a refused layout, a print nobody asked for or a repeated one, a
   * reset to drop held jobs is `printer-misbehaved`, until an attendant clears it.
   */
  private fault(station: number, e: PrinterEvent): void {
    const f = this.deps.faults;
    if (!f) return;
    // Said by key (service mode shows a detail only so); the link's English reason goes with it, for the journal's reader.
    if (e.type === 'disconnected') f.raise('printer-offline', { station, say: tiltDetailSaid('printerOffline', { report: e.reason }) });
    // What no honest printer does, said by key (its English report stays in the log); garbage on the wire is a cable's noise, `printer-offline` once the link goes.
    else if (e.type === 'failure') f.raise('printer-misbehaved', { station, say: failureSaid(e.failure) });
    else if (e.type === 'protocolViolation' && e.rule !== 'garbage')
      f.raise('printer-misbehaved', { station, say: tiltDetailSaid(e.rule === 'repeated-print' ? 'printerRepeatedPrint' : 'printerUnsolicitedPrint') });
    else if (e.type === 'connected' || e.type === 'reconnected') f.conditionGone('printer-offline', station);
    else if (e.type === 'condition') {
      this.standing(f, 'printer-paper-out', station, e.condition.faults.includes('paper-out') ? {} : null);
      this.standing(f, 'printer-jam', station, e.condition.faults.includes('paper-jam') ? {} : null);
      this.lastCondition.set(station, e.condition);
      this.watchStuck(f, station, stuckBy(e.condition));
      this.printerFault(f, station);
    }
  }

  /** `printer-fault`: the mechanism's faults the last status names, else a stuck watch that has raised. */
  private printerFault(f: NonNullable<PrinterDeps['faults']>, station: number): void {
    const c = this.lastCondition.get(station);
    const stops = c ? mechanismFaults(c) : [];
    const stuck = this.stuck.get(station);
    if (stops.length > 0) this.standing(f, 'printer-fault', station, { say: tiltDetailSaid('printerFaults', { printerFaults: stops.join(' ') }) });
    else this.standing(f, 'printer-fault', station, stuck?.raised ? { say: tiltDetailSaid(stuck.by) } : null);
  }

  /**
   * A printer not ready for a ticket with no fault bit: raised once it has held `stuckMs` (a player
   * takes a ticket from the chute, a power-up's flag is cleared at the next poll: neither is one),
   * ended once the printer has said none of it for `paperBackMs` (a flag flapping at every poll is held).
   */
  private watchStuck(f: NonNullable<PrinterDeps['faults']>, station: number, by: Stuck | null): void {
    const w = this.stuck.get(station);
    if (by) {
      w?.cancelEnd?.();
      if (w) Object.assign(w, { by, cancelEnd: null });
      if (w) return;
      const t = setTimeout(() => {
        const now = this.stuck.get(station);
        if (!now) return;
        now.raised = true;
        this.later(station, () => this.printerFault(f, station));
      }, this.deps.stuckMs ?? STUCK_MS);
      t.unref();
      this.stuck.set(station, { by, raised: false, cancelRaise: () => clearTimeout(t), cancelEnd: null });
      return;
    }
    if (!w || w.cancelEnd) return;
    const t = setTimeout(() => {
      w.cancelRaise();
      this.stuck.delete(station);
      this.later(station, () => this.printerFault(f, station));
    }, this.deps.paperBackMs ?? PAPER_BACK_MS);
    t.unref();
    w.cancelEnd = () => clearTimeout(t);
  }

  /** A fault raised or ended from a timer: a journal that refuses it is logged, never thrown out of the timer (it would end the process). */
  private later(station: number, act: () => void): void {
    try {
      act();
    } catch (err) {
      this.deps.log.error({ err, station }, "a ticket printer's fault could not be journalled");
    }
  }

  /**
   * A fault the printer's status says (`said`) is raised at once; one it no longer says is cleared
   * only once it has said none for `paperBackMs` (default 10 s): a printer whose sensor flips at
   * every poll journalled a raise and a clear per flip for as long as it went on (a review: 20
   * entries in 10 s). Neither stops anything at the station; a cash-out meanwhile is a handpay.
   */
  private standing(f: NonNullable<PrinterDeps['faults']>, kind: StandingKind, station: number, said: { say?: Said } | null): void {
    const key = `${kind}:${station}`;
    if (said) {
      this.goneSince.get(key)?.();
      this.goneSince.delete(key);
      return f.raise(kind, { station, ...said });
    }
    if (this.goneSince.has(key)) return;
    const t = setTimeout(() => {
      this.goneSince.delete(key);
      this.later(station, () => f.conditionGone(kind, station));
    }, this.deps.paperBackMs ?? PAPER_BACK_MS);
    t.unref();
    this.goneSince.set(key, () => clearTimeout(t));
  }

  at(station: number): TicketPrinter | undefined {
    return this.devices.get(station);
  }

  /** The simulator behind a `sim` printer (take the ticket, jam it, make it lie); null for real hardware. */
  simulator(station: number): OpenedPrinter['simulator'] | null {
    return this.devices.get(station)?.simulator ?? null;
  }

  statuses(): PrinterStatus[] {
    return [...this.status.values()].map((s) => ({ ...s }));
  }

  async close(): Promise<void> {
    await Promise.all([...this.devices.values()].map((p) => p.close()));
    this.devices.clear();
    for (const cancel of this.goneSince.values()) cancel();
    this.goneSince.clear();
    for (const w of this.stuck.values()) {
      w.cancelRaise();
      w.cancelEnd?.();
    }
    this.stuck.clear();
    this.sampledLog.close();
  }
}
