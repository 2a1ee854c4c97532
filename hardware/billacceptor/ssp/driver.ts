// Host side of ITL SSP for a note validator: SYNC, protocol version (negotiated downward), serial
// number, SETUP REQUEST (channel values), SET INHIBITS, ENABLE, then POLL. The sequence flag is
// toggled only after a valid reply and a retry reuses it, so a lost reply is answered again by the
// validator and no event is lost. Credit at NOTE CREDIT (0xEE) only; the next POLL, which
// acknowledges it, is sent after the host's credit callback resolved. Facts: docs/protocols/ssp.md.
import { sleep } from '../../clock.js';
import { FrameChannel, LinkLostError } from '../../link.js';
import type { BytePort, PortOpener } from '../../transport/byte-port.js';
import { sspRx, sspTx } from '../../wire-frame.js';
import { BillAcceptorBase, type InFlight } from '../base.js';
import { NOTE_FACE_VALUES } from '../notes.js';
import type { BillAcceptorOptions, EscrowedNote } from '../types.js';
import { CMD, EVENT, RESP, SEQ_BIT, parsePollEvents, parseSetup, type SspEvent } from './constants.js';
import {
  CMD_REQUEST_KEY_EXCHANGE,
  CMD_SET_GENERATOR,
  CMD_SET_MODULUS,
  DEFAULT_FIXED_KEY,
  EsspSession,
  STEX,
  aesKey,
  modPow,
  randomPrime,
  randomSecret,
  readU64le,
  u64le,
} from './essp.js';
import { SspParser, encodeSsp, type SspFrame } from './frame.js';

/** Sessions of silence after which an unanswered POLL is given up and SYNC sent. */
const UNANSWERED_SESSIONS = 3;

const FAULT_EVENTS = new Set<number>([EVENT.UNSAFE_JAM, EVENT.SAFE_JAM, EVENT.STACKER_FULL, EVENT.CASHBOX_REMOVED, EVENT.FRAUD, EVENT.NOTE_PATH_OPEN]);

export interface SspOptions extends BillAcceptorOptions {
  address?: number;
  /** Highest host protocol version to ask for; lower ones are tried on 0xF4. */
  protocolVersion?: number;
  /**
   * eSSP: 'auto' (default) negotiates a key when the validator answers 0xFA KEY NOT SET, 'always'
   * right after SYNC, 'never' not at all.
   */
  encryption?: 'auto' | 'always' | 'never';
  /** The 64-bit fixed part of the eSSP key (set in the validator by the operator). */
  fixedKey?: bigint;
}

export class SspBillAcceptor extends BillAcceptorBase {
  readonly protocol = 'ssp' as const;
  private readonly address: number;
  private ch: FrameChannel<SspFrame> | null = null;
  private parser = new SspParser();
  private flag = 0;
  /** Channel (1-based) → face value, from SETUP REQUEST (default: the currency's notes in order). */
  private channels: number[];
  private serial: number | null = null;
  private needSetup = true;
  private appliedEnabled: boolean | null = null;
  private lastFaults = new Set<number>();
  private lastIdle: boolean | null = null;
  private lastBytes: Uint8Array | null = null;

  constructor(opener: PortOpener, options: SspOptions) {
    // GA973: poll every 200–1000 ms; 1 s reply timeout; the validator rejects an escrowed note
    // after 10 s without a command, so HOLD is sent while the host decides.
    super(opener, options, { pollIntervalMs: 200, replyTimeoutMs: 1000, escrowTimeoutMs: 8000 });
    this.address = options.address ?? 0;
    this.channels = [...NOTE_FACE_VALUES[this.currency]];
    this.maxVersion = options.protocolVersion ?? 7;
    this.encryption = options.encryption ?? 'auto';
    this.needsKey = this.encryption === 'always';
    this.fixedKey = options.fixedKey ?? DEFAULT_FIXED_KEY;
  }

  private readonly maxVersion: number;
  private readonly encryption: 'auto' | 'always' | 'never';
  private readonly fixedKey: bigint;
  private needsKey: boolean;
  private essp: EsspSession | null = null;

  /** Whether commands currently go encrypted (tests, diagnostics). */
  get encrypted(): boolean {
    return this.essp !== null;
  }

