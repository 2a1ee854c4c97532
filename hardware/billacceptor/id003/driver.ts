// Host side of JCM ID-003: polls STATUS REQUEST, configures the unit after power-up/INITIALIZE,
// decides escrowed notes, credits only at VEND VALID for a note it told to stack and acknowledges
// it only after the host's credit callback resolved. Every status report moves the note cycle
// through the table in transitions.ts, and a report the table does not allow is a
// `protocolViolation`, never a credit. Facts: docs/protocols/id003.md.
import { elapsedOf, sleep } from '../../clock.js';
import { bytesAscii } from '../../bytes.js';
import { FrameChannel, LinkLostError } from '../../link.js';
import type { BytePort, PortOpener } from '../../transport/byte-port.js';
import { id003Rx, id003Tx } from '../../wire-frame.js';
import { BillAcceptorBase } from '../base.js';
import { isFault, type Step } from '../note-phase.js';
import { NOTE_FACE_VALUES } from '../notes.js';
import type { BillAcceptorEvent, BillAcceptorOptions, EscrowedTicket } from '../types.js';
import { BAR_INHIBIT_NOTES_AND_TICKETS, BARCODE_I2OF5, BARCODE_LENGTH, CMD, ESCROW_CODE_FIRST, ESCROW_CODE_LAST, REJECT_REASONS, STATUS } from './constants.js';
import { Id003Parser, encodeId003, type Id003Frame } from './frame.js';
import { offerTicket, stepTicket, type TicketUnit } from './ticket-steps.js';
import { StackStall } from './stack-stall.js';
import { TicketCycle, classifyTicketEscrow, isTicketEscrow } from './tickets.js';
import { ID003_JOURNALLED_STACK, ID003_TRANSITIONS, classifyEscrow, describeStatus, id003ReportOf, type Id003Action, type Id003Report } from './transitions.js';

type ReturnReason = Extract<BillAcceptorEvent, { type: 'returned' }>['reason'];

/** A status report (0x11–0x1B, 0x40–0x4B), not an ACK or the echo of a setting or a request. */
function isStatus(f: Id003Frame): boolean {
  return (f.code >= STATUS.ENABLE && f.code <= STATUS.INITIALIZE) || (f.code >= STATUS.POWER_UP && f.code <= STATUS.INVALID_COMMAND);
}

export class Id003BillAcceptor extends BillAcceptorBase {
  readonly protocol = 'id003' as const;
  /** Escrow code → face value, from the unit's currency-assign table (or the default layout). */
  private table = new Map<number, number>();
  private ch: FrameChannel<Id003Frame> | null = null;
  private parser = new Id003Parser();
  private last: string | null = null;
  private configured = false;
  private appliedEnabled: boolean | null = null;
  private fault: number | null = null;
  /**
   * A reply was lost (a command retried) or the session is new since the last status report: the
   * unit may have moved on unseen, e.g. given one note back and taken another.
   */
  private gap = true;
  /**
   * The note of the cycle is known only from the journal (`pendingNote` with `stackSent`) until the
   * unit's first report of it this session: whether STACK ever reached the unit is not known, and
   * that report is read by ID003_JOURNALLED_STACK. SSP has no such rule: its events, lost with the
   * session, cannot tell a note given back from one stacked (docs/protocols/id003.md).
   */
  private stackFromJournal: boolean;
  /** Why the note of a `return-sent` cycle goes back (the host's reason, said when the unit takes RETURN). */
  private returnReason: ReturnReason = 'host';
  /** `options.lastTicket` until the unit's first report that is not a credit report (as the base's `lastCredit`). */
  private ticketBeforeStart: EscrowedTicket | null;
  /** The note whose STACKING was said (once per note). */
  private stackingShown: string | null = null;
  firmware: string | undefined;
  /** The barcode ticket's cycle, beside the note's (tickets.ts), and what its steps may do on the wire. */
  private readonly tickets: TicketCycle;
  private readonly ticketUnit: TicketUnit;
  /** A note told to stack or to go back whose command is not yet carried out (stack-stall.ts); the ticket's own watch is in ticketUnit. */
  private readonly stackStall: StackStall;

