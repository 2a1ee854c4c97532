// A hostile bill acceptor at the byte level: the honest simulator's mechanism (what physically
// happens to each note: the cashbox) behind firmware that lies. It answers with valid CRCs and
// sequence flags: a status or event report the mechanism did not make, an earlier report again, no
// report, a command refused (taken by the mechanism or not), RETURN carried out as STACK, STACK as
// RETURN, inhibits ignored. Used by the security tests (one scripted lie each) and by the drivers'
// model-based fuzz (tests/fuzz/drivers.ts: lies drawn at random).
//
// What it will not say: a lie that agrees with everything the host has seen and commanded. Such
// a lie is, by construction, indistinguishable from the truth by any driver: the value of a note
// at its first escrow report, a note in escrow that is not there, the credit point of the note the
// host told to stack while that note is not on its way to the cashbox, or "no note" once a note is
// past the point of no return. The cashbox count at the drop is what catches those
// (docs/security.md). `permitted` below is that rule, and every lie it withholds is counted.
import { CMD as ID003_CMD, ESCROW_CODE_FIRST, STATUS } from '../../hardware/billacceptor/id003/constants.js';
import { Id003Parser, encodeId003, type Id003Frame } from '../../hardware/billacceptor/id003/frame.js';
import type { Id003Simulator } from '../../hardware/billacceptor/id003/simulator.js';
import { NOTE_FACE_VALUES } from '../../hardware/billacceptor/notes.js';
import type { NoteInPath } from '../../hardware/billacceptor/sim-controls.js';
import { CMD as SSP_CMD, EVENT, RESP, parsePollEvents } from '../../hardware/billacceptor/ssp/constants.js';
import { SspParser, encodeSsp, type SspFrame } from '../../hardware/billacceptor/ssp/frame.js';
import type { SspSimulator } from '../../hardware/billacceptor/ssp/simulator.js';
import type { DeviceSide } from '../../hardware/sim/device-side.js';

export type Id003Lie =
  /**
   * The next STATUS REQUEST (which the mechanism still takes) is answered with this frame.
   * `unchecked`: told even if the rule above would withhold it (a scripted test's lie that the
   * driver can see through in its situation; the fuzz never draws it).
   */
  | { kind: 'status'; code: number; data?: number[]; unchecked?: true }
  /** The next STATUS REQUEST is answered with an earlier report again. */
  | { kind: 'replay'; back: number }
  /** The next STATUS REQUEST gets no answer (the mechanism took it). */
  | { kind: 'mute' }
  /** The next such command is answered INVALID COMMAND, and carried out by the mechanism or not. */
  | { kind: 'refuse'; command: 'stack' | 'return' | 'hold'; execute: boolean }
  /** The next RETURN is carried out as STACK, answered as given. */
  | { kind: 'return-as-stack'; answer: 'ack' | 'invalid' }
  /** The next STACK is carried out as RETURN, answered ACK. */
  | { kind: 'stack-as-return' }
  /** From now on the denomination inhibits are echoed but not applied. */
  | { kind: 'ignore-inhibits' }
  /** The next GET CURRENCY ASSIGN is answered with these 4-byte blocks (a scripted test's lie; the fuzz never draws it). */
  | { kind: 'currency-assign'; blocks: number[] };

export type SspLie =
  /**
   * The next POLL (a new one; the mechanism takes it) is answered with these events instead of
   * its own, its credit events kept, unless `swallow` (a scripted test's lie, not checked by the
   * rule above: the fuzz never draws it).
   */
  | { kind: 'events'; events: number[]; swallow?: true }
  /** The next POLL is answered with the events of an earlier reply again. */
  | { kind: 'replay'; back: number }
  /** An earlier reply, with its old sequence flag, arrives before the next POLL's reply. */
  | { kind: 'stale'; back: number }
  /** The next POLL is answered with this generic response (not OK), its events lost. */
  | { kind: 'answer'; code: number }
  /** The next reply is not sent (the mechanism took the command). */
  | { kind: 'mute' }
  /** The next such command is answered CANNOT PROCESS, and carried out by the mechanism or not. */
  | { kind: 'refuse'; command: 'reject' | 'hold'; execute: boolean }
  /** From now on SET INHIBITS is answered OK but every channel is enabled. */
  | { kind: 'ignore-inhibits' }
  /**
   * The next SETUP REQUEST is answered with these channel values (face values, channel 1 first)
   * instead of the unit's own; the mechanism still knows each note by its true channel. The fuzz
   * draws it with the table's dataset configured, so that it is always a lie the driver can catch
   * (without one, a dataset that lies from the first setup on agrees with everything the host saw).
   */
  | { kind: 'dataset'; channels: number[] };

