// Device side of an ITL SSP note validator (NV9USB-like, presented as CDC-ACM), byte for byte. The
// note path advances one step per POLL; the sequence flag is honoured (a repeated flag repeats the
// last reply without executing); a power cut leaves SLAVE RESET plus NOTE CLEARED FROM FRONT /
// INTO CASHBOX for the first poll, with all channels inhibited. Facts: docs/protocols/ssp.md.
import { LINE_8N2_9600, type LineSettings } from '../../transport/byte-port.js';
import { NOTE_FACE_VALUES, type Currency } from '../notes.js';
import type { BillAcceptorFaults, BillAcceptorSimControls, BillStep, NoteInPath, WireFault } from '../sim-controls.js';
import { BillSimulatorBase } from '../simulator-base.js';
import { CMD, EVENT, RESP, SEQ_BIT } from './constants.js';
import {
  CMD_REQUEST_KEY_EXCHANGE,
  CMD_SET_GENERATOR,
  CMD_SET_MODULUS,
  DEFAULT_FIXED_KEY,
  EsspSession,
  STEX,
  aesKey,
  isPrime,
  modPow,
  randomSecret,
  readU64le,
  u64le,
} from './essp.js';
import { SspParser, encodeSsp, type SspFrame } from './frame.js';
import type { ReceivedOptions } from '../../sim/recent.js';

type Phase = 'idle' | 'reading' | 'escrow' | 'stacking' | 'stacking-late' | 'credit' | 'rejecting';

/** A note as the validator carries it: its channel (1-based) and whether it will refuse it. */
interface SspNote {
  channel: number;
  denomination: number;
  reject: boolean;
}

export interface SspSimOptions extends ReceivedOptions {
  currency?: Currency;
  line?: LineSettings;
  address?: number;
  serial?: number;
  maxProtocolVersion?: number;
  /** The validator rejects a note left in escrow without a command for this long (GA973: 10 s). */
  escrowTimeoutMs?: number;
  /** The validator disables itself when no command came for this long (GA973: 10 s). */
  idleDisableMs?: number;
  /** eSSP: refuse plain commands (0xFA KEY NOT SET) until a key is negotiated, then encrypt. */
  encrypted?: boolean;
  fixedKey?: bigint;
}

const KEY_SETUP = new Set<number>([CMD.SYNC, CMD.RESET, CMD_SET_GENERATOR, CMD_SET_MODULUS, CMD_REQUEST_KEY_EXCHANGE]);

/** How far a note in each phase went (NoteInPath's stage); any other phase: still being read. */
const STAGE_OF: Partial<Record<Phase, NoteInPath['stage']>> = {
  escrow: 'escrow',
  stacking: 'stacking',
  'stacking-late': 'no-return',
  credit: 'no-return',
  rejecting: 'returning',
};

const STEP_OF: Partial<Record<Phase, BillStep>> = { reading: 'accepting', escrow: 'escrow', stacking: 'stacking', 'stacking-late': 'stacking-late' };

export class SspSimulator extends BillSimulatorBase<SspNote, SspFrame> implements BillAcceptorSimControls {
  readonly protocol = 'ssp' as const;
  private readonly parser = new SspParser();
  private readonly address: number;
  private readonly serial: number;
  private readonly maxProtocol: number;
  private readonly escrowTimeoutMs: number;
  private readonly idleDisableMs: number;
  private readonly channels: number[];
  private readonly encrypted: boolean;
  private readonly fixedKey: bigint;
  private generator: bigint | null = null;
  private modulus: bigint | null = null;
  private essp: EsspSession | null = null;

  private lastSeq: number | null = null;
  private lastReply: Uint8Array | null = null;
  private protocolVersion = 4;
  private enabled = false;
  private inhibits = 0;
  private events: number[] = [EVENT.SLAVE_RESET];
  private phase: Phase = 'idle';
  private fault: 'jam' | 'full' | 'removed' | 'failed' | null = null;
  private fraud = false;
  private lastCommandAt = performance.now();

