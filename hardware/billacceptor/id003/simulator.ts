// Device side of a JCM ID-003 bill acceptor, byte for byte, for tests and the simulated mode. The
// mechanism advances one step per STATUS REQUEST, so runs are deterministic without timers.
// Behaviour it models (research note §1.2): power-up codes 0x40/0x41/0x42 by where a note was at
// the cut, RESET → INITIALIZE, settings echoed, VEND VALID repeated until the host's ACK.
import { LINE_8E1_9600, type LineSettings } from '../../transport/byte-port.js';
import { NOTE_FACE_VALUES, type Currency } from '../notes.js';
import type { BillAcceptorFaults, BillAcceptorSimControls, BillStep, NoteInPath, TicketLies } from '../sim-controls.js';
import { BillSimulatorBase } from '../simulator-base.js';
import { BARCODE_LENGTH, CMD, ESCROW_CODE_FIRST, STATUS, TICKET_ESCROW_CODE } from './constants.js';
import { Id003Parser, encodeId003, type Id003Frame } from './frame.js';
import type { ReceivedOptions } from '../../sim/recent.js';

type State =
  | 'power-up'
  | 'initialize'
  | 'disabled'
  | 'enabled'
  | 'accepting'
  | 'escrow'
  | 'stacking-early'
  | 'stacking-late'
  | 'vend-valid'
  | 'stacked'
  | 'rejecting'
  | 'returning';

interface NoteInside {
  denomination: number;
  code: number;
  reject?: number;
  /** A ticket's barcode (then denomination is 0 and code 0x6F), and the lies told about it. */
  barcode?: string;
  lies?: TicketLies;
  /** The ESCROW report was given once (a swap at `escrow` shows from the next one). */
  reported?: boolean;
  /** The swap at `stacking` was told. */
  swapped?: boolean;
}

export interface Id003SimOptions extends ReceivedOptions {
  currency?: Currency;
  line?: LineSettings;
  /** Country code reported in the currency-assign table (see docs/protocols/id003.md). */
  countryCode?: number;
  initPolls?: number;
}

/** How far a note in each state went (NoteInPath's stage); any other state: still being read. */
const STAGE_OF: Partial<Record<State, NoteInPath['stage']>> = {
  escrow: 'escrow',
  'stacking-early': 'stacking',
  'stacking-late': 'no-return',
  'vend-valid': 'no-return',
  rejecting: 'returning',
  returning: 'returning',
};

const STEP_OF: Partial<Record<State, BillStep>> = {
  accepting: 'accepting',
  escrow: 'escrow',
  'stacking-early': 'stacking',
  'stacking-late': 'stacking-late',
  'vend-valid': 'credit',
  stacked: 'stacked',
};

export class Id003Simulator extends BillSimulatorBase<NoteInside, Id003Frame> implements BillAcceptorSimControls {
  readonly protocol = 'id003' as const;
  private readonly parser = new Id003Parser();
  private readonly table: { code: number; denomination: number }[];
  private readonly countryCode: number;
  private readonly initPolls: number;

  private st: State = 'power-up';
  private powerUpCode: number = STATUS.POWER_UP;
  private initLeft = 0;
  private inhibited = true;
  private denominationMask = 0x0000;
  private settings = new Map<number, number[]>();
  private fault: { code: number; data?: number } | null = null;
  private readonly ticketCash: string[] = [];
  private readonly ticketBack: string[] = [];

  constructor(options: Id003SimOptions = {}) {
    super(options, LINE_8E1_9600);
    this.countryCode = options.countryCode ?? 0x59;
    this.initPolls = options.initPolls ?? 2;
    this.table = NOTE_FACE_VALUES[this.currency].map((denomination, i) => ({ code: ESCROW_CODE_FIRST + i, denomination }));
  }

  // ── controls ──────────────────────────────────────────────────────────────
  /** Barcodes of the tickets in the cashbox, and of those given back. */
  get ticketsStacked(): readonly string[] {
    return this.ticketCash;
  }
  get ticketsReturned(): readonly string[] {
    return this.ticketBack;
  }
  get state(): string {
    return this.st;
  }

  protected pathOf(n: NoteInside): { stage: NoteInPath['stage']; code: number } {
    return { stage: STAGE_OF[this.st] ?? 'reading', code: n.code };
  }

  insertNote(denomination: number, options: { reject?: number } = {}): void {
    const entry = this.table.find((t) => t.denomination === denomination);
    // A note the unit does not know is refused as a denomination-assessing error.
    this.queue.push(entry ? { ...entry, ...options } : { denomination, code: 0, reject: options.reject ?? 0x76 });
  }

  /**
   * A barcode ticket. The unit reads it only with the barcode function set to I2of5, 18 characters
   * (else reject 0x91), and only 18 digits (else 0x93 count error, 0x92 unknown barcode), unless it lies.
   */
  insertTicket(barcode: string, options: TicketLies = {}): void {
    const reject = options.escrowAnything ? undefined : barcode.length !== BARCODE_LENGTH ? 0x93 : /^\d+$/.test(barcode) ? undefined : 0x92;
    this.queue.push({ denomination: 0, code: TICKET_ESCROW_CODE, barcode, lies: options, ...(reject === undefined ? {} : { reject }) });
  }