  /** Diffie-Hellman over SET GENERATOR / SET MODULUS / REQUEST KEY EXCHANGE; eCOUNT restarts. */
  private async keyExchange(): Promise<void> {
    this.essp = null;
    const generator = randomPrime(40);
    const modulus = randomPrime(62);
    const secret = randomSecret();
    const g = await this.transact([CMD_SET_GENERATOR, ...u64le(generator)]);
    const m = await this.transact([CMD_SET_MODULUS, ...u64le(modulus)]);
    const r = await this.transact([CMD_REQUEST_KEY_EXCHANGE, ...u64le(modPow(generator, secret, modulus))]);
    if (g[0] !== RESP.OK || m[0] !== RESP.OK || r[0] !== RESP.OK || r.length < 9) throw new Error('SSP: eSSP key exchange refused');
    this.essp = new EsspSession(aesKey(this.fixedKey, modPow(readU64le(r, 1), secret, modulus)));
    this.needsKey = true;
  }

  protected override settingsChanged(): void {
    this.needSetup = true;
  }

  /**
   * Sends a command with the current sequence flag; on a timeout or a bad reply resends the same
   * bytes (same flag). Toggles the flag after a valid reply. `repeat` resends the previous packet
   * as-is, to have the validator repeat its last reply.
   */
  private async transact(data: number[], opts: { sync?: boolean; repeat?: boolean; raw?: Uint8Array } = {}): Promise<Uint8Array> {
    const ch = this.ch;
    if (!ch) throw new LinkLostError();
    if (opts.sync) this.flag = SEQ_BIT;
    const bytes = opts.raw ?? (opts.repeat && this.lastBytes ? this.lastBytes : encodeSsp(this.flag | this.address, this.essp ? this.essp.wrap(data) : data));
    const seqId = bytes[1] === 0x7f ? 0x7f : (bytes[1] ?? 0);
    this.lastBytes = bytes;
    // A POLL whose reply never came may have carried a credit: keep the packet so the next session
    // re-sends it with the same flag before SYNC, and the validator repeats that reply. That holds
    // when the link goes in the middle of the reply too (a cable pulled mid-frame: found by the
    // drivers' model-based fuzz, tests/fuzz/drivers.ts), and for the re-sent packet itself. A
    // session that heard bytes but no valid reply (garbled repeats: the validator is powered and
    // still holds its reply) keeps it without counting; sessions of silence or a lost link count,
    // and after a few the packet is dropped: a validator that lost power (and its eSSP key) never
    // answers it, and SYNC must come in the end (a second finding of the same fuzz: a garbled
    // repeat used to drop the packet at once, and SYNC made the validator forget a NOTE CREDIT).
    const unanswered = () => {
      if (data[0] !== CMD.POLL) return;
      if (!opts.raw) {
        this.unansweredPoll = bytes;
        this.unansweredSessions = 0;
        return;
      }
      if (!this.heard) this.unansweredSessions++;
      if (this.unansweredSessions < UNANSWERED_SESSIONS) this.unansweredPoll = bytes;
      else this.emit({ type: 'failure', reason: 'SSP: the reply to a POLL was never received before SYNC; a note may be stacked uncredited' });
    };
    this.heard = false;
    try {
      for (let attempt = 0; attempt < this.opts.retries; attempt++) {
        ch.clear();
        await ch.write(bytes);
        const deadline = this.clock.now() + this.opts.replyTimeoutMs;
        while (this.clock.now() < deadline) {
          const f = await ch.next(Math.max(1, deadline - this.clock.now()));
          if (!f) break;
          if (f.seqId !== seqId) continue; // a stale reply to an earlier packet
          let reply: Uint8Array | null = f.data;
          if (reply[0] === STEX) reply = this.essp?.unwrap(reply) ?? null; // wrong key/count: not ours
          if (!reply) continue;
          this.flag = (seqId & SEQ_BIT) ^ SEQ_BIT;
          return reply;
        }
        this.parser.reset();
      }
    } catch (e) {
      unanswered();
      throw e;
    }
    unanswered();
    throw new LinkLostError(`SSP: no reply to 0x${(data[0] ?? 0).toString(16)} after ${this.opts.retries} attempts`);
  }

  private async ok(data: number[]): Promise<boolean> {
    return (await this.transact(data))[0] === RESP.OK;
  }

