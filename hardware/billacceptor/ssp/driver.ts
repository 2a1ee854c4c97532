// Host side of ITL SSP for a note validator: SYNC, protocol version (negotiated downward), serial
// number, SETUP REQUEST (channel values), SET INHIBITS, ENABLE, then POLL. The sequence flag is
// toggled only after a valid reply and a retry reuses it, so a lost reply is answered again by the
// validator and no event is lost. Credit at NOTE CREDIT (0xEE) only, for the note the host let the
// validator take; the next POLL, which acknowledges it, is sent after the host's credit callback
// resolved. Every note event moves the note cycle through the table in transitions.ts, and one the
// table does not allow is a `protocolViolation`, never a credit. Facts: docs/protocols/ssp.md.
import { elapsedOf, sleep } from '../../clock.js';
import { FrameChannel, LinkLostError } from '../../link.js';
import type { BytePort, PortOpener } from '../../transport/byte-port.js';
import { sspRx, sspTx } from '../../wire-frame.js';
import { BillAcceptorBase } from '../base.js';
import { isFault, type Phase } from '../note-phase.js';
import type { BillAcceptorEvent, BillAcceptorOptions, EscrowedNote } from '../types.js';
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
import { SspDataset } from './dataset.js';
import { SspParser, encodeSsp, type SspFrame } from './frame.js';
import { SSP_TRANSITIONS, sspReportOf, type SspReport } from './transitions.js';

type ReturnReason = Extract<BillAcceptorEvent, { type: 'returned' }>['reason'];

const EVENT_NAMES = new Map<number, string>(Object.entries(EVENT).map(([k, v]) => [v, k.replaceAll('_', ' ')]));

/** The event as a violation names it. */
function describe(e: SspEvent | null): string {
  if (!e) return 'a POLL reply with no note event';
  return `${EVENT_NAMES.get(e.code) ?? 'event'} 0x${e.code.toString(16)}${e.data.length ? ` channel ${e.data[0]}` : ''}`;
}

const hex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join(' ');
const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

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
  /**
   * The table's dataset: the face value (major units) of each channel, channel 1 first, as the
   * validator was set up. A channel the validator's SETUP REQUEST values otherwise takes no note
   * (inhibited, refused if read) and is a `dataset-mismatch` violation. Without it, the first
   * dataset the validator reports is the one it is held to.
   */
  dataset?: readonly number[];
}

export class SspBillAcceptor extends BillAcceptorBase {
  readonly protocol = 'ssp' as const;
  private readonly address: number;
  private ch: FrameChannel<SspFrame> | null = null;
  private parser = new SspParser();
  private flag = 0;
  private readonly dataset: SspDataset;
  private serial: number | null = null;
  private needSetup = true;
  private appliedEnabled: boolean | null = null;
  private lastFaults = new Set<number>();
  private lastIdle: boolean | null = null;
  private lastBytes: Uint8Array | null = null;