  constructor(opener: PortOpener, options: BillAcceptorOptions) {
    // Aristocrat polls every 150 ms and allows 50 ms per reply (more during initialisation); a
    // USB bridge adds its latency, hence 200 ms. Escrow auto-return after 5 s (GDS practice).
    super(opener, options, { pollIntervalMs: 150, replyTimeoutMs: 200, escrowTimeoutMs: 5000, stackTimeoutMs: 10_000 });
    this.stackFromJournal = options.pendingNote?.stackSent === true;
    this.ticketBeforeStart = options.pendingNote || options.pendingTicket ? null : (options.lastTicket ?? null);
    NOTE_FACE_VALUES[this.currency].forEach((v, i) => this.table.set(ESCROW_CODE_FIRST + i, v));
    this.tickets = new TicketCycle((e) => this.emit(e), options, options.pendingTicket);
    this.stackStall = new StackStall(this.clock, this.opts.stackTimeoutMs);
    this.ticketUnit = {
      cycle: this.tickets,
      stackStall: new StackStall(this.clock, this.opts.stackTimeoutMs),
      clock: this.clock,
      pollIntervalMs: this.opts.pollIntervalMs,
      escrowTimeoutMs: options.ticketEscrowTimeoutMs ?? 15_000,
      onTicket: options.onTicket,
      emit: (e) => this.emit(e),
      ack: () => this.ack(),
      operation: (code, written) => this.operation(code, written),
      reset: () => this.reset(),
      status: () => this.status(),
      offerNote: (code) => this.onEscrow(code, false),
    };
  }

  protected override settingsChanged(): void {
    this.configured = false;
  }

  // ── transactions ──────────────────────────────────────────────────────────
  /**
   * Sends a command and waits for its answer. ID-003 frames carry no sequence number, so a reply
   * that comes late (after a timeout, a slow bridge) can arrive while another request waits:
   * only a frame that can answer this request is taken (a status for STATUS REQUEST, the echo or
   * INVALID COMMAND for a setting or a request), the rest skipped.
   */
  private async transact(code: number, data: number[] = [], expect = true): Promise<Id003Frame | null> {
    const ch = this.ch;
    if (!ch) throw new LinkLostError();
    const answers = code === CMD.STATUS_REQUEST ? isStatus : (f: Id003Frame) => f.code === code || f.code === STATUS.INVALID_COMMAND;
    for (let attempt = 0; attempt < this.opts.retries; attempt++) {
      // A retry, or a frame no request was waiting for: the unit may have moved on unseen.
      const unasked = ch.clear();
      if (attempt > 0 || unasked > 0) this.gap = true;
      await ch.write(encodeId003(code, data));
      if (!expect) return null;
      const deadline = elapsedOf(this.clock) + this.opts.replyTimeoutMs;
      for (;;) {
        const f = await ch.next(Math.max(1, deadline - elapsedOf(this.clock)));
        if (!f) break;
        if (answers(f)) return f;
        this.gap = true;
      }
      this.parser.reset(); // a truncated reply must not swallow the next one
    }
    throw new LinkLostError(`ID-003: no valid reply to 0x${code.toString(16)} after ${this.opts.retries} attempts`);
  }

  private async status(): Promise<Id003Frame> {
    return (await this.transact(CMD.STATUS_REQUEST)) as Id003Frame;
  }