/** What the hostile device did with the lies it was given. */
export interface LieLog {
  told: string[];
  /** Lies not told because they would agree with everything the host saw (see the file's head). */
  withheld: string[];
}

/** The host's STACK (or SSP's accepting POLL) still owed an outcome: the note it concerns, and the cashbox then. */
interface Outstanding {
  serial: number;
  code: number;
  cashAt: number;
  /** A report that the note went back (or jammed, or the unit reset) was delivered since. */
  gone: boolean;
}

abstract class HostileDevice<Sim extends Id003Simulator | SspSimulator, Lie> implements DeviceSide {
  private sink: ((bytes: Uint8Array) => void) | null = null;
  protected readonly lies: Lie[] = [];
  readonly log: LieLog = { told: [], withheld: [] };
  /** Lies stop (the fuzz heals the device with the wire). */
  honest = false;
  protected outstanding: Outstanding | null = null;

  constructor(readonly sim: Sim) {
    sim.attach((bytes) => this.fromSim(bytes));
  }

  get line() {
    return this.sim.line;
  }

  attach(sink: ((bytes: Uint8Array) => void) | null): void {
    this.sink = sink;
  }

  /** Queue a lie: it is told at the next opportunity it fits. */
  tell(lie: Lie): void {
    this.lies.push(lie);
  }

  private readonly triggers: { on: 'command' | 'report'; code: number; lies: Lie[] }[] = [];

  /** Queue lies once the host has sent this command (a scripted test's "then"). */
  afterCommand(code: number, ...lies: Lie[]): void {
    this.triggers.push({ on: 'command', code, lies });
  }

  /** Queue lies once the device has delivered this report (ID-003 status code, SSP event code). */
  afterReport(code: number, ...lies: Lie[]): void {
    this.triggers.push({ on: 'report', code, lies });
  }

  protected fire(on: 'command' | 'report', codes: readonly number[]): void {
    for (let i = 0; i < this.triggers.length;) {
      const t = this.triggers[i];
      if (t && t.on === on && codes.includes(t.code)) {
        this.triggers.splice(i, 1);
        this.lies.push(...t.lies);
      } else i++;
    }
  }

  /** Lies queued and not yet told. */
  get queued(): number {
    return this.lies.length;
  }

  abstract receive(bytes: Uint8Array): void;
  protected abstract fromSim(bytes: Uint8Array): void;

  /**
   * The line has gone quiet after the host's request: a partial frame still held is dropped, as a
   * unit's receive timeout drops it (without one, noise holding a SYNC and a long length byte
   * swallowed the host's requests, and the unit later ran a backlog of them at once).
   */
  abstract lineQuiet(): void;

  /**
   * Bytes to the host. What passes through from the mechanism goes on at once (the mechanism
   * already took a UART's turn to send it); an answer the firmware makes up takes that turn here.
   */
  protected out(bytes: Uint8Array, madeUp = false): void {
    const sink = this.sink;
    if (!sink) return;
    if (!madeUp) return sink(bytes);
    setImmediate(() => {
      if (this.sink === sink) sink(bytes);
    });
  }

  /** Takes the first queued lie that fits. */
  protected take<L extends Lie>(fits: (l: Lie) => l is L): L | null {
    if (this.honest) return null;
    const i = this.lies.findIndex(fits);
    if (i < 0) return null;
    return this.lies.splice(i, 1)[0] as L;
  }

  protected note(told: boolean, what: string): void {
    (told ? this.log.told : this.log.withheld).push(what);
  }

  private readonly tries = new WeakMap<object, number>();

  /**
   * A lie that would agree with everything the host saw, now: kept for the next few chances (the
   * moment where it becomes a lie the host can catch, e.g. right after STACK, is short), then dropped.
   */
  protected notNow(lie: Lie & object, what: string): void {
    const n = (this.tries.get(lie) ?? 0) + 1;
    if (n < 25 && !this.honest) {
      this.tries.set(lie, n);
      this.lies.unshift(lie);
    } else this.note(false, what);
  }

  /** The note of the outstanding STACK left the path into the cashbox. */
  protected settled(o: Outstanding, inPath: NoteInPath | null): boolean {
    return this.sim.cashbox.length > o.cashAt && inPath?.serial !== o.serial;
  }