  constructor(options: SspSimOptions = {}) {
    super(options, LINE_8N2_9600);
    this.address = options.address ?? 0;
    this.serial = options.serial ?? 0x00bc614e;
    this.maxProtocol = options.maxProtocolVersion ?? 7;
    this.escrowTimeoutMs = options.escrowTimeoutMs ?? 10_000;
    this.idleDisableMs = options.idleDisableMs ?? 10_000;
    this.channels = [...NOTE_FACE_VALUES[this.currency]];
    this.encrypted = options.encrypted ?? false;
    this.fixedKey = options.fixedKey ?? DEFAULT_FIXED_KEY;
  }

  /** Whether an eSSP key is in place (tests). */
  get keyed(): boolean {
    return this.essp !== null;
  }

  protected pathOf(n: SspNote): { stage: NoteInPath['stage']; code: number } {
    return { stage: STAGE_OF[this.phase] ?? 'reading', code: n.channel };
  }

  /** Whether the validator reported the note in escrow (READ with its channel): the next plain POLL takes it. */
  get escrowReportedNow(): boolean {
    return this.phase === 'escrow' && this.escrowReported;
  }
  insertNote(denomination: number, options: { reject?: number } = {}): void {
    const i = this.channels.indexOf(denomination);
    this.queue.push({ channel: i + 1, denomination, reject: i < 0 || options.reject !== undefined });
  }
  /** The faults, as the SSP poll events they raise (a jam is SSP's one "unsafe jam", where is not told). */
  readonly faults: BillAcceptorFaults = {
    jam: () => void (this.fault = 'jam'),
    stackerFull: () => void (this.fault = 'full'),
    removeStacker: () => void (this.fault = 'removed'),
    replaceStacker: () => {
      if (this.fault !== 'removed') return;
      this.fault = null;
      this.events.push(EVENT.CASHBOX_REPLACED);
    },
    cheat: () => {
      this.fraud = true;
      if (this.note && (this.phase === 'reading' || this.phase === 'escrow')) {
        this.back.push(this.note.denomination);
        this.note = null;
        this.phase = 'idle';
      }
    },
    fail: () => void (this.fault = 'failed'),
    clear: () => {
      if (this.fault === 'jam' && this.note) {
        this.stuck.push(this.note.denomination);
        this.note = null;
        this.phase = 'idle';
      }
      // A missing cashbox is cleared by putting it back, not by a reset.
      if (this.fault !== 'removed') this.fault = null;
      this.fraud = false;
    },
  };

  protected powerLost(): void {
    this.parser.reset();
  }

  protected powerRestored(): void {
    this.boot();
  }

  /** Power-up or RESET: the note in the path is cleared, and reported with the first poll. */
  private boot(): void {
    this.events = [EVENT.SLAVE_RESET];
    if (this.note) {
      if (this.phase === 'stacking-late' || this.phase === 'credit') {
        this.cash.push(this.note.denomination);
        this.events.push(EVENT.CLEARED_INTO_CASHBOX, this.note.channel);
      } else {
        this.back.push(this.note.denomination);
        this.events.push(EVENT.CLEARED_FROM_FRONT, this.note.channel);
      }
    }
    this.note = null;
    this.phase = 'idle';
    this.enabled = false;
    this.inhibits = 0; // all channels inhibited at power-up
    this.lastSeq = null;
    this.lastReply = null;
    this.protocolVersion = 4;
    this.essp = null; // eCOUNT and key restart at power-up
  }

  /** Damage the reply carrying the next NOTE CREDIT (and its `count - 1` repeats). */
  faultCreditReply(kind: WireFault, count = 1): void {
    this.creditFault = { kind, count };
  }

  private creditFault: { kind: WireFault; count: number } | null = null;

  protected parse(bytes: Uint8Array): SspFrame[] {
    return this.parser.push(bytes);
  }