  /**
   * An operation command (STACK, RETURN, HOLD, RESET), answered ACK or INVALID COMMAND; any other
   * frame is a late reply to an earlier request and is skipped. INVALID COMMAND to the first
   * attempt is a refusal (the unit did not take it); to a retry it says nothing, since the first
   * attempt may have been taken and only its ACK lost.
   */
  private async operation(code: number, written?: () => void): Promise<'ack' | 'refused' | 'unsure'> {
    const ch = this.ch;
    if (!ch) throw new LinkLostError();
    for (let attempt = 0; attempt < this.opts.retries; attempt++) {
      // A retry, or a frame no request was waiting for: the unit may have moved on unseen.
      const unasked = ch.clear();
      if (attempt > 0 || unasked > 0) this.gap = true;
      const garbledBefore = this.parser.errors;
      await ch.write(encodeId003(code));
      if (attempt === 0) written?.();
      const deadline = elapsedOf(this.clock) + this.opts.replyTimeoutMs;
      for (;;) {
        const f = await ch.next(Math.max(1, deadline - elapsedOf(this.clock)));
        if (!f) break;
        if (f.code === CMD.ACK) return 'ack';
        // A garbled frame before it may have been this command's ACK, the INVALID COMMAND the
        // answer to a copy of it the wire duplicated: not a refusal the driver can rely on.
        if (f.code === STATUS.INVALID_COMMAND) return attempt === 0 && this.parser.errors === garbledBefore ? 'refused' : 'unsure';
        this.gap = true;
      }
      this.parser.reset();
    }
    throw new LinkLostError(`ID-003: no valid reply to 0x${code.toString(16)} after ${this.opts.retries} attempts`);
  }

  private async ack(): Promise<void> {
    await this.transact(CMD.ACK, [], false);
  }

  /** RESET after a POWER UP report; the unit then initialises (its reports start afresh). */
  private async reset(): Promise<void> {
    await this.operation(CMD.RESET);
    this.last = null;
    // The unit forgets its settings at RESET: configure again even if its INITIALIZE goes unseen.
    this.configured = false;
    this.appliedEnabled = null;
  }

  private async setting(code: number, data: number[]): Promise<void> {
    const r = await this.transact(code, data);
    if (!r || r.code !== code || Array.from(r.data).join() !== data.join()) {
      this.emit({ type: 'failure', reason: `ID-003 setting 0x${code.toString(16)} not echoed` });
    }
  }

  // ── session ───────────────────────────────────────────────────────────────
  protected async session(port: BytePort, signal: AbortSignal): Promise<void> {
    this.parser = new Id003Parser();
    this.ch = new FrameChannel(port, (b) => this.parser.push(b), this.clock, {
      tx: (bytes) => this.frame(() => id003Tx(bytes)),
      // The parser checked the CRC: the frame re-encodes to the bytes received.
      rx: (f) => this.frame(() => id003Rx(f, encodeId003(f.code, f.data))),
    });
    this.last = null;
    this.configured = false;
    this.appliedEnabled = null;
    this.gap = true;
    try {
      // A reply still on its way from before this session (a USB bridge's buffer, a slow unit) would
      // be taken for the answer to the first request: that first answer is not read as a report.
      await this.status();
      let first = true;
      while (!signal.aborted) {
        const s = await this.status();
        if (first) {
          first = false;
          this.link.markUp();
          // Ask for identity once per session; a failure here is not fatal.
          const v = await this.transact(CMD.GET_VERSION).catch(() => null);
          this.firmware = v?.code === CMD.GET_VERSION ? bytesAscii(v.data) : undefined;
          this.emit({ type: 'connected', protocol: 'id003', ...(this.firmware ? { firmware: this.firmware } : {}) });
        }
        await this.onStatus(s);
        await sleep(this.clock, this.opts.pollIntervalMs, signal);
      }
    } finally {
      this.ch.dispose();
      this.ch = null;
    }
  }