  /** The host's STACK (or accepting POLL) is outstanding for a note not yet in the cashbox. */
  protected stackOwed(inPath: NoteInPath | null): Outstanding | null {
    const o = this.outstanding;
    return o && !this.settled(o, inPath) ? o : null;
  }

  protected stackSent(): void {
    const p = this.sim.inPath;
    this.outstanding = p ? { serial: p.serial, code: p.code, cashAt: this.sim.cashbox.length, gone: false } : null;
  }
}

const idCode = (f: Id003Frame) => f.code;

/** ID-003: lies on STATUS replies and on STACK / RETURN / HOLD / SET DENOMINATION. */
export class HostileId003 extends HostileDevice<Id003Simulator, Id003Lie> {
  private readonly parser = new Id003Parser();
  /** What to do with each reply the mechanism owes, in order. */
  private readonly pending: ({ kind: 'pass' } | { kind: 'status'; lie: Id003Lie; label: string } | { kind: 'replace'; frame: Uint8Array })[] = [];
  /** Status replies delivered, newest last (for replays). */
  private readonly delivered: Uint8Array[] = [];
  private readonly codes: Map<number, number>;
  private ignoreInhibits = false;

  constructor(sim: Id003Simulator) {
    super(sim);
    this.codes = new Map(NOTE_FACE_VALUES[sim.currency].map((v, i) => [ESCROW_CODE_FIRST + i, v]));
  }

  receive(bytes: Uint8Array): void {
    for (const f of this.parser.push(bytes)) this.fromHost(f);
  }

  lineQuiet(): void {
    this.parser.reset();
  }

  private forward(f: Id003Frame, reply: (typeof this.pending)[number] | null): void {
    if (reply) this.pending.push(reply);
    this.sim.receive(encodeId003(f.code, f.data));
  }

  private fromHost(f: Id003Frame): void {
    this.handleHost(f);
    this.fire('command', [f.code]);
  }

  private handleHost(f: Id003Frame): void {
    const c = idCode(f);
    if (c === ID003_CMD.STACK_1 || c === ID003_CMD.STACK_2) this.stackSent();
    if (c === ID003_CMD.STATUS_REQUEST) {
      const lie = this.take(
        (l): l is Extract<Id003Lie, { kind: 'status' | 'replay' | 'mute' }> => l.kind === 'status' || l.kind === 'replay' || l.kind === 'mute',
      );
      return this.forward(f, lie ? { kind: 'status', lie, label: JSON.stringify(lie) } : { kind: 'pass' });
    }
    if (c === ID003_CMD.GET_CURRENCY_ASSIGN) {
      const lie = this.take((l): l is Extract<Id003Lie, { kind: 'currency-assign' }> => l.kind === 'currency-assign');
      if (lie) {
        this.note(true, JSON.stringify(lie));
        return this.forward(f, { kind: 'replace', frame: encodeId003(c, lie.blocks) });
      }
    }
    if (c === ID003_CMD.SET_DENOMINATION) {
      this.ignoreInhibits ||= this.take((l): l is Extract<Id003Lie, { kind: 'ignore-inhibits' }> => l.kind === 'ignore-inhibits') !== null;
      if (this.ignoreInhibits && !this.honest) {
        this.note(true, 'ignore-inhibits');
        return this.forward({ code: c, data: new Uint8Array(f.data.length) }, { kind: 'replace', frame: encodeId003(c, f.data) });
      }
    }
    const command = c === ID003_CMD.RETURN ? 'return' : c === ID003_CMD.HOLD ? 'hold' : c === ID003_CMD.STACK_1 || c === ID003_CMD.STACK_2 ? 'stack' : null;
    if (command) {
      const refuse = this.take((l): l is Extract<Id003Lie, { kind: 'refuse' }> => l.kind === 'refuse' && l.command === command);
      if (refuse) {
        this.note(true, JSON.stringify(refuse));
        const invalid = encodeId003(STATUS.INVALID_COMMAND);
        if (refuse.execute) return this.forward(f, { kind: 'replace', frame: invalid });
        return this.out(invalid, true);
      }
      if (command === 'return') {
        const lie = this.take((l): l is Extract<Id003Lie, { kind: 'return-as-stack' }> => l.kind === 'return-as-stack');
        if (lie) {
          this.note(true, JSON.stringify(lie));
          this.stackSent(); // the mechanism takes it to the stacker: the host's return is not what happens
          this.outstanding = null; // ...but the host never told STACK: its credit point is a lie any driver must catch
          return this.forward(
            { code: ID003_CMD.STACK_1, data: new Uint8Array() },
            { kind: 'replace', frame: encodeId003(lie.answer === 'ack' ? ID003_CMD.ACK : STATUS.INVALID_COMMAND) },
          );
        }
      }
      if (command === 'stack') {
        const lie = this.take((l): l is Extract<Id003Lie, { kind: 'stack-as-return' }> => l.kind === 'stack-as-return');
        if (lie) {
          this.note(true, JSON.stringify(lie));
          return this.forward({ code: ID003_CMD.RETURN, data: new Uint8Array() }, { kind: 'replace', frame: encodeId003(ID003_CMD.ACK) });
        }
      }
    }
    // The host's ACK gets no reply; everything else gets exactly one.
    this.forward(f, c === ID003_CMD.ACK ? null : { kind: 'pass' });
  }