  constructor(opener: PortOpener, options: SspOptions) {
    // GA973: poll every 200–1000 ms; 1 s reply timeout; the validator rejects an escrowed note
    // after 10 s without a command, so HOLD is sent while the host decides.
    super(opener, options, { pollIntervalMs: 200, replyTimeoutMs: 1000, escrowTimeoutMs: 8000, stackTimeoutMs: 10_000 });
    this.address = options.address ?? 0;
    this.dataset = new SspDataset(this.currency, options.dataset ?? null);
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
    this.judgeLateReplies();
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
      else {
        this.emit({ type: 'failure', reason: 'SSP: the reply to a POLL was never received before SYNC; a note may be stacked uncredited' });
        // A note whose READ was in that reply may sit in escrow, and the first POLL would take it.
        this.rejectUnseen = true;
      }
    };
    this.heard = false;
    try {
      for (let attempt = 0; attempt < this.opts.retries; attempt++) {
        ch.clear();
        await ch.write(bytes);
        const deadline = elapsedOf(this.clock) + this.opts.replyTimeoutMs;
        while (elapsedOf(this.clock) < deadline) {
          const f = await ch.next(Math.max(1, deadline - elapsedOf(this.clock)));
          if (!f) break;
          if (f.seqId !== seqId) {
            this.judgeLate(f); // a late reply to an earlier packet: the same again, or a second answer to it
            continue;
          }
          let reply: Uint8Array | null = f.data;
          if (reply[0] === STEX)
            reply = this.essp?.unwrap(reply) ?? null; // wrong key/count: not ours
          // Once a key is agreed the validator answers encrypted only: a reply in clear is someone
          // else's (a machine in the middle of a relayed link forging events: tests/security/essp-forgery.test.ts).
          else if (this.essp) reply = null;
          if (!reply) continue;
          this.flag = (seqId & SEQ_BIT) ^ SEQ_BIT;
          this.lastReply = this.essp || data[0] !== CMD.POLL ? null : f;
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

  /**
   * The clear reply taken for the last packet, when that packet was a POLL. The validator answers
   * each packet once (a re-sent packet gets the same bytes again), so a second, different reply
   * with its sequence flag means one of the two is not the validator's answer: an old reply
   * replayed with its flag matching by chance, or a forged one. If the host took the false one, the
   * true one's events are unseen (a note in escrow the next POLL would take, a READ whose value a
   * later lie could restate): found by the hostile fuzz, seed 5098
   * (tests/security/hostile-acceptor.test.ts). Only a POLL's reply is held to this: SYNC restarts the
   * flag at 1, so an honest validator's repeat of the POLL before it (a packet duplicated on the
   * wire) can carry SYNC's flag and be taken as its answer, the true one following (the fuzz's
   * honest cases, seed 6001); that costs no event, a POLL's does. eSSP needs no such check: a reply
   * whose count was used is refused by the session.
   */
  private lastReply: SspFrame | null = null;
  /** A conflict was found: REJECT before the next POLL, whatever may sit in escrow unseen. */
  private conflictSeen = false;

  private judgeLateReplies(): void {
    for (const f of this.ch?.pending() ?? []) this.judgeLate(f);
  }

  private judgeLate(f: SspFrame): void {
    const taken = this.lastReply;
    if (!taken || f.seqId !== taken.seqId || sameBytes(f.data, taken.data)) return;
    this.lastReply = null; // said once per packet
    this.conflictSeen = true;
    this.violation('reply-conflict', `two replies to one packet: ${hex(taken.data)}, then ${hex(f.data)}`);
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
        tx: (bytes) => this.frame(() => sspTx(bytes)),
        rx: (f) => this.frame(() => sspRx(f.data)),
      },
    );
    this.needSetup = true;
    this.appliedEnabled = null;
    this.lastBytes = null;
    this.lastReply = null;
    this.conflictSeen = false;
    this.lastFaults = new Set();
    this.lastIdle = null;
    try {
      await this.recoverUnansweredPoll();
      this.essp = null; // a new session negotiates a new key (eCOUNT restarts)
      await this.transact([CMD.SYNC], { sync: true });
      if (this.needsKey && this.encryption !== 'never') await this.keyExchange();
      this.link.markUp();
      await this.setup();
      this.gap = true;
      await this.resumeCycle();
      this.emit({ type: 'connected', protocol: 'ssp', ...(this.serial !== null ? { serial: String(this.serial) } : {}) });
      let repeat = false;
      while (!signal.aborted) {
        if (this.needSetup) await this.setup();
        if (this.appliedEnabled !== this.wantEnabled) {
          // What the validator was sent is what it holds: `enable()`/`disable()` while the command is
          // on the wire leaves the other wish to send at the next turn (taken for applied, a
          // disable then was never sent, and an enabled validator reports nothing that would say so).
          const sent: boolean = this.wantEnabled;
          if (await this.ok([sent ? CMD.ENABLE : CMD.DISABLE])) this.appliedEnabled = sent;
        }
        this.judgeLateReplies();
        if (this.conflictSeen) {
          // The POLL would take a note the true reply may have said was in escrow.
          this.conflictSeen = false;
          await this.transact([CMD.REJECT]);
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
  /** A POLL reply was lost for good: REJECT before the next POLL, whatever may sit in escrow unseen. */
  private rejectUnseen = false;
  /** The session is new since the last POLL reply (SYNC sent): a note may have come and gone unseen. */
  private gap = true;
  /** Why the note of a `return-sent` cycle goes back. */
  private returnReason: ReturnReason = 'host';
  /** Since when polls have been quiet while a note taken to the stacker waits for its credit. */
  private quietSince: number | null = null;

  /**
   * What a new session must settle before its first POLL, which would take any note in escrow
   * (SSP's POLL accepts an escrowed note): a note the host was still deciding about is asked about
   * again (HOLD meanwhile); a note the host refused whose REJECT the link lost is rejected again
   * (found by the drivers' model-based fuzz, tests/fuzz/drivers.ts); and after a POLL reply lost
   * for good, whatever sits in escrow unseen is rejected. A REJECT with nothing in escrow is
   * answered "cannot process", which changes nothing.
   */
  private async resumeCycle(): Promise<void> {
    const { phase, note, returnEmitted } = this.cycle;
    if (phase === 'escrow' && note) await this.decideHeld(note);
    else if (phase === 'return-sent' && !returnEmitted) await this.sendReject();
    if (this.rejectUnseen) {
      await this.transact([CMD.REJECT]);
      this.rejectUnseen = false;
    }
  }

  private async setup(): Promise<void> {
    // Down before the exchange, not after: a change of the accepted notes or a SLAVE RESET while it
    // runs raises it again, and the next turn sets up again (after, it overwrote them).
    this.needSetup = false;
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
      this.dataset.adopt(info.channels, (rule, report) => this.violation(rule, report));
    }
    const mask = this.dataset.inhibitMask(this.accepted);
    await this.ok([CMD.SET_INHIBITS, mask & 0xff, (mask >> 8) & 0xff]);
    this.appliedEnabled = null; // inhibits and enable do not survive a reset: always re-send
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
      // The validator sends only the events of the version set up: a reply that cannot be read
      // hides whatever else it said (a NOTE CREDIT after the unknown event). Said as a violation
      // (the host stops the station; the drop count settles a note whose credit was lost), never
      // a silent loss. The cycle is left as it was: the reply credited nothing, and a credit the
      // validator reports again later is still judged by the table.
      this.emit({
        type: 'protocolViolation',
        rule: 'unreadable-report',
        report: `POLL reply ${hex(reply)}`,
      });
      return true;
    }
    const faults = new Set<number>();
    let idle = true;
    let noteEvents = 0;
    // A note the host told to stack during this reply is taken by the next POLL, not before: the
    // reply's later events (NOTE CREDIT after the READ that offered it, in one reply) are judged
    // as the validator's while the note still waited in escrow.
    let stackNotPolled = false;
    // The clearing events (NOTE CLEARED FROM FRONT / INTO CASHBOX) belong to the validator's reset
    // routine: the first reply of a session, or after SLAVE RESET in the same reply. Anywhere else
    // they are the validator's word for a note it says it cleared without a reset: a violation,
    // never a recovered credit (hostile campaign seed 1322: a mid-session CLEARED INTO CASHBOX,
    // channel 0, credited a 20 that was never there, a 10 in the cashbox).
    let resetNow = this.gap;
    for (const e of events) {
      if (e.code === EVENT.SLAVE_RESET) resetNow = true;
      if ((e.code === EVENT.CLEARED_INTO_CASHBOX || e.code === EVENT.CLEARED_FROM_FRONT) && !resetNow) {
        noteEvents++;
        this.violation('clearing-without-reset', describe(e));
        continue;
      }
      if (FAULT_EVENTS.has(e.code)) faults.add(e.code);
      if (e.code !== EVENT.DISABLED && e.code !== EVENT.CASHBOX_REPLACED) idle = false;
      if (e.code === EVENT.SLAVE_RESET) this.needSetup = true; // inhibits and enable are lost at a reset (field report: re-send them)
      if (e.code === EVENT.REJECTED) this.emit({ type: 'rejected', reason: 'note rejected by the validator' });
      const phase = stackNotPolled && this.cycle.phase === 'stack-sent' ? 'escrow' : this.cycle.phase;
      const taken = this.cycle.note !== null && this.stackingShown === this.cycle.note.escrowId;
      const report = sspReportOf(e, phase, this.cycle.note, (ch) => this.dataset.valueOf(ch), this.gap, taken);
      if (!report) continue;
      noteEvents++;
      const before = this.cycle.phase;
      if (!(await this.step(report, e, phase))) return false;
      if (before !== 'stack-sent' && this.cycle.phase === 'stack-sent') stackNotPolled = true;
    }
    if (noteEvents === 0 && !(await this.step('quiet', null))) return false;
    this.gap = false;
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
      const { phase, note } = this.cycle;
      const inPath = phase === 'escrow' || phase === 'stack-sent' || phase === 'return-sent';
      this.emit({ type: 'jam', where: 'unknown', ...(inPath && note ? { note } : {}) });
      // After STACKING the validator had the note: it may be in the cashbox with its NOTE CREDIT
      // lost (a reply lost for good), so the jam is its word against the cashbox and the note's
      // credit is disputed, settled by the drop count, not left to the technician in silence
      // (found analysing the hostile fuzz's seed 704). Before STACKING a jammed note is the
      // technician's to resolve (the jam event names it); no credit either way.
      if (phase === 'stack-sent' && note && this.stackingShown === note.escrowId)
        this.violation('jammed-while-stacking', `${EVENT_NAMES.get(code) ?? 'jam'} 0x${code.toString(16)} after STACKING`);
      else if (inPath) this.enter('idle');
    } else if (code === EVENT.STACKER_FULL) this.emit({ type: 'stackerFull' });
    else if (code === EVENT.CASHBOX_REMOVED) this.emit({ type: 'stackerRemoved' });
    else if (code === EVENT.FRAUD) this.emit({ type: 'cheated' });
    else if (code === EVENT.NOTE_PATH_OPEN) this.emit({ type: 'failure', reason: 'note path open' });
  }

  /** One note event through the transition table; false withholds the next (acknowledging) POLL. */
  private async step(report: SspReport, e: SspEvent | null, phase: Phase = this.cycle.phase): Promise<boolean> {
    const cell = SSP_TRANSITIONS[phase][report];
    if (report !== 'quiet') this.quietSince = null;
    if (isFault(cell)) {
      if (report.startsWith('cleared')) this.powerUpEvent(report, false);
      this.violation(cell.fault, describe(e));
      // A note the validator claims in escrow is rejected (the next POLL would take it).
      if (report.startsWith('read-')) await this.transact([CMD.REJECT]);
      return true;
    }
    const note = this.cycle.note;
    const ch = e?.data[0] ?? 0;
    switch (cell) {
      case 'none':
        return true;
      case 'offer':
        await this.onRead(ch, report === 'read-same');
        return true;
      case 'replace':
        // The note of the cycle went back unseen, unless it was credited: that one is in the cashbox.
        if (this.cycle.phase !== 'credited') this.noteReturned('device');
        this.enter('idle');
        await this.onRead(ch, false);
        return true;
      case 'reject-again':
        await this.sendReject();
        return true;
      case 'credit':
        return this.creditOnce(false);
      case 'stacking':
        if (note && this.stackingShown !== note.escrowId) {
          this.stackingShown = note.escrowId;
          this.emit({ type: 'stacking', note });
        }
        return true;
      case 'stacked':
        this.emit({ type: 'stacked', ...(note ? { escrowId: note.escrowId } : {}) });
        this.enter('idle');
        return true;
      case 'returning':
        this.noteReturned('device');
        this.enter('return-sent');
        return true;
      case 'settle':
        if (this.cycle.phase === 'escrow' || this.cycle.phase === 'stack-sent' || this.cycle.phase === 'return-sent') this.noteReturned('device');
        this.enter('idle');
        return true;
      case 'power-up-return':
        this.powerUpEvent(report, false);
        this.noteReturned('power-up');
        this.enter('idle');
        return true;
      case 'recover-credit':
        this.powerUpEvent(report, true);
        if (!(await this.creditOnce(true))) return false;
        this.enter('idle');
        return true;
      case 'unvalued':
        this.powerUpEvent(report, true);
        this.emit({ type: 'unvaluedCredit', reason: `note cleared into the cashbox on channel ${ch} with no escrow on record`, code: ch });
        return true;
      case 'power-up':
        this.powerUpEvent(report, false);
        this.enter('idle');
        return true;
      case 'watch': {
        const now = elapsedOf(this.clock);
        this.quietSince ??= now;
        if (now - this.quietSince >= this.opts.stackTimeoutMs) {
          this.quietSince = null;
          this.violation('note-vanished', `${describe(null)} for ${this.opts.stackTimeoutMs} ms after the note was taken to the stacker`);
        }
        return true;
      }
    }
  }

  /** The power-up clearing event, with the note of the cycle if there is one. */
  private powerUpEvent(report: SspReport, creditOwed: boolean): void {
    const note = this.cycle.note;
    this.emit({ type: 'powerUp', notePending: report === 'cleared-front' ? 'acceptor' : 'stacker', ...(note ? { note } : {}), creditOwed });
  }

  private stackingShown: string | null = null;

  /** READ with a channel: a note in escrow, the same one asked about again or a new one. */
  private async onRead(ch: number, same: boolean): Promise<void> {
    const value = this.dataset.valueOf(ch);
    if (value === undefined) {
      this.emit({ type: 'rejected', reason: `unknown channel ${ch}`, code: ch });
      await this.transact([CMD.REJECT]);
      return;
    }
    const note = same && this.cycle.note ? this.cycle.note : this.newNote(this.noteFor(ch, value));
    this.enter('escrow', note, false);
    this.emit({ type: 'escrowed', note });
    await this.decideHeld(note);
  }

  /** The host decides about the note in escrow while HOLD keeps it there (a plain POLL would accept it). */
  private async decideHeld(note: EscrowedNote): Promise<void> {
    const decided = this.decide(note);
    let done = false;
    void decided.finally(() => (done = true));
    while (!done) {
      await sleep(this.clock, Math.min(this.opts.pollIntervalMs, 500));
      if (!done) await this.transact([CMD.HOLD]);
    }
    const { decision, timedOut } = await decided;
    if (decision === 'stack') {
      this.enter('stack-sent'); // the next POLL accepts it
      return;
    }
    this.returnReason = timedOut ? 'escrow-timeout' : this.accepted.has(note.denomination) ? 'host' : 'not-accepted';
    this.enter('return-sent', note, false);
    await this.sendReject();
  }

  /**
   * REJECT for the note of the cycle (or one offered during a dispute). Said returned once the
   * validator takes it; if the link goes first, the next session rejects it again before its
   * first POLL (resumeCycle).
   */
  private async sendReject(): Promise<void> {
    const r = await this.transact([CMD.REJECT]);
    if (r[0] === RESP.OK && this.cycle.phase === 'return-sent') this.noteReturned(this.returnReason);
  }
}