  private async configure(): Promise<void> {
    // Marked before the exchange, not after: a change of the accepted notes while it runs
    // (`settingsChanged`) unmarks it, and the next idle configures again (after, it was overwritten).
    this.configured = true;
    const ca = await this.transact(CMD.GET_CURRENCY_ASSIGN);
    if (ca?.code === CMD.GET_CURRENCY_ASSIGN && ca.data.length >= 4) {
      const table = new Map<number, number>();
      for (let i = 0; i + 3 < ca.data.length; i += 4) {
        const code = ca.data[i] ?? 0;
        const base = ca.data[i + 2] ?? 0;
        const exp = ca.data[i + 3] ?? 0;
        // Only a note of the table's currency: a code the unit values otherwise is refused as unknown.
        const value = base * 10 ** exp;
        if (code >= ESCROW_CODE_FIRST && code <= ESCROW_CODE_LAST && base > 0 && exp < 7 && NOTE_FACE_VALUES[this.currency].includes(value))
          table.set(code, value);
      }
      if (table.size > 0) this.adoptAssign(table);
    }
    // Denomination inhibit: bit n ↔ escrow code 0x61+n, 1 = disabled. A code the table does not
    // value (absent from the unit's currency assign, or valued at no note) is disabled too.
    let mask = 0;
    for (let code = ESCROW_CODE_FIRST; code <= ESCROW_CODE_LAST; code++) {
      const value = this.table.get(code);
      if (value === undefined || !this.accepted.has(value)) mask |= 1 << (code - ESCROW_CODE_FIRST);
    }
    await this.setting(CMD.SET_DENOMINATION, [mask & 0xff, (mask >> 8) & 0xff]);
    await this.setting(CMD.SET_SECURITY, [0, 0]);
    await this.setting(CMD.SET_COMMUNICATION_MODE, [0]); // polled
    if (this.opts.onTicket) {
      await this.setting(CMD.SET_BARCODE_FUNCTION, [BARCODE_I2OF5, BARCODE_LENGTH]);
      await this.setting(CMD.SET_BAR_INHIBIT, [BAR_INHIBIT_NOTES_AND_TICKETS]);
    }
    this.appliedEnabled = null;
  }

  /**
   * The unit's currency-assign table, held to the first one it reported while the host runs: a
   * code valued otherwise later (after a power-up or reset) is a `dataset-changed` violation and
   * takes no note until the host restarts, so a unit that says 0x61 (the 10 note) is now worth 1000
   * credits nothing for it. A unit that lies so from its first report agrees with everything the
   * host saw: the drop count catches that (docs/security.md, "A hostile SSP dataset").
   */
  private adoptAssign(table: Map<number, number>): void {
    const first = this.firstAssign;
    if (!first) {
      this.firstAssign = new Map(table);
      this.table = table;
      return;
    }
    const changed = [...table].filter(([code, v]) => first.get(code) !== v);
    for (const [code] of changed) this.distrusted.add(code);
    for (const code of this.distrusted) table.delete(code);
    this.table = table;
    const key = [...changed].map(([c, v]) => `${c}:${v}`).join(',');
    if (changed.length === 0 || key === this.reportedAssign) return;
    this.reportedAssign = key;
    this.violation(
      'dataset-changed',
      `CURRENCY ASSIGN ${changed.map(([c, v]) => `code 0x${c.toString(16)} = ${v} (first reported ${first.get(c) ?? 'no note'})`).join(', ')}`,
    );
  }

  /** The first currency-assign table the unit reported. */
  private firstAssign: Map<number, number> | null = null;
  /** Escrow codes whose value the unit's word cannot settle (changed): no note is taken on them. */
  private readonly distrusted = new Set<number>();
  /** The last change a violation was reported for (said once, not at every configuration). */
  private reportedAssign = '';

  private async applyEnable(): Promise<void> {
    if (this.appliedEnabled === this.wantEnabled) return;
    // What the unit was sent is what it holds: `enable()`/`disable()` may change the wish while the
    // command is on the wire, and the next poll must then send it (not take it for applied).
    const sent = this.wantEnabled;
    await this.setting(CMD.SET_INHIBIT, [sent ? 0 : 1]);
    this.appliedEnabled = sent;
  }