  protected fromSim(bytes: Uint8Array): void {
    const action = this.pending.shift() ?? { kind: 'pass' };
    if (action.kind === 'pass') return this.deliver(bytes, true);
    if (action.kind === 'replace') return this.out(action.frame);
    const lie = action.lie;
    if (lie.kind === 'mute') {
      this.note(true, action.label);
      return;
    }
    const frame =
      lie.kind === 'status'
        ? encodeId003(lie.code, lie.data ?? [])
        : lie.kind === 'replay'
          ? this.delivered.at(-1 - (lie.back % Math.max(1, this.delivered.length)))
          : undefined;
    const unchecked = lie.kind === 'status' && lie.unchecked === true;
    if (!frame || this.honest || (!unchecked && !this.permitted(frame))) {
      this.notNow(lie, action.label);
      return this.deliver(bytes, true);
    }
    this.note(true, action.label);
    this.deliver(frame, false);
  }

  private deliver(frame: Uint8Array, honest: boolean): void {
    const code = frame[2] ?? 0;
    const o = this.outstanding;
    // Reports that let the host think the note of its STACK is gone.
    const gone: number[] = [
      STATUS.ENABLE,
      STATUS.DISABLE,
      STATUS.ACCEPTING,
      STATUS.RETURNING,
      STATUS.REJECTING,
      STATUS.POWER_UP,
      STATUS.POWER_UP_BILL_IN_ACCEPTOR,
      STATUS.JAM_IN_ACCEPTOR,
      STATUS.JAM_IN_STACKER,
      STATUS.INITIALIZE,
    ];
    if (o && gone.includes(code)) o.gone = true;
    if (!honest || code !== ID003_CMD.ACK) {
      this.delivered.push(frame);
      if (this.delivered.length > 16) this.delivered.shift();
    }
    this.out(frame);
    this.fire('report', [code]);
  }

  /** Whether a lying status report is one a driver can tell from the truth (see the file's head). */
  private permitted(frame: Uint8Array): boolean {
    const code = frame[2] ?? 0;
    const p = this.sim.inPath;
    if (code === STATUS.ESCROW) {
      const c = frame[3] ?? 0;
      if (!this.codes.has(c)) return true; // a code outside the table: never a note of value
      if (p && p.code === c) return p.stage === 'escrow';
      // Another note after STACK, while the host can only think its STACK still stands.
      const o = this.outstanding;
      return p !== null && o !== null && o.serial === p.serial && !o.gone && (p.stage === 'stacking' || p.stage === 'no-return');
    }
    if (code === STATUS.VEND_VALID || code === STATUS.POWER_UP_BILL_IN_STACKER) return this.stackOwed(p) === null;
    if (code === STATUS.POWER_UP || code === STATUS.POWER_UP_BILL_IN_ACCEPTOR) return p?.stage !== 'no-return';
    return true;
  }
}

/**
 * A SETUP REQUEST reply (after its OK) of a version-7 note validator with these channel values, in
 * the layout of ITL's GA138 (the one `parseSetup` reads): unit type, firmware, country, value
 * multiplier 1, the channels with their one-byte values and security levels, the real value
 * multiplier 100, the version, then each channel's country and four-byte value.
 */