  protected async session(port: BytePort, signal: AbortSignal): Promise<void> {
    this.parser = new SspParser();
    this.ch = new FrameChannel(
      port,
      (b) => {
        if (b.length > 0) this.heard = true;
        return this.parser.push(b);
      },
      this.clock,
      {
        tx: (bytes) => this.frame(sspTx(bytes)),
        rx: (f) => this.frame(sspRx(f.data)),
      },
    );
    this.needSetup = true;
    this.appliedEnabled = null;
    this.lastBytes = null;
    this.lastFaults = new Set();
    this.lastIdle = null;
    try {
      await this.recoverUnansweredPoll();
      this.essp = null; // a new session negotiates a new key (eCOUNT restarts)
      await this.transact([CMD.SYNC], { sync: true });
      if (this.needsKey && this.encryption !== 'never') await this.keyExchange();
      this.link.markUp();
      await this.setup();
      await this.rejectAgain();
      this.emit({ type: 'connected', protocol: 'ssp', ...(this.serial !== null ? { serial: String(this.serial) } : {}) });
      let repeat = false;
      while (!signal.aborted) {
        if (this.needSetup) await this.setup();
        if (this.appliedEnabled !== this.wantEnabled) {
          if (await this.ok([this.wantEnabled ? CMD.ENABLE : CMD.DISABLE])) this.appliedEnabled = this.wantEnabled;
        }
        const reply = await this.transact([CMD.POLL], { repeat });
        repeat = !(await this.onPoll(reply));
        await sleep(this.clock, this.opts.pollIntervalMs, signal);
      }
    } finally {
      this.ch.dispose();
      this.ch = null;
    }
  }

  /**
   * After a link loss in the middle of a POLL: re-send that exact packet first. A validator that
   * kept power repeats its last reply (events such as NOTE CREDIT are not lost); one that was
   * reset executes it as a fresh POLL (its power-up events follow). Either way SYNC comes next.
   */
  private async recoverUnansweredPoll(): Promise<void> {
    const raw = this.unansweredPoll;
    this.unansweredPoll = null;
    if (!raw) return;
    for (let i = 0; i < this.opts.retries; i++) {
      const reply = await this.transact([CMD.POLL], { raw });
      this.link.markUp();
      if (await this.onPoll(reply)) return;
    }
  }

  private unansweredPoll: Uint8Array | null = null;
  /** Sessions whose re-send of the unanswered POLL met silence or a lost link, so far. */
  private unansweredSessions = 0;
  /** Bytes came from the validator since the current exchange began (valid or not). */
  private heard = false;
  /** A note the host said to give back whose REJECT the link lost: said again before any POLL. */
  private rejectPending: { note: EscrowedNote; reason: 'escrow-timeout' | 'host' | 'not-accepted' } | null = null;

  /**
   * The link went while REJECT was on its way: the note may still be in escrow, and the next POLL
   * would accept it (SSP's POLL stacks an escrowed note), crediting a note the host refused (found
   * by the drivers' model-based fuzz, tests/fuzz/drivers.ts). REJECT again first; if the validator
   * already gave the note back it answers that it cannot, which changes nothing.
   */
  private async rejectAgain(): Promise<void> {
    const pending = this.rejectPending;
    if (!pending) return;
    await this.transact([CMD.REJECT]);
    this.rejectPending = null;
    this.emit({ type: 'returned', note: pending.note, reason: pending.reason });
    if (this.current?.note.escrowId === pending.note.escrowId) this.current = null;
  }