  private toCash(n: NoteInside): void {
    if (n.barcode === undefined) this.cash.push(n.denomination);
    else this.ticketCash.push(n.barcode);
  }
  private toBack(n: NoteInside): void {
    if (n.barcode === undefined) this.back.push(n.denomination);
    else this.ticketBack.push(n.barcode);
  }
  private toStuck(n: NoteInside): void {
    if (n.barcode === undefined) this.stuck.push(n.denomination);
  }

  /** ESCROW's data: the note's code, or 0x6F and the ticket's barcode (another one once the lie swaps it). */
  private escrowData(): number[] {
    const n = this.note;
    if (!n) return [0];
    if (n.barcode === undefined) return [n.code];
    const l = n.lies ?? {};
    const swap = l.swapTo !== undefined && ((l.swapAt === 'escrow' && n.reported === true) || (l.swapAt === 'stacking' && this.st !== 'escrow'));
    n.reported = true;
    return [TICKET_ESCROW_CODE, ...new TextEncoder().encode(swap ? l.swapTo : n.barcode)];
  }

  /** The faults, as the ID-003 status each one reports (one at a time: a new one replaces the last). */
  readonly faults: BillAcceptorFaults = {
    jam: (where = 'acceptor') => void (this.fault = { code: where === 'stacker' ? STATUS.JAM_IN_STACKER : STATUS.JAM_IN_ACCEPTOR }),
    stackerFull: () => void (this.fault = { code: STATUS.STACKER_FULL }),
    removeStacker: () => void (this.fault = { code: STATUS.STACKER_OPEN }),
    replaceStacker: () => {
      if (this.fault?.code === STATUS.STACKER_OPEN) this.fault = null;
    },
    cheat: () => {
      this.fault = { code: STATUS.CHEATED };
      // The fishing attempt pulls the note back out: no credit, the customer has it.
      if (this.note && this.inAcceptor()) {
        this.toBack(this.note);
        this.note = null;
        this.st = 'enabled';
      }
    },
    fail: (code = 0xa2) => void (this.fault = { code: STATUS.FAILURE, data: code }),
    clear: () => {
      if (!this.fault) return;
      const jam = this.fault.code === STATUS.JAM_IN_ACCEPTOR || this.fault.code === STATUS.JAM_IN_STACKER;
      if (jam && this.note) {
        this.toStuck(this.note);
        this.note = null;
        this.st = this.inhibited ? 'disabled' : 'enabled';
      }
      this.fault = null;
    },
  };

  protected powerLost(): void {
    this.parser.reset();
  }

  protected powerRestored(): void {
    this.fault = null;
    this.inhibited = true;
    if (!this.note) this.powerUpCode = STATUS.POWER_UP;
    else this.powerUpCode = this.inAcceptor() ? STATUS.POWER_UP_BILL_IN_ACCEPTOR : STATUS.POWER_UP_BILL_IN_STACKER;
    this.st = 'power-up';
  }

  /** Where the note physically is decides the power-up report: past the point of no return or not. */
  private inAcceptor(): boolean {
    return this.st === 'accepting' || this.st === 'escrow' || this.st === 'stacking-early' || this.st === 'rejecting' || this.st === 'returning';
  }

  // ── wire ──────────────────────────────────────────────────────────────────
  protected parse(bytes: Uint8Array): Id003Frame[] {
    return this.parser.push(bytes);
  }

  private reply(code: number, data: ArrayLike<number> = []): void {
    this.send(encodeId003(code, data));
  }

  protected handle(f: Id003Frame): void {
    const c = f.code;
    if (c === CMD.STATUS_REQUEST) {
      this.reportStatus();
      this.step();
      return;
    }
    if (c === CMD.ACK) {
      if (this.st === 'vend-valid' && this.note) {
        this.toCash(this.note);
        this.note = null;
        this.st = 'stacked';
      }
      return; // the host's ACK gets no reply
    }
    if (c === CMD.RESET) {
      this.reply(CMD.ACK);
      this.doReset();
      return;
    }
    if (c >= 0xc0 && c <= 0xc7) {
      this.settings.set(c, Array.from(f.data));
      if (c === CMD.SET_DENOMINATION && f.data.length === 2) this.denominationMask = (f.data[0] ?? 0) | ((f.data[1] ?? 0) << 8);
      if (c === CMD.SET_INHIBIT && f.data.length === 1) this.inhibited = f.data[0] !== 0;
      this.reply(c, f.data); // setting commands are echoed
      return;
    }
    if (c >= 0x80 && c <= 0x85) {
      this.reply(c, this.settings.get(c + 0x40) ?? []);
      return;
    }
    if (c === CMD.GET_VERSION) {
      this.reply(
        c,
        Array.from('i(HKG)100-SS ID003-05V280-42 SIMULATOR', (ch) => ch.charCodeAt(0)),
      );
      return;
    }
    if (c === CMD.GET_BOOT_VERSION) {
      this.reply(
        c,
        Array.from('B05 ', (ch) => ch.charCodeAt(0)),
      );
      return;
    }
    if (c === CMD.GET_CURRENCY_ASSIGN) {
      const blocks: number[] = [];
      for (const t of this.table) {
        const exp = Math.floor(Math.log10(t.denomination));
        blocks.push(t.code, this.countryCode, Math.round(t.denomination / 10 ** exp), exp);
      }
      this.reply(c, blocks);
      return;
    }
    const inEscrow = this.st === 'escrow' && !this.fault;
    if ((c === CMD.STACK_1 || c === CMD.STACK_2) && inEscrow) {
      this.reply(CMD.ACK);
      this.st = 'stacking-early';
      return;
    }
    if (c === CMD.RETURN && inEscrow) {
      this.reply(CMD.ACK);
      // The lie: a ticket told to go back is stacked instead.
      this.st = this.note?.lies?.stackWhenReturned ? 'stacking-early' : 'returning';
      return;
    }
    if ((c === CMD.HOLD && inEscrow) || c === CMD.WAIT) {
      this.reply(CMD.ACK);
      return;
    }
    this.reply(STATUS.INVALID_COMMAND);
  }