function setupReply(currency: string, channels: readonly number[]): number[] {
  const ascii = (s: string): number[] => Array.from(s, (c) => c.charCodeAt(0));
  const n = channels.length;
  return [
    0x00,
    ...ascii('0440'),
    ...ascii(currency),
    0,
    0,
    1,
    n,
    ...channels.map((v) => (v <= 255 ? v : 0)),
    ...channels.map(() => 2),
    0,
    0,
    100,
    7,
    ...channels.flatMap(() => ascii(currency)),
    ...channels.flatMap((v) => [v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, (v >>> 24) & 0xff]),
  ];
}

/** SSP (plain, not eSSP): lies on POLL replies and on REJECT / HOLD / SET INHIBITS / SETUP REQUEST. */
export class HostileSsp extends HostileDevice<SspSimulator, SspLie> {
  private readonly parser = new SspParser();
  private readonly pending: (
    { kind: 'pass' } | { kind: 'poll'; lie: SspLie; seqId: number; label: string } | { kind: 'replace'; data: number[]; seqId: number }
  )[] = [];
  /** POLL replies delivered (seqId and data), newest last. */
  private readonly delivered: SspFrame[] = [];
  private lastSeq: number | null = null;
  private ignoreInhibits = false;

  receive(bytes: Uint8Array): void {
    for (const f of this.parser.push(bytes)) this.fromHost(f);
  }

  lineQuiet(): void {
    this.parser.reset();
  }

  private forward(f: SspFrame, reply: (typeof this.pending)[number]): void {
    this.pending.push(reply);
    this.sim.receive(encodeSsp(f.seqId, f.data));
  }

  private fromHost(f: SspFrame): void {
    this.handleHost(f);
    this.fire('command', [f.data[0] ?? -1]);
  }

  private handleHost(f: SspFrame): void {
    const cmd = f.data[0] ?? -1;
    const fresh = cmd === SSP_CMD.SYNC || f.seqId !== this.lastSeq;
    this.lastSeq = cmd === SSP_CMD.SYNC ? null : f.seqId;
    // The validator takes an escrowed note at the first plain POLL after reporting it.
    if (cmd === SSP_CMD.POLL && fresh && this.sim.escrowReportedNow) this.stackSent();
    if (!fresh) return this.forward(f, { kind: 'pass' }); // a retry: the mechanism repeats its reply
    if (cmd === SSP_CMD.POLL) {
      const lie = this.take(
        (l): l is Extract<SspLie, { kind: 'events' | 'replay' | 'stale' | 'answer' | 'mute' }> =>
          l.kind === 'events' || l.kind === 'replay' || l.kind === 'stale' || l.kind === 'answer' || l.kind === 'mute',
      );
      return this.forward(f, lie ? { kind: 'poll', lie, seqId: f.seqId, label: JSON.stringify(lie) } : { kind: 'pass' });
    }
    if (cmd === SSP_CMD.SET_INHIBITS) {
      this.ignoreInhibits ||= this.take((l): l is Extract<SspLie, { kind: 'ignore-inhibits' }> => l.kind === 'ignore-inhibits') !== null;
      if (this.ignoreInhibits && !this.honest) {
        this.note(true, 'ignore-inhibits');
        return this.forward({ seqId: f.seqId, data: Uint8Array.from([cmd, 0xff, 0xff]) }, { kind: 'pass' });
      }
    }
    if (cmd === SSP_CMD.SETUP_REQUEST) {
      const lie = this.take((l): l is Extract<SspLie, { kind: 'dataset' }> => l.kind === 'dataset');
      if (lie) {
        this.note(true, JSON.stringify(lie));
        return this.forward(f, { kind: 'replace', data: [RESP.OK, ...setupReply(this.sim.currency, lie.channels)], seqId: f.seqId });
      }
    }
    const command = cmd === SSP_CMD.REJECT ? 'reject' : cmd === SSP_CMD.HOLD ? 'hold' : null;
    if (command) {
      const refuse = this.take((l): l is Extract<SspLie, { kind: 'refuse' }> => l.kind === 'refuse' && l.command === command);
      if (refuse) {
        this.note(true, JSON.stringify(refuse));
        // Not carried out: the mechanism sees a harmless command in its place, so that its
        // sequence flag moves on as the host's does.
        const data = refuse.execute ? f.data : Uint8Array.from([SSP_CMD.DISPLAY_ON]);
        return this.forward({ seqId: f.seqId, data }, { kind: 'replace', data: [RESP.CANNOT_PROCESS], seqId: f.seqId });
      }
    }
    this.forward(f, { kind: 'pass' });
  }