  private async onStatus(s: Id003Frame): Promise<void> {
    const key = `${s.code}:${Array.from(s.data).join(',')}`;
    const changed = key !== this.last;
    this.last = key;

    if (changed) {
      const wasFault = this.fault !== null;
      this.fault = s.code >= STATUS.STACKER_FULL && s.code <= STATUS.FAILURE ? s.code : null;
      if (wasFault && this.fault === null) this.emit({ type: 'faultCleared' });
    }

    const code = s.data[0] ?? 0;
    if (changed && s.code === STATUS.REJECTING) this.emit({ type: 'rejected', reason: REJECT_REASONS[code] ?? `reject code 0x${code.toString(16)}`, code });
    // A ticket's cycle, while it lasts, reads every report; otherwise the note's (which hands a ticket in escrow over).
    const t = this.tickets;
    const ticket = t.active;
    const report = id003ReportOf(s.code, () =>
      ticket
        ? classifyTicketEscrow(t.phase, t.ticket, s.data, this.gap)
        : classifyEscrow(this.cycle.phase, this.cycle.note, { code, value: this.table.get(code) }, this.gap),
    );
    this.gap = false;
    if (report && ticket) await stepTicket(this.ticketUnit, report, s, changed);
    else if (report) await this.step(report, s, changed);
    else if (changed) await this.onOtherStatus(s);

    if (s.code === STATUS.ENABLE || s.code === STATUS.DISABLE) {
      // Idle otherwise than asked, a poll after the inhibit was applied: the unit lost it (a reset
      // it did not report), so it is sent again.
      if (!changed && this.appliedEnabled === this.wantEnabled && (s.code === STATUS.ENABLE) !== this.wantEnabled) this.appliedEnabled = null;
      if (!this.configured) await this.configure(); // first idle, or setAccepted() changed the inhibits
      await this.applyEnable();
      if (changed) this.emit({ type: 'idle', enabled: s.code === STATUS.ENABLE });
    }
  }

  /** A note told to stack or to go back whose command is still not carried out past the stack timeout (stack-stall.ts): a violation. */
  private stalled(cell: Step<Id003Action>, s: Id003Frame): boolean {
    const broken = this.stackStall.check(this.cycle.phase, cell);
    if (broken) this.violation(broken.rule, `${describeStatus(s)}, ${broken.after}`);
    return broken !== null;
  }

  /** One report through the transition table. Reports that wait for an answer (VEND VALID, POWER UP, ESCROW) are acted on every time. */
  private async step(report: Id003Report, s: Id003Frame, changed: boolean): Promise<void> {
    if (await this.repeatOfLastCredit(report, changed)) return;
    const journalled = this.stackFromJournal ? ID003_JOURNALLED_STACK[report] : undefined;
    this.stackFromJournal = false;
    const cell = journalled ?? ID003_TRANSITIONS[this.cycle.phase][report];
    if (this.stalled(cell, s)) return;
    if (isFault(cell)) {
      if (report.startsWith('power-up')) this.powerUpEvent(report, changed, false);
      this.violation(cell.fault, describeStatus(s));
      // What the protocol still asks of the host: VEND VALID acknowledged (or it repeats for
      // ever; the note is past the point of no return), a claimed note given back, a RESET.
      if (report === 'vend-valid') await this.ack();
      else if (report.startsWith('escrow')) await this.operation(CMD.RETURN);
      else if (report.startsWith('power-up')) await this.reset();
      return;
    }
    const note = this.cycle.note;
    switch (cell) {
      case 'none':
        return;
      case 'offer':
        return this.offer(s, report === 'escrow-same');
      case 'replace':
        // The note of the cycle went back unseen, unless it was credited: that one is in the cashbox.
        if (this.cycle.phase !== 'credited') this.noteReturned('device');
        this.enter('idle');
        return this.offer(s, false);
      case 'stack-again':
        return this.sendStack();
      case 'return-again':
        return this.sendReturn();
      case 'credit':
        if (await this.creditOnce(false)) await this.ack();
        return;
      case 'ack':
        return this.ack();
      case 'stacking':
        if (note && this.stackingShown !== note.escrowId) {
          this.stackingShown = note.escrowId;
          this.emit({ type: 'stacking', note });
        }
        return;
      case 'stacked':
        if (changed) this.emit({ type: 'stacked', ...(note ? { escrowId: note.escrowId } : {}) });
        return;
      case 'returning':
        this.noteReturned('device');
        this.enter('return-sent');
        return;
      case 'settle':
        // Back at idle: a note never told to stack (or told to go back) went back.
        if (this.cycle.phase === 'escrow' || this.cycle.phase === 'return-sent') this.noteReturned('device');
        this.enter('idle');
        return;
      case 'journal-returned':
        this.noteReturned('device');
        this.enter('idle');
        return;
      case 'power-up-return':
        this.powerUpEvent(report, changed, false);
        this.noteReturned('power-up');
        this.enter('idle');
        return this.reset();
      case 'recover-credit':
        this.powerUpEvent(report, changed, true);
        // The credit is journalled before RESET; if it fails, the report repeats and it is tried again.
        if (!(await this.creditOnce(true))) return;
        this.enter('idle');
        return this.reset();
      case 'unvalued':
        this.powerUpEvent(report, changed, true);
        if (changed) this.emit({ type: 'unvaluedCredit', reason: 'power-up with a bill in the stacker and no escrow on record', code: s.code });
        return this.reset();
      case 'power-up':
        this.powerUpEvent(report, changed, false);
        this.enter('idle');
        return this.reset();
    }
  }