  private async setup(): Promise<void> {
    let v = this.maxVersion;
    while (v >= 4) {
      const r = await this.transact([CMD.HOST_PROTOCOL_VERSION, v]);
      if (r[0] === RESP.OK) break;
      if (r[0] === RESP.KEY_NOT_SET) {
        // The unit is in encrypted mode (field report: everything answers KEY NOT SET).
        if (this.encryption === 'never' || this.essp) throw new Error('SSP: validator requires eSSP encryption');
        await this.keyExchange();
        continue;
      }
      v--;
    }
    const sn = await this.transact([CMD.GET_SERIAL]);
    if (sn[0] === RESP.OK && sn.length >= 5) {
      const serial = (((sn[1] ?? 0) << 24) | ((sn[2] ?? 0) << 16) | ((sn[3] ?? 0) << 8) | (sn[4] ?? 0)) >>> 0;
      if (this.serial !== null && this.serial !== serial)
        this.emit({ type: 'failure', reason: `validator serial changed (${this.serial} → ${serial}): unit swapped` });
      this.serial = serial;
    }
    const s = await this.transact([CMD.SETUP_REQUEST]);
    const info = s[0] === RESP.OK ? parseSetup(s) : null;
    if (info && info.channels.length > 0) {
      if (info.country.trim() && info.country !== this.currency)
        this.emit({ type: 'failure', reason: `validator dataset is ${info.country}, table currency is ${this.currency}` });
      this.channels = info.channels;
    }
    let mask = 0;
    this.channels.forEach((v, i) => {
      if (this.accepted.has(v) && i < 16) mask |= 1 << i;
    });
    await this.ok([CMD.SET_INHIBITS, mask & 0xff, (mask >> 8) & 0xff]);
    this.appliedEnabled = null; // inhibits and enable do not survive a reset: always re-send
    this.needSetup = false;
  }

  /** Face value of a channel; undefined when unknown or 0 (a value the dataset could not express). */
  private channelValue(channel: number): number | undefined {
    return this.channels[channel - 1] || undefined;
  }

  /** Handles one POLL reply; false means "ask again with the same flag" (credit not journalled). */
  private async onPoll(reply: Uint8Array): Promise<boolean> {
    if (reply[0] !== RESP.OK) {
      if (!this.lastFaults.has(-1)) this.emit({ type: 'failure', reason: `POLL answered 0x${(reply[0] ?? 0).toString(16)}`, code: reply[0] ?? 0 });
      this.lastFaults = new Set([-1]);
      return true;
    }
    const events = parsePollEvents(reply);
    if (!events) {
      this.emit({ type: 'failure', reason: 'POLL reply with an event this driver cannot size' });
      return true;
    }
    const faults = new Set<number>();
    let idle = true;
    for (const e of events) {
      if (FAULT_EVENTS.has(e.code)) faults.add(e.code);
      if (e.code !== EVENT.DISABLED && e.code !== EVENT.CASHBOX_REPLACED) idle = false;
      if (!(await this.onEvent(e))) return false;
    }
    for (const f of faults) if (!this.lastFaults.has(f)) this.emitFault(f);
    if (this.lastFaults.size > 0 && faults.size === 0) this.emit({ type: 'faultCleared' });
    this.lastFaults = faults;
    // The validator disables itself after 10 s without a command (e.g. a slow journal while a
    // credit waited): if it says DISABLED while we want it enabled, ENABLE is sent again.
    if (events.some((e) => e.code === EVENT.DISABLED) && this.wantEnabled) this.appliedEnabled = null;
    if (idle) {
      const enabled = !events.some((e) => e.code === EVENT.DISABLED);
      if (this.lastIdle !== enabled) this.emit({ type: 'idle', enabled });
      this.lastIdle = enabled;
    } else this.lastIdle = null;
    return true;
  }

  private emitFault(code: number): void {
    if (code === EVENT.UNSAFE_JAM || code === EVENT.SAFE_JAM) {
      this.emit({ type: 'jam', where: 'unknown', ...(this.current && this.current.phase !== 'credited' ? { note: this.current.note } : {}) });
      if (this.current?.phase !== 'credited') this.current = null;
    } else if (code === EVENT.STACKER_FULL) this.emit({ type: 'stackerFull' });
    else if (code === EVENT.CASHBOX_REMOVED) this.emit({ type: 'stackerRemoved' });
    else if (code === EVENT.FRAUD) this.emit({ type: 'cheated' });
    else if (code === EVENT.NOTE_PATH_OPEN) this.emit({ type: 'failure', reason: 'note path open' });
  }