  protected fromSim(bytes: Uint8Array): void {
    const action = this.pending.shift() ?? { kind: 'pass' };
    const honest = this.parser2.push(bytes)[0];
    if (!honest) return this.out(bytes);
    if (action.kind === 'pass') return this.deliver(honest, bytes);
    if (action.kind === 'replace') return this.out(encodeSsp(action.seqId, action.data));
    const { lie, seqId, label } = action;
    if (lie.kind === 'mute') {
      this.note(true, label);
      return;
    }
    const own = honest.data[0] === RESP.OK ? (parsePollEvents(honest.data) ?? []) : [];
    // The mechanism's own credit events are never left out: a note stacked and never reported is
    // a lie no driver can see through (the cashbox count at the drop does).
    const credits = own.filter((e) => e.code === EVENT.CREDIT || e.code === EVENT.CLEARED_INTO_CASHBOX).flatMap((e) => [e.code, ...e.data]);
    let data: number[] | null = null;
    if (lie.kind === 'events' && lie.swallow) {
      this.note(true, label);
      return this.deliver({ seqId, data: Uint8Array.from([RESP.OK, ...lie.events]) }, encodeSsp(seqId, [RESP.OK, ...lie.events]));
    }
    if (lie.kind === 'events') data = [RESP.OK, ...lie.events, ...credits];
    else if (lie.kind === 'answer') data = credits.length ? null : [lie.code];
    else {
      const earlier = lie.kind === 'replay' || lie.kind === 'stale' ? this.delivered.at(-1 - (lie.back % Math.max(1, this.delivered.length))) : undefined;
      if (earlier && lie.kind === 'stale') {
        if (this.honest || !this.permittedData(Array.from(earlier.data))) this.notNow(lie, label);
        else {
          this.note(true, label);
          this.out(encodeSsp(earlier.seqId, earlier.data));
        }
        return this.deliver(honest, bytes);
      }
      if (earlier && earlier.data[0] === RESP.OK) data = [...Array.from(earlier.data), ...credits];
    }
    if (!data || this.honest || !this.permittedData(data)) {
      this.notNow(lie, label);
      return this.deliver(honest, bytes);
    }
    this.note(true, label);
    const frame = { seqId, data: Uint8Array.from(data) };
    this.deliver(frame, encodeSsp(seqId, data));
  }
  private readonly parser2 = new SspParser();

  private deliver(frame: SspFrame, bytes: Uint8Array): void {
    const events = frame.data[0] === RESP.OK ? (parsePollEvents(frame.data) ?? []) : [];
    const o = this.outstanding;
    const gone: number[] = [EVENT.REJECTING, EVENT.REJECTED, EVENT.CLEARED_FROM_FRONT, EVENT.UNSAFE_JAM, EVENT.SAFE_JAM, EVENT.SLAVE_RESET];
    if (o && events.some((e) => gone.includes(e.code))) o.gone = true;
    if (frame.data.length > 1) {
      this.delivered.push(frame);
      if (this.delivered.length > 16) this.delivered.shift();
    }
    this.out(bytes);
    // A READ names a channel only when a note is in escrow: that is the report a test waits for.
    this.fire(
      'report',
      events.filter((e) => e.code !== EVENT.READ || (e.data[0] ?? 0) > 0).map((e) => e.code),
    );
  }

  /** Whether a lying POLL reply is one a driver can tell from the truth (see the file's head). */
  private permittedData(data: number[]): boolean {
    if (data[0] !== RESP.OK) return true;
    const events = parsePollEvents(Uint8Array.from(data));
    if (!events) return true; // an event no driver can size: a failure, never a note
    const p = this.sim.inPath;
    const owed = this.stackOwed(p);
    const valued = (ch: number) => ch >= 1 && ch <= NOTE_FACE_VALUES[this.sim.currency].length;
    for (const e of events) {
      const ch = e.data[0] ?? 0;
      if (e.code === EVENT.READ && valued(ch)) {
        if (p && p.code === ch) {
          if (p.stage !== 'escrow') return false;
          continue;
        }
        const o = this.outstanding;
        if (!(p !== null && o !== null && o.serial === p.serial && !o.gone && (p.stage === 'stacking' || p.stage === 'no-return'))) return false;
      }
      // The credit point of the note the host let the validator take, while that note is not in the cashbox.
      if (owed && (e.code === EVENT.CREDIT || e.code === EVENT.CLEARED_INTO_CASHBOX) && (ch === owed.code || ch === 0)) return false;
    }
    return true;
  }
}
