// Host side of JCM ID-003: polls STATUS REQUEST, configures the unit after power-up/INITIALIZE,
// decides escrowed notes, credits only at VEND VALID and acknowledges it only after the host's
// credit callback resolved. States are handled on change only, so a repeated VEND VALID (lost
// ACK, retried poll) never credits twice. Facts: docs/protocols/id003.md.
import { sleep } from '../../clock.js';
import { bytesAscii } from '../../bytes.js';
import { FrameChannel, LinkLostError } from '../../link.js';
import type { BytePort, PortOpener } from '../../transport/byte-port.js';
import { id003Rx, id003Tx } from '../../wire-frame.js';
import { BillAcceptorBase } from '../base.js';
import { NOTE_FACE_VALUES } from '../notes.js';
import type { BillAcceptorOptions, EscrowedNote } from '../types.js';
import { CMD, ESCROW_CODE_FIRST, ESCROW_CODE_LAST, REJECT_REASONS, STATUS } from './constants.js';
import { Id003Parser, encodeId003, type Id003Frame } from './frame.js';

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
  firmware: string | undefined;

  constructor(opener: PortOpener, options: BillAcceptorOptions) {
    // Aristocrat polls every 150 ms and allows 50 ms per reply (more during initialisation); a
    // USB bridge adds its latency, hence 200 ms. Escrow auto-return after 5 s (GDS practice).
    super(opener, options, { pollIntervalMs: 150, replyTimeoutMs: 200, escrowTimeoutMs: 5000 });
    NOTE_FACE_VALUES[this.currency].forEach((v, i) => this.table.set(ESCROW_CODE_FIRST + i, v));
  }

  protected override settingsChanged(): void {
    this.configured = false;
  }

  // ── transactions ──────────────────────────────────────────────────────────
  private async transact(code: number, data: number[] = [], expect = true): Promise<Id003Frame | null> {
    const ch = this.ch;
    if (!ch) throw new LinkLostError();
    for (let attempt = 0; attempt < this.opts.retries; attempt++) {
      ch.clear();
      await ch.write(encodeId003(code, data));
      if (!expect) return null;
      const f = await ch.next(this.opts.replyTimeoutMs);
      if (f) return f;
      this.parser.reset(); // a truncated reply must not swallow the next one
    }
    throw new LinkLostError(`ID-003: no valid reply to 0x${code.toString(16)} after ${this.opts.retries} attempts`);
  }

  private async status(): Promise<Id003Frame> {
    return (await this.transact(CMD.STATUS_REQUEST)) as Id003Frame;
  }

  private async operation(code: number): Promise<boolean> {
    const r = await this.transact(code);
    return r?.code === CMD.ACK;
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
      tx: (bytes) => this.frame(id003Tx(bytes)),
      // The parser checked the CRC: the frame re-encodes to the bytes received.
      rx: (f) => this.frame(id003Rx(f, encodeId003(f.code, f.data))),
    });
    this.last = null;
    this.configured = false;
    this.appliedEnabled = null;
    try {
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
    const ca = await this.transact(CMD.GET_CURRENCY_ASSIGN);
    if (ca?.code === CMD.GET_CURRENCY_ASSIGN && ca.data.length >= 4) {
      const table = new Map<number, number>();
      for (let i = 0; i + 3 < ca.data.length; i += 4) {
        const code = ca.data[i] ?? 0;
        const base = ca.data[i + 2] ?? 0;
        const exp = ca.data[i + 3] ?? 0;
        if (code >= ESCROW_CODE_FIRST && code <= ESCROW_CODE_LAST && base > 0 && exp < 7) table.set(code, base * 10 ** exp);
      }
      if (table.size > 0) this.table = table;
    }
    // Denomination inhibit: bit n ↔ escrow code 0x61+n, 1 = disabled.
    let mask = 0;
    for (const [code, value] of this.table) if (!this.accepted.has(value)) mask |= 1 << (code - ESCROW_CODE_FIRST);
    await this.setting(CMD.SET_DENOMINATION, [mask & 0xff, (mask >> 8) & 0xff]);
    await this.setting(CMD.SET_SECURITY, [0, 0]);
    await this.setting(CMD.SET_COMMUNICATION_MODE, [0]); // polled
    this.configured = true;
    this.appliedEnabled = null;
  }

  private async applyEnable(): Promise<void> {
    if (this.appliedEnabled === this.wantEnabled) return;
    await this.setting(CMD.SET_INHIBIT, [this.wantEnabled ? 0 : 1]);
    this.appliedEnabled = this.wantEnabled;
  }

  private async onStatus(s: Id003Frame): Promise<void> {
    const key = `${s.code}:${Array.from(s.data).join(',')}`;
    const changed = key !== this.last;
    this.last = key;

    // Credit point. Handled on every report (not only on change) but credited once per escrow
    // cycle; the ACK follows the journalled credit, and a failed callback withholds it.
    if (s.code === STATUS.VEND_VALID) {
      const flight = this.current;
      if (!flight) {
        if (changed) this.emit({ type: 'unvaluedCredit', reason: 'VEND VALID with no note known in escrow' });
        await this.transact(CMD.ACK, [], false);
        return;
      }
      if (await this.creditOnce(flight, false)) await this.transact(CMD.ACK, [], false);
      return;
    }
    if (s.code === STATUS.POWER_UP || s.code === STATUS.POWER_UP_BILL_IN_ACCEPTOR || s.code === STATUS.POWER_UP_BILL_IN_STACKER) {
      if (await this.resolvePowerUp(s.code, changed)) {
        await this.operation(CMD.RESET);
        this.last = null;
      }
      return;
    }
    if (!changed) {
      if (s.code === STATUS.ENABLE || s.code === STATUS.DISABLE) {
        if (!this.configured) await this.configure(); // setAccepted() changed the inhibits
        await this.applyEnable();
      }
      return;
    }

    const wasFault = this.fault !== null;
    this.fault = s.code >= STATUS.STACKER_FULL && s.code <= STATUS.FAILURE ? s.code : null;
    if (wasFault && this.fault === null) this.emit({ type: 'faultCleared' });

    switch (s.code) {
      case STATUS.INITIALIZE:
        await this.configure();
        return;
      case STATUS.ENABLE:
      case STATUS.DISABLE:
        this.finishIdle();
        if (!this.configured) await this.configure();
        await this.applyEnable();
        this.emit({ type: 'idle', enabled: s.code === STATUS.ENABLE });
        return;
      case STATUS.ESCROW:
        await this.onEscrow(s.data[0] ?? 0);
        return;
      case STATUS.STACKING:
        if (this.current && this.current.phase !== 'credited') this.emit({ type: 'stacking', note: this.current.note });
        return;
      case STATUS.STACKED:
        this.emit({ type: 'stacked', ...(this.current ? { escrowId: this.current.note.escrowId } : {}) });
        if (this.current?.phase === 'credited') this.current = null;
        return;
      case STATUS.REJECTING: {
        const code = s.data[0] ?? 0;
        this.emit({ type: 'rejected', reason: REJECT_REASONS[code] ?? `reject code 0x${code.toString(16)}`, code });
        return;
      }
      case STATUS.RETURNING:
        if (this.current && this.current.phase !== 'credited') {
          this.emit({ type: 'returned', note: this.current.note, reason: this.current.phase === 'escrow' ? 'host' : 'device' });
          this.current = null;
        }
        return;
      case STATUS.STACKER_FULL:
        this.emit({ type: 'stackerFull' });
        return;
      case STATUS.STACKER_OPEN:
        this.emit({ type: 'stackerRemoved' });
        return;
      case STATUS.JAM_IN_ACCEPTOR:
      case STATUS.JAM_IN_STACKER:
        this.emit({
          type: 'jam',
          where: s.code === STATUS.JAM_IN_STACKER ? 'stacker' : 'acceptor',
          ...(this.current && this.current.phase !== 'credited' ? { note: this.current.note } : {}),
        });
        // A jammed note is the technician's to resolve (the jam event names it); no credit.
        if (this.current?.phase !== 'credited') this.current = null;
        return;
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

  /** Back at idle: a note still marked in flight has been settled one way or the other. */
  private finishIdle(): void {
    const f = this.current;
    if (!f) return;
    if (f.phase === 'credited') {
      this.current = null;
      return;
    }
    // Idle with a note escrowed or sent to the stack and never reported VEND VALID: the unit
    // gave it back (or a technician removed it from a jam). No credit.
    this.emit({ type: 'returned', note: f.note, reason: 'device' });
    this.current = null;
  }

  private async onEscrow(code: number): Promise<void> {
    const value = this.table.get(code);
    if (value === undefined) {
      this.emit({ type: 'rejected', reason: `unknown escrow code 0x${code.toString(16)}`, code });
      await this.operation(CMD.RETURN);
      return;
    }
    let note: EscrowedNote;
    // The same note still in escrow after a reconnect keeps its id (the host journalled it). A
    // note the host told of after a restart carries its value, not the unit's code: matched by value.
    const open = this.current && this.current.phase !== 'credited' ? this.current : null;
    if (open && (open.note.code === code || (open.note.code === 0 && open.note.denomination === value))) note = open.note;
    else {
      // Another note in escrow: the one before never reached VEND VALID (held until acknowledged),
      // so the unit gave it back.
      if (open) this.emit({ type: 'returned', note: open.note, reason: 'device' });
      note = this.newNote(this.noteFor(code, value));
    }
    this.current = { note, phase: 'escrow' };
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
    if (decision === 'stack') {
      this.current.phase = 'stack-sent'; // the host journalled the escrow in onEscrow
      if (!(await this.operation(CMD.STACK_1))) this.current.phase = 'escrow';
      return;
    }
    if (await this.operation(CMD.RETURN)) {
      this.emit({ type: 'returned', note, reason: timedOut ? 'escrow-timeout' : this.accepted.has(note.denomination) ? 'host' : 'not-accepted' });
      this.current = null;
    }
  }

  /**
   * POWER UP reports say where a note was when the power went: in the stacker (credit owed), in
   * the acceptor (it will be returned), or nowhere. Returns false when the credit could not be
   * journalled, so RESET is withheld and the report repeats.
   */
  private async resolvePowerUp(code: number, changed: boolean): Promise<boolean> {
    const f = this.current;
    const open = f && f.phase !== 'credited' ? f : null;
    if (code === STATUS.POWER_UP_BILL_IN_STACKER) {
      if (f?.phase === 'credited') {
        if (changed) this.emit({ type: 'powerUp', notePending: 'stacker', note: f.note, creditOwed: false });
        this.current = null;
        return true;
      }
      if (open) {
        if (changed) this.emit({ type: 'powerUp', notePending: 'stacker', note: open.note, creditOwed: true });
        if (!(await this.creditOnce(open, true))) return false;
        this.current = null;
        return true;
      }
      if (changed) {
        this.emit({ type: 'powerUp', notePending: 'stacker', creditOwed: true });
        this.emit({ type: 'unvaluedCredit', reason: 'power-up with a bill in the stacker and no escrow on record', code });
      }
      return true;
    }
    if (code === STATUS.POWER_UP_BILL_IN_ACCEPTOR) {
      if (changed) this.emit({ type: 'powerUp', notePending: 'acceptor', ...(open ? { note: open.note } : {}), creditOwed: false });
      if (open) this.emit({ type: 'returned', note: open.note, reason: 'power-up' });
      this.current = null;
      return true;
    }
    if (changed) this.emit({ type: 'powerUp', notePending: 'none', ...(open ? { note: open.note } : {}), creditOwed: false });
    if (open) this.emit({ type: 'returned', note: open.note, reason: 'power-up' });
    this.current = null;
    return true;
  }
}
