// Device side of a TCL ticket printer, byte for byte, for tests and the simulated mode. Its
// mechanism moves one step per status request, so runs are deterministic without timers: a job is
// taken, printed down to the barcode, its validation number done, cut and presented in the chute.
// It can also lie (lies.ts): say printed when it jammed, print twice, answer garbage or nothing.
// The layout it accepts and the flags it reports: docs/protocols/tcl.md ("Simulator").
import { PoweredDevice } from '../sim/powered-device.js';
import { LINE_8N1_9600, type LineSettings } from '../transport/byte-port.js';
import { CommandSplitter, statusFlags, type Job, type Mechanism, type PrinterStep } from './sim-mechanism.js';
import { lieStatus, type PrinterLie } from './lies.js';
import { encodeStatus, parseCommand, type TclStatus } from './tcl.js';
import { BARCODE_I2OF5 } from './template.js';
import type { ReceivedOptions } from '../sim/recent.js';

export type { PrinterStep } from './sim-mechanism.js';

const NEXT: Record<PrinterStep, PrinterStep | 'done'> = { taken: 'printing', printing: 'barcode', barcode: 'validated', validated: 'cutting', cutting: 'done' };

/** A ticket that came out of the printer (the truth a lie is told about). */
export interface PaperTicket {
  template: string;
  fields: readonly string[];
  /** The barcode field's digits. */
  barcode: string;
  /** The barcode was printed whole (the job went past its barcode). */
  barcodeComplete: boolean;
  /** The ticket was cut and presented; false when it jammed or the power went mid-print. */
  whole: boolean;
}

/**
 * The printer's faults, apart from its wire and its lies: each sets or clears one status flag the
 * driver must read (docs/protocols/tcl.md, "Simulator"); they survive a power cycle, as paper does.
 */
export interface PrinterFaults {
  paperLow(on?: boolean): void;
  paperOut(on?: boolean): void;
  /** The platen (print head) lifted: no job is taken until it is closed. */
  openHead(open?: boolean): void;
  openChassis(open?: boolean): void;
  /** Jams now (a job in progress stops where it is), or when the next job reaches `at`. */
  jam(at?: PrinterStep): void;
  /** The technician clears the jam (the paper stuck inside is taken out). */
  clearJam(): void;
}

export interface PrinterSimOptions extends ReceivedOptions {
  line?: LineSettings;
  version?: string;
}

export class TclPrinterSimulator extends PoweredDevice<PrinterStep, string> {
  readonly protocol = 'tcl' as const;
  readonly line: LineSettings;
  private readonly version: string;
  private readonly splitter = new CommandSplitter();
  private readonly armedJam = new Set<PrinterStep>();
  private m: Mechanism = freshMechanism();
  private lie: PrinterLie | null = null;
  private lieCount = 0;
  /** A lie on the wire itself, from the job that took it (or from `wireLie`) on. */
  private onWire: 'garbage' | 'silence' | null = null;
  /** Tickets out of the printer, whole or not, in order. */
  readonly paper: PaperTicket[] = [];
  /** What goes wrong in the mechanism: paper, head, chassis, jams (a test's or the service mode's hand). */
  readonly faults: PrinterFaults = {
    paperLow: (on = true) => void (this.m.paperLow = on),
    paperOut: (on = true) => void (this.m.paperOut = on),
    openHead: (open = true) => void (this.m.platenUp = open),
    openChassis: (open = true) => void (this.m.chassisOpen = open),
    jam: (at) => (at ? void this.armedJam.add(at) : this.jamNow()),
    clearJam: () => void (this.m.jam = false),
  };

  constructor(options: PrinterSimOptions = {}) {
    super(options);
    this.line = options.line ?? LINE_8N1_9600;
    this.version = options.version ?? 'GURSIMAA1';
  }