  protected handle(f: SspFrame): void {
    if ((f.seqId & 0x7f) !== this.address) return; // another device's on a shared line
    const cmd = f.data[0] ?? -1;
    const flag = f.seqId & SEQ_BIT;
    if (cmd !== CMD.SYNC && this.lastSeq === flag && this.lastReply) {
      this.send(this.lastReply); // same flag: a retry; answer again, do not execute
      return;
    }
    let body: Uint8Array = f.data;
    let wrapped = false;
    if (cmd === STEX) {
      const plain = this.essp?.unwrap(f.data) ?? null;
      if (!plain) return; // undecryptable or wrong eCOUNT: discarded, no reply
      body = plain;
      wrapped = true;
    }
    const inner = body[0] ?? -1;
    // The unit's own timers: a validator keeps time of its own, not the host's wall clock.
    const now = performance.now();
    if (this.phase === 'escrow' && now - this.lastCommandAt > this.escrowTimeoutMs) this.startReject();
    if (now - this.lastCommandAt > this.idleDisableMs) this.enabled = false;
    this.lastCommandAt = now;
    const data = this.encrypted && !wrapped && !KEY_SETUP.has(inner) ? [RESP.KEY_NOT_SET] : this.execute(inner, body);
    const reply = encodeSsp(flag | this.address, wrapped && this.essp ? this.essp.wrap(data) : data);
    this.lastSeq = flag;
    this.lastReply = reply;
    this.send(reply);
    if (inner === CMD.POLL && data[0] === RESP.OK) this.afterPoll();
    if (inner === CMD.RESET) this.boot();
  }

  private execute(cmd: number, d: Uint8Array): number[] {
    switch (cmd) {
      case CMD.SYNC:
        return [RESP.OK];
      case CMD.RESET:
        return [RESP.OK];
      case CMD.HOST_PROTOCOL_VERSION: {
        const v = d[1] ?? 0;
        if (d.length !== 2) return [RESP.WRONG_PARAMS];
        if (v < 4 || v > this.maxProtocol) return [RESP.OUT_OF_RANGE];
        this.protocolVersion = v;
        return [RESP.OK];
      }
      case CMD.GET_SERIAL:
        return [RESP.OK, (this.serial >>> 24) & 0xff, (this.serial >>> 16) & 0xff, (this.serial >>> 8) & 0xff, this.serial & 0xff];
      case CMD.SETUP_REQUEST:
        return [RESP.OK, ...this.setup()];
      case CMD.SET_INHIBITS:
        if (d.length < 3) return [RESP.WRONG_PARAMS];
        this.inhibits = (d[1] ?? 0) | ((d[2] ?? 0) << 8);
        return [RESP.OK];
      case CMD.ENABLE:
        this.enabled = true;
        return [RESP.OK];
      case CMD.DISABLE:
        this.enabled = false;
        return [RESP.OK];
      case CMD.DISPLAY_ON:
      case CMD.DISPLAY_OFF:
        return [RESP.OK];
      case CMD.HOLD:
        return this.phase === 'escrow' ? [RESP.OK] : [RESP.CANNOT_PROCESS];
      case CMD.REJECT:
        if (this.phase !== 'escrow') return [RESP.CANNOT_PROCESS];
        this.startReject();
        return [RESP.OK];
      case CMD.POLL:
        return this.poll();
      case CMD_SET_GENERATOR:
      case CMD_SET_MODULUS: {
        if (d.length !== 9) return [RESP.WRONG_PARAMS];
        const v = readU64le(d, 1);
        if (!isPrime(v)) return [RESP.OUT_OF_RANGE];
        if (cmd === CMD_SET_GENERATOR) this.generator = v;
        else this.modulus = v;
        return [RESP.OK];
      }
      case CMD_REQUEST_KEY_EXCHANGE: {
        if (d.length !== 9) return [RESP.WRONG_PARAMS];
        if (!this.generator || !this.modulus) return [RESP.CANNOT_PROCESS];
        const secret = randomSecret();
        const slaveInter = modPow(this.generator, secret, this.modulus);
        const key = modPow(readU64le(d, 1), secret, this.modulus);
        this.essp = new EsspSession(aesKey(this.fixedKey, key)); // eCOUNT restarts at 0
        return [RESP.OK, ...u64le(slaveInter)];
      }
      default:
        return [RESP.UNKNOWN];
    }
  }