  private async onEvent(e: SspEvent): Promise<boolean> {
    const ch = e.data[0] ?? 0;
    switch (e.code) {
      case EVENT.SLAVE_RESET:
        // Inhibits and enable are lost at a reset (field report: re-send them).
        this.needSetup = true;
        return true;
      case EVENT.READ: {
        if (ch === 0) return true;
        const value = this.channelValue(ch);
        if (value === undefined) {
          this.emit({ type: 'rejected', reason: `unknown channel ${ch}`, code: ch });
          await this.ok([CMD.REJECT]);
          return true;
        }
        // The note still in escrow after a reconnect keeps its id; one the host told of after a
        // restart carries its value, not the channel: matched by value.
        const open = this.current && this.current.phase !== 'credited' ? this.current : null;
        const same = open !== null && (open.note.code === ch || (open.note.code === 0 && open.note.denomination === value));
        // Another note read: the one before was never credited, so the unit gave it back.
        if (open && !same) this.emit({ type: 'returned', note: open.note, reason: 'device' });
        const note = same ? open.note : this.newNote(this.noteFor(ch, value));
        this.current = { note, phase: 'escrow' };
        this.emit({ type: 'escrowed', note });
        const decided = this.decide(note);
        let done = false;
        void decided.finally(() => (done = true));
        // HOLD keeps the note in escrow while the host decides (a plain POLL would accept it).
        while (!done) {
          await sleep(this.clock, Math.min(this.opts.pollIntervalMs, 500));
          if (!done) await this.transact([CMD.HOLD]);
        }
        const { decision, timedOut } = await decided;
        if (decision === 'stack') {
          this.current.phase = 'stack-sent'; // the next POLL accepts it
          return true;
        }
        const reason = timedOut ? 'escrow-timeout' : this.accepted.has(note.denomination) ? 'host' : 'not-accepted';
        this.rejectPending = { note, reason };
        await this.ok([CMD.REJECT]);
        this.rejectPending = null;
        this.emit({ type: 'returned', note, reason });
        this.current = null;
        return true;
      }
      case EVENT.STACKING:
        if (this.current?.phase === 'stack-sent' && !this.stackingShown) {
          this.stackingShown = this.current.note.escrowId;
          this.emit({ type: 'stacking', note: this.current.note });
        }
        return true;
      case EVENT.CREDIT:
        return this.credit(ch, false);
      case EVENT.STACKED:
        this.emit({ type: 'stacked', ...(this.current ? { escrowId: this.current.note.escrowId } : {}) });
        if (this.current?.phase === 'credited') this.current = null;
        this.stackingShown = null;
        return true;
      case EVENT.REJECTING:
        return true;
      case EVENT.REJECTED:
        this.emit({ type: 'rejected', reason: 'note rejected by the validator' });
        if (this.current && this.current.phase !== 'credited') this.current = null;
        return true;
      case EVENT.CLEARED_FROM_FRONT: {
        const open = this.current && this.current.phase !== 'credited' ? this.current : null;
        this.emit({ type: 'powerUp', notePending: 'acceptor', ...(open ? { note: open.note } : {}), creditOwed: false });
        if (open) this.emit({ type: 'returned', note: open.note, reason: 'power-up' });
        this.current = null;
        return true;
      }
      case EVENT.CLEARED_INTO_CASHBOX: {
        const open = this.current && this.current.phase !== 'credited' ? this.current : null;
        this.emit({ type: 'powerUp', notePending: 'stacker', ...(open ? { note: open.note } : {}), creditOwed: this.current?.phase !== 'credited' });
        if (this.current?.phase === 'credited') {
          this.current = null;
          return true;
        }
        return this.credit(ch, true);
      }
      case EVENT.CASHBOX_REPLACED:
        return true;
      default:
        return true;
    }
  }

  private stackingShown: string | null = null;

  /** NOTE CREDIT / CLEARED INTO CASHBOX: credit once; false withholds the next (acknowledging) POLL. */
  private async credit(channel: number, recovered: boolean): Promise<boolean> {
    let flight: InFlight | null = this.current && this.current.phase !== 'credited' ? this.current : null;
    const value = channel > 0 ? this.channelValue(channel) : undefined;
    if (flight && channel > 0 && flight.note.code !== channel) flight = null;
    if (!flight) {
      if (value === undefined) {
        this.emit({ type: 'unvaluedCredit', reason: `credit on channel ${channel} with no known value`, code: channel });
        this.current = null;
        return true;
      }
      flight = { note: this.newNote(this.noteFor(channel, value)), phase: 'stack-sent' };
    }
    this.current = flight;
    const ok = await this.creditOnce(flight, recovered);
    if (ok && recovered) this.current = null;
    return ok;
  }
}