  private doReset(): void {
    if (this.st === 'power-up' && this.note) {
      // Initialisation finishes the interrupted movement: back to the customer, or into the box.
      if (this.powerUpCode === STATUS.POWER_UP_BILL_IN_STACKER) this.toCash(this.note);
      else this.toBack(this.note);
      this.note = null;
    }
    if (this.note) {
      // A RESET mid-note: past the point of no return the note is in the stacker; before it, it comes back.
      if (this.st === 'stacking-late' || this.st === 'vend-valid') this.toCash(this.note);
      else this.toBack(this.note);
      this.note = null;
    }
    this.fault = this.fault?.code === STATUS.STACKER_OPEN || this.fault?.code === STATUS.STACKER_FULL ? this.fault : null;
    this.inhibited = true;
    this.initLeft = this.initPolls;
    this.st = 'initialize';
  }

  private reportStatus(): void {
    if (this.fault) {
      this.reply(this.fault.code, this.fault.data === undefined ? [] : [this.fault.data]);
      return;
    }
    switch (this.st) {
      case 'power-up':
        return this.reply(this.powerUpCode);
      case 'initialize':
        return this.reply(STATUS.INITIALIZE);
      case 'disabled':
        return this.reply(STATUS.DISABLE);
      case 'enabled':
        return this.reply(STATUS.ENABLE);
      case 'accepting':
        return this.reply(STATUS.ACCEPTING);
      case 'escrow':
        return this.reply(STATUS.ESCROW, this.escrowData());
      case 'stacking-early':
        if (this.note?.lies?.swapAt === 'stacking' && !this.note.swapped) {
          this.note.swapped = true;
          return this.reply(STATUS.ESCROW, this.escrowData());
        }
        return this.reply(STATUS.STACKING);
      case 'stacking-late':
        return this.reply(STATUS.STACKING);
      case 'vend-valid':
        return this.reply(STATUS.VEND_VALID);
      case 'stacked':
        return this.reply(STATUS.STACKED);
      case 'rejecting':
        return this.reply(STATUS.REJECTING, [this.note?.reject ?? 0x79]);
      case 'returning':
        return this.reply(STATUS.RETURNING);
    }
  }

  private step(): void {
    const reported = STEP_OF[this.st];
    if (!this.fault && this.power.armedFor(reported)) {
      this.power.fireArmed();
      return;
    }
    if (this.fault) return;
    switch (this.st) {
      case 'initialize':
        if (--this.initLeft <= 0) this.st = this.inhibited ? 'disabled' : 'enabled';
        return;
      case 'disabled':
        if (!this.inhibited) this.st = 'enabled';
        return;
      case 'enabled': {
        if (this.inhibited) {
          this.st = 'disabled';
          return;
        }
        if (this.drawNext()) this.st = 'accepting';
        return;
      }
      case 'accepting': {
        const n = this.note;
        if (!n) return;
        const index = n.code - ESCROW_CODE_FIRST;
        const inhibitedDenomination = n.code === 0 || (index >= 0 && index < 16 && ((this.denominationMask >> index) & 1) === 1);
        if (n.barcode !== undefined && !n.lies?.escrowAnything && this.settings.get(CMD.SET_BARCODE_FUNCTION)?.join() !== `1,${BARCODE_LENGTH}`)
          n.reject ??= 0x91;
        if (n.reject !== undefined || inhibitedDenomination) {
          n.reject ??= 0x79;
          this.st = 'rejecting';
        } else this.st = 'escrow';
        return;
      }
      case 'stacking-early':
        this.st = 'stacking-late';
        return;
      case 'stacking-late':
        this.st = 'vend-valid';
        return;
      case 'stacked':
      case 'rejecting':
      case 'returning':
        if (this.st !== 'stacked' && this.note) this.toBack(this.note);
        if (this.st !== 'stacked') this.note = null;
        this.st = this.inhibited ? 'disabled' : 'enabled';
        return;
      default:
        return;
    }
  }
}