  private setup(): number[] {
    const n = this.channels.length;
    const ascii = (s: string): number[] => Array.from(s, (c) => c.charCodeAt(0));
    const out = [0x00, ...ascii('0440'), ...ascii(this.currency), 0, 0, 1, n];
    out.push(...this.channels.map((v) => (v <= 255 ? v : 0)));
    out.push(...this.channels.map(() => 2));
    out.push(0, 0, 100, this.protocolVersion);
    if (this.protocolVersion >= 6) {
      for (let i = 0; i < n; i++) out.push(...ascii(this.currency));
      for (const v of this.channels) out.push(v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, (v >>> 24) & 0xff);
    }
    return out;
  }

  private startReject(): void {
    this.phase = 'rejecting';
    this.events.push(EVENT.REJECTING);
  }

  /** The reply to this POLL: pending one-shot events plus the persistent state events. */
  private poll(): number[] {
    const out = [RESP.OK, ...this.events];
    this.events = [];
    if (this.fault === 'failed') return [RESP.CANNOT_PROCESS];
    if (this.fault === 'jam') out.push(EVENT.UNSAFE_JAM);
    if (this.fault === 'full') out.push(EVENT.STACKER_FULL);
    if (this.fault === 'removed') out.push(EVENT.CASHBOX_REMOVED);
    if (this.fraud) out.push(EVENT.FRAUD, 0);
    if (this.fault || this.fraud) return out;
    switch (this.phase) {
      case 'idle':
        if (!this.enabled) out.push(EVENT.DISABLED);
        break;
      case 'reading':
        out.push(EVENT.READ, 0);
        break;
      case 'escrow':
        if (!this.escrowReported) {
          this.escrowReported = true;
          out.push(EVENT.READ, this.note?.channel ?? 0);
        } else {
          // The first plain POLL after READ with a channel accepts the note.
          this.phase = 'stacking';
          out.push(EVENT.STACKING);
        }
        break;
      case 'stacking':
      case 'stacking-late':
        out.push(EVENT.STACKING);
        break;
      case 'credit':
        if (this.note) {
          if (this.creditFault) this.wire.add(this.creditFault.kind, this.creditFault.count);
          this.creditFault = null;
          out.push(EVENT.CREDIT, this.note.channel, EVENT.STACKED);
          this.cash.push(this.note.denomination);
          this.note = null;
        }
        this.phase = 'idle';
        if (this.power.armedFor('credit') || this.power.armedFor('stacked')) this.pendingCut = true;
        break;
      case 'rejecting':
        out.push(EVENT.REJECTED);
        if (this.note) this.back.push(this.note.denomination);
        this.note = null;
        this.phase = 'idle';
        break;
    }
    return out;
  }

  private pendingCut = false;
  private escrowReported = false;

  /** Mechanism steps after a POLL was answered (and power cuts armed on the step just reported). */
  private afterPoll(): void {
    const reported = STEP_OF[this.phase];
    if (this.pendingCut || (this.power.armedFor(reported) && !this.fault)) {
      this.pendingCut = false;
      this.power.fireArmed();
      return;
    }
    if (this.fault || this.fraud) return;
    switch (this.phase) {
      case 'idle': {
        if (!this.enabled) return;
        if (this.drawNext()) this.phase = 'reading';
        return;
      }
      case 'reading': {
        const n = this.note;
        if (!n) return;
        const inhibited = ((this.inhibits >> (n.channel - 1)) & 1) === 0;
        if (n.reject || inhibited) this.startReject();
        else {
          this.phase = 'escrow';
          this.escrowReported = false;
        }
        return;
      }
      case 'stacking':
        this.phase = 'stacking-late';
        return;
      case 'stacking-late':
        this.phase = 'credit';
        return;
      default:
        return;
    }
  }
}