  // ── controls ──────────────────────────────────────────────────────────────
  get busy(): boolean {
    return this.m.job !== null;
  }
  get lastTemplate(): string {
    return this.m.lastTemplate;
  }
  /** The player takes the ticket from the chute. */
  takeTicket(): void {
    this.m.chute = 0;
  }
  get ticketsInChute(): number {
    return this.m.chute;
  }
  /** From the next job (or now, for the wire lies) the printer lies this way; `count` jobs, default every one. */
  tell(lie: PrinterLie | null, count = Infinity): void {
    this.lie = lie;
    this.lieCount = count;
  }
  /** Garbage or silence on the wire from now on (null: honest again). */
  wireLie(kind: 'garbage' | 'silence' | null): void {
    this.onWire = kind;
  }
  // ── wire ──────────────────────────────────────────────────────────────────
  /** Command texts out of the bytes (kept in `received`: tests check what the driver sent). */
  protected parse(bytes: Uint8Array): string[] {
    return this.splitter.push(bytes);
  }

  protected powerLost(): void {
    this.splitter.reset();
  }

  protected powerRestored(): void {
    this.powerUp();
  }

  protected handle(text: string): void {
    const cmd = parseCommand(text);
    if (!cmd) return void (this.m.commandError = true);
    const { letter, fields } = cmd;
    if (letter === 'S' || letter === 'Se') {
      this.report(letter === 'Se');
      this.step();
      return;
    }
    if (letter === 'C') {
      this.m.reset = this.m.commandError = this.m.dataError = false;
      if (fields[0] === 'j') this.m.jam = false;
      return;
    }
    if (letter === 'r') return this.powerUp();
    if (letter === 'F' && fields[0] === 'A') return this.flush();
    if (letter === 'R') return this.region(fields);
    if (letter === 'T') return this.template(fields);
    if (letter === 'P') return this.printJob(fields);
    this.m.commandError = true;
  }

  private region(f: readonly string[]): void {
    if (f[0] === '$' && f[1] === 'DR') {
      this.m.regions.clear();
      this.m.templates.clear();
      return;
    }
    if (f.length !== 15 || !f[0] || f[1] !== 'R' || !f.slice(2, 6).every((n) => /^\d+$/.test(n))) return void (this.m.dataError = true);
    this.m.regions.set(f[0], f[9] === BARCODE_I2OF5 ? 'barcode' : 'text');
  }

  private template(f: readonly string[]): void {
    const [id, mem, , , ...ids] = f;
    if (!id || id.length !== 1 || mem !== 'R' || ids.length === 0 || !ids.every((r) => this.m.regions.has(r))) return void (this.m.dataError = true);
    this.m.templates.set(id, ids);
  }

  private printJob(f: readonly string[]): void {
    const [template, copies, ...fields] = f;
    const regions = template === undefined ? undefined : this.m.templates.get(template);
    if (!template || !regions || copies !== '1' || fields.length !== regions.length) return void (this.m.dataError = true);
    const held = this.m.held;
    if (held) {
      // The job left in the buffer starts now; this one waits behind it.
      this.m.held = null;
      this.start(held);
      this.m.queued.push({ template, fields, barcode: this.barcodeOf(regions, fields), step: 'taken', lie: null, cycles: 1 });
      return;
    }
    if (this.m.job || this.hardFault()) return void (this.m.commandError = true);
    const barcode = this.barcodeOf(regions, fields);
    const lie = this.takeLie();
    if (lie === 'garbage' || lie === 'silence') this.onWire = lie;
    if (lie === 'stale-validation') {
      // Nothing printed; the status will claim the job anyway.
      this.m.fakeTemplate = template;
      return;
    }
    if (lie === 'jam-claims-printed' || lie === 'jam-silent') this.armedJam.add('barcode');
    if (lie === 'held-till-next' || lie === 'held-past-flush') {
      this.m.held = { template, fields, barcode, step: 'taken', lie, cycles: 1 };
      return;
    }
    this.start({ template, fields, barcode, step: 'taken', lie, cycles: lie === 'print-twice' ? 2 : 1 });
  }

  private barcodeOf(regions: readonly string[], fields: readonly string[]): string {
    return fields[regions.findIndex((r) => this.m.regions.get(r) === 'barcode')] ?? '';
  }

  /** `^F|A|^`: the jobs in the buffer that have not started are dropped (not the one printing). */
  private flush(): void {
    if (this.m.held?.lie !== 'held-past-flush') this.m.held = null;
    this.m.queued = [];
  }