  /**
   * A report among the unit's first that repeats the credit journalled before a restart
   * (`lastCredit`, or the ticket stacked last, `lastTicket`): VEND VALID is acknowledged; POWER UP WITH BILL IN STACKER (its VEND VALID
   * unacknowledged when the power went, the host's with it) is that note, owed nothing and valued by
   * the journal, and RESET. Nothing is credited. False when the report is no such repeat.
   */
  private async repeatOfLastCredit(report: Id003Report, changed: boolean): Promise<boolean> {
    const creditReport = report === 'vend-valid' || report === 'power-up-stacker';
    const note = this.repeatsCreditBeforeStart(creditReport);
    // The ticket stacked last, when the host's last word at this unit was a ticket's.
    const ticket = creditReport && this.cycle.phase === 'idle' ? this.ticketBeforeStart : null;
    if (!creditReport) this.ticketBeforeStart = null;
    if (!note && !ticket) return false;
    if (report === 'vend-valid') {
      await this.ack();
      return true;
    }
    if (changed) this.emit({ type: 'powerUp', notePending: 'stacker', ...(ticket ? { ticket } : note ? { note } : {}), creditOwed: false });
    await this.reset();
    return true;
  }

  /** A new item in escrow: a ticket (0x6F) takes the ticket's path, a note the note's. */
  private offer(s: Id003Frame, same: boolean): Promise<void> {
    return isTicketEscrow(s.data) ? offerTicket(this.ticketUnit, s.data, false) : this.onEscrow(s.data[0] ?? 0, same);
  }

  /** The POWER UP report, said once, with the note of the cycle if there is one. */
  private powerUpEvent(report: Id003Report, changed: boolean, creditOwed: boolean): void {
    if (!changed) return;
    const notePending = report === 'power-up-stacker' ? 'stacker' : report === 'power-up-acceptor' ? 'acceptor' : 'none';
    const note = this.cycle.note;
    this.emit({ type: 'powerUp', notePending, ...(note ? { note } : {}), creditOwed });
  }

  /** Reports outside the note cycle: faults and initialisation, acted on when they change. */
  private async onOtherStatus(s: Id003Frame): Promise<void> {
    switch (s.code) {
      case STATUS.INITIALIZE:
        await this.configure();
        return;
      case STATUS.STACKER_FULL:
        this.emit({ type: 'stackerFull' });
        return;
      case STATUS.STACKER_OPEN:
        this.emit({ type: 'stackerRemoved' });
        return;
      case STATUS.JAM_IN_ACCEPTOR:
      case STATUS.JAM_IN_STACKER: {
        const t = this.tickets;
        if (t.phase === 'escrow' || t.phase === 'stack-sent' || t.phase === 'return-sent') {
          // A jammed ticket is the technician's (the jam names it); the host never hears it stacked.
          this.emit({ type: 'jam', where: s.code === STATUS.JAM_IN_STACKER ? 'stacker' : 'acceptor', ...(t.ticket ? { ticket: t.ticket } : {}) });
          t.enter('idle');
          return;
        }
        const { phase, note } = this.cycle;
        const inPath = phase === 'escrow' || phase === 'stack-sent' || phase === 'return-sent';
        this.emit({ type: 'jam', where: s.code === STATUS.JAM_IN_STACKER ? 'stacker' : 'acceptor', ...(inPath && note ? { note } : {}) });
        // A jammed note is the technician's to resolve (the jam event names it); no credit.
        if (inPath) this.enter('idle');
        return;
      }
      case STATUS.CHEATED:
        this.emit({ type: 'cheated' });
        return;
      case STATUS.PAUSE:
        this.emit({ type: 'failure', reason: 'paused (second note inserted during processing)' });
        return;
      case STATUS.FAILURE: {
        const code = s.data[0];
        this.emit({ type: 'failure', reason: `device failure${code === undefined ? '' : ` 0x${code.toString(16)}`}`, ...(code === undefined ? {} : { code }) });
        return;
      }
      default:
        return;
    }
  }

  /** A note in escrow: the same one asked about again, or a new one. The host journals it and decides. */
  private async onEscrow(code: number, same: boolean): Promise<void> {
    const value = this.table.get(code);
    if (value === undefined) {
      this.emit({ type: 'rejected', reason: `unknown escrow code 0x${code.toString(16)}`, code });
      await this.operation(CMD.RETURN);
      return;
    }
    const note = same && this.cycle.note ? this.cycle.note : this.newNote(this.noteFor(code, value));
    this.enter('escrow', note, false);
    this.emit({ type: 'escrowed', note });
    // While the host decides, HOLD keeps the note in escrow and the link under watch.
    const decided = this.decide(note);
    let done = false;
    void decided.finally(() => (done = true));
    while (!done) {
      await sleep(this.clock, this.opts.pollIntervalMs);
      if (!done) await this.operation(CMD.HOLD);
    }
    const { decision, timedOut } = await decided;
    if (decision === 'stack') return this.sendStack();
    this.returnReason = timedOut ? 'escrow-timeout' : this.accepted.has(note.denomination) ? 'host' : 'not-accepted';
    this.enter('return-sent', note, false);
    return this.sendReturn();
  }

  /**
   * STACK-1 for the note of the cycle. Whatever the answer, the cycle is then `stack-sent`: an
   * INVALID COMMAND may answer a copy of STACK the wire duplicated, the ACK of the first lost
   * without a trace (hostile campaign seeds 2402 and 2211, no lie told: read as a refusal, the
   * unit's STACKING was a false credit-without-stack). The unit's own reports say what it did: the
   * note still in escrow is told STACK again (`stack-again`); stacked, it is credited, the host
   * having told it to stack; another note in escrow is `escrow-changed`.
   */
  private async sendStack(): Promise<void> {
    // Stack-sent once STACK is on the wire (the host journalled the escrow in onEscrow), not before:
    // a link lost before it was written leaves the note in escrow, so a credit reported after the
    // reconnect is credit-without-stack, not this note's (hostile campaign seed 2604: a VEND VALID
    // lie after the cable went before STACK was written was credited, the note given back).
    await this.operation(CMD.STACK_1, () => this.enter('stack-sent'));
  }

  /** RETURN for the note of the cycle (or a note offered during a dispute); said returned once the unit takes it. */
  private async sendReturn(): Promise<void> {
    const r = await this.operation(CMD.RETURN);
    if (r === 'ack' && this.cycle.phase === 'return-sent') this.noteReturned(this.returnReason);
  }
}