  private takeLie(): PrinterLie | null {
    if (!this.lie || this.lieCount <= 0) return null;
    this.lieCount--;
    return this.lie;
  }

  private hardFault(): boolean {
    return this.m.paperOut || this.m.platenUp || this.m.jam;
  }

  private report(extended: boolean): void {
    if (this.onWire === 'silence') return;
    if (this.onWire === 'garbage') return this.transmit(Uint8Array.from({ length: 29 }, (_, i) => (i * 37 + this.m.polls++ * 11) & 0xff));
    const truth: TclStatus = { unit: '0', version: this.version, flags: statusFlags(this.m), lastTemplate: this.m.lastTemplate };
    const told = lieStatus(this.m, truth);
    const s = extended ? told : { ...told, flags: told.flags.slice(0, 3) };
    this.send(encodeStatus(s));
  }

  /** The mechanism moves one step (after the status of the step was reported). */
  private step(): void {
    this.m.polls++;
    if (this.m.fakeTemplate) {
      this.m.lastTemplate = this.m.fakeTemplate;
      this.m.fakeTemplate = null;
    }
    if (!this.m.job && this.m.again) {
      // The lie's second print of the same job: a new cycle nobody asked for.
      this.start(this.m.again);
      this.m.again = null;
      return;
    }
    const queued = this.m.job ? undefined : this.m.queued.shift();
    if (queued) return this.start(queued);
    const job = this.m.job;
    if (!job) return;
    if (this.power.armedFor(job.step)) return this.cutMidJob();
    if (this.armedJam.delete(job.step)) return this.jamNow();
    const next = NEXT[job.step];
    if (next === 'barcode') this.m.barcodeAccessed = true;
    if (next === 'validated') this.m.valdone = true;
    if (next !== 'done') {
      job.step = next;
      return;
    }
    this.paper.push({ template: job.template, fields: job.fields, barcode: job.barcode, barcodeComplete: true, whole: true });
    this.m.chute++;
    this.m.lastTemplate = job.lie === 'wrong-template' ? (job.template === 'A' ? 'B' : 'A') : job.template;
    this.m.job = null;
    this.m.busy = false;
    if (job.cycles > 1) this.m.again = { ...job, cycles: job.cycles - 1, step: 'taken' };
  }

  private start(job: Job): void {
    this.m.job = job;
    this.m.busy = true;
    this.m.valdone = false;
    this.m.barcodeAccessed = false;
  }

  private jamNow(): void {
    const job = this.m.job;
    this.m.jam = true;
    if (!job) return;
    this.paper.push({ template: job.template, fields: job.fields, barcode: job.barcode, barcodeComplete: this.m.valdone, whole: false });
    this.m.job = null;
    this.m.busy = false;
    if (job.lie === 'jam-silent') {
      // The lie: a clean cycle reported for the ticket that is stuck inside.
      this.m.jam = false;
      this.m.valdone = true;
      this.m.lastTemplate = job.template;
    } else if (job.lie === 'jam-claims-printed') this.m.valdone = true;
  }

  private cutMidJob(): void {
    const job = this.m.job;
    if (job) this.paper.push({ template: job.template, fields: job.fields, barcode: job.barcode, barcodeComplete: this.m.valdone, whole: false });
    this.power.fireArmed();
  }

  private powerUp(): void {
    // RAM is lost: regions, templates, the last template; the reset flag says so until cleared.
    const keep = { paperLow: this.m.paperLow, paperOut: this.m.paperOut, platenUp: this.m.platenUp, chassisOpen: this.m.chassisOpen, chute: this.m.chute };
    this.m = { ...freshMechanism(), ...keep };
  }
}

function freshMechanism(): Mechanism {
  return {
    regions: new Map(),
    templates: new Map(),
    job: null,
    again: null,
    held: null,
    queued: [],
    busy: false,
    valdone: true,
    barcodeAccessed: false,
    lastTemplate: '',
    fakeTemplate: null,
    reset: true,
    commandError: false,
    dataError: false,
    paperLow: false,
    paperOut: false,
    platenUp: false,
    chassisOpen: false,
    jam: false,
    chute: 0,
    polls: 0,
  };
}
