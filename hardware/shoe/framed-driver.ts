// Host side of our framed shoe protocol: GET_STATUS handshake, in-order delivery by sequence number
// (duplicates re-acknowledged and dropped, a gap answered with REPLAY_FROM), ACK only after the
// host's onEvent resolved, commands with resend and a heartbeat. Spec: docs/protocols/shoe.md.
import { FrameChannel, LinkLostError } from '../link.js';
import { elapsedOf } from '../clock.js';
import type { BytePort, PortOpener } from '../transport/byte-port.js';
import { toHex } from '../bytes.js';
import { shoeRx, shoeTx } from '../wire-frame.js';
import { ShoeBase } from './base.js';
import { cardFromWire, partsOf } from './card-code.js';
import { DeliveredRecord } from './delivered.js';
import {
  HELLO_FLAGS,
  MSG,
  RESULT,
  ShoeFrameParser,
  UNREADABLE_REASONS,
  encodeShoeFrame,
  nextSeq,
  rdU16,
  rdU32,
  readText,
  seqDiff,
  u16,
  type ShoeFrame,
} from './framed.js';
import type { SequencedShoeEvent, ShoeOptions } from './types.js';

/** Events kept from before the HELLO: more than a shoe's unacknowledged queue holds in practice. */
const EARLY_FRAMES_KEPT = 256;

const SEVERITY = ['info', 'warning', 'critical'] as const;

/** Reads and alarms the driver makes of frames it cannot take as sent, between two events in order (`report`). */
const INVENTED_PER_EVENT = 8;

/** A resend is acknowledged again at most this often (`reAck`): well under the shoe's 500 ms resend. */
const REACK_MS = 100;

interface SessionState {
  /** The gap a REPLAY_FROM was sent for. */
  requested: number | null;
  /** GET_STATUS sent for a sequence lie since the last HELLO. */
  statusAsked: boolean;
}

/** CARD_DRAWN or CARD_UNREADABLE: a card left the shoe, whatever else the frame says. */
const isCardReport = (type: number): boolean => type === MSG.CARD_DRAWN || type === MSG.CARD_UNREADABLE;

/** What a card report's payload says, for a technician: its rank and suit bytes, or its length. */
function cardSaid(type: number, p: Uint8Array): string {
  if (type === MSG.CARD_UNREADABLE) return p.length < 3 ? `unreadable, ${p.length} bytes` : `unreadable, reason ${p[2]}`;
  return p.length < 4 ? `${p.length} bytes` : `rank ${p[2]} suit ${p[3]}${p.length < 6 ? `, ${p.length} bytes` : ''}`;
}

export class FramedShoe extends ShoeBase {
  readonly protocol = 'framed' as const;
  private expected: number | null;
  private lastAcked = 0;
  private cmdSeq = 1 + Math.floor(Math.random() * 0xfffe);
  private ch: FrameChannel<ShoeFrame> | null = null;
  private pending = new Map<number, (result: number) => void>();
  private hello: ((f: ShoeFrame) => void) | null = null;
  private readonly delivered = new DeliveredRecord();
  /** Reads and alarms made by `report` since the last event delivered in order. */
  private invented = 0;
  /** The last ACK sent again for a resend, and when (`reAck`). */
  private reAcked: { seq: number; at: number } | null = null;
  serial: string | undefined;

  constructor(opener: PortOpener, options: ShoeOptions = {}) {
    super(opener, options);
    this.expected = options.lastSequence ? nextSeq(options.lastSequence) : null;
    if (options.lastSequence) this.lastAcked = options.lastSequence;
  }

  /** The last sequence number delivered to the host. */
  get lastSequence(): number {
    return this.lastAcked;
  }

  private get timeout(): number {
    return this.opts.replyTimeoutMs ?? 300;
  }

  private async write(type: number, seq: number, payload: number[] = []): Promise<void> {
    if (!this.ch) throw new LinkLostError();
    await this.ch.write(encodeShoeFrame(seq, type, payload));
  }

  private async command(type: number, payload: number[] = []): Promise<number | null> {
    const seq = this.cmdSeq;
    this.cmdSeq = nextSeq(this.cmdSeq);
    for (let attempt = 0; attempt < (this.opts.retries ?? 3); attempt++) {
      if (!this.ch) return null;
      const result = new Promise<number | null>((resolve) => {
        const t = this.clock.setTimeout(() => {
          this.pending.delete(seq);
          resolve(null);
        }, this.timeout);
        this.pending.set(seq, (r) => {
          this.clock.clearTimeout(t);
          resolve(r);
        });
      });
      try {
        await this.write(type, seq, payload); // the same seq on a resend: the shoe executes it once
      } catch {
        return null;
      }
      const r = await result;
      if (r !== null) return r;
    }
    return null;
  }

  async lock(): Promise<boolean> {
    return (await this.command(MSG.LOCK)) === RESULT.OK;
  }
  async unlock(): Promise<boolean> {
    return (await this.command(MSG.UNLOCK)) === RESULT.OK;
  }
  async setBurnMode(on: boolean): Promise<boolean> {
    return (await this.command(MSG.SET_MODE, [on ? 1 : 0])) === RESULT.OK;
  }

  protected async session(port: BytePort, signal: AbortSignal): Promise<void> {
    const parser = new ShoeFrameParser();
    const ch = new FrameChannel(port, (b) => this.resultsTaken(parser.push(b)), this.clock, {
      // Built only for a listener: a device flooding the wire cost a hex string per frame.
      tx: (bytes) => {
        if (this.tracing) this.frame(shoeTx(bytes));
      },
      rx: (f) => {
        if (this.tracing) this.frame(shoeRx(f, encodeShoeFrame(f.seq, f.type, f.payload)));
      },
    });
    this.ch = ch;
    const state: SessionState = { requested: null, statusAsked: false };
    try {
      const { hello, early } = await this.handshake(ch, parser);
      this.onHello(hello);
      this.link.markUp();
      const lid = lidOf(hello);
      this.events.emit({
        type: 'connected',
        protocol: 'framed',
        ...(this.serial ? { serial: this.serial } : {}),
        ...(lid !== undefined ? { lidOpen: lid } : {}),
      });

      const heartbeat = this.opts.heartbeatMs ?? 1000;
      const retries = this.opts.retries ?? 3;
      let missed = 0;
      while (!signal.aborted) {
        const f = early.shift() ?? (await ch.next(heartbeat));
        if (!f) {
          if (++missed > retries) throw new LinkLostError('shoe: heartbeat lost');
          parser.reset();
          await ch.write(encodeShoeFrame(0, MSG.GET_STATUS));
          continue;
        }
        missed = 0;
        if (f.type === MSG.HELLO) {
          state.statusAsked = false;
          this.onHello(f);
          // flags (byte 3): 2 = locked. A HELLO too short to say is taken for its sequence only.
          const flags = f.payload[3];
          if (flags !== undefined)
            this.events.emit({ type: 'status', locked: (flags & HELLO_FLAGS.LOCKED) !== 0, lidOpen: (flags & HELLO_FLAGS.LID_OPEN) !== 0 });
          continue;
        }
        if (await this.onEvent(f, state)) state.requested = null;
      }
    } finally {
      for (const r of this.pending.values()) r(RESULT.REFUSED);
      this.pending.clear();
      this.ch = null;
      ch.dispose();
    }
  }

  /**
   * Command results are taken as they are parsed, not queued with the events: the session reads
   * the next event only once the last is journalled, and a LOCK's answer that waited behind a slow
   * journal write timed out, leaving the host a shoe it took for one that cannot lock. A result
   * for no command on its way (late, forged, repeated) names nothing and is dropped, as before.
   * The trace still sees it: the channel's tap sees only what is queued.
   */
  private resultsTaken(frames: ShoeFrame[]): ShoeFrame[] {
    return frames.filter((f) => {
      if (f.type !== MSG.CMD_RESULT) return true;
      if (this.tracing) this.frame(shoeRx(f, encodeShoeFrame(f.seq, f.type, f.payload)));
      const seq = rdU16(f.payload, 0);
      this.pending.get(seq)?.(f.payload[2] ?? RESULT.REFUSED);
      this.pending.delete(seq);
      return false;
    });
  }

  /**
   * A sequenced event frame. In order: journalled (a frame no event can be made of is an unreadable
   * read or the driver's own alarm, never dropped), then acknowledged; true once delivered.
   * Behind: a resend, or a lie (`behind`). Ahead: a gap, replayed. Sequence 0: `unsequenced`.
   */
  private async onEvent(f: ShoeFrame, s: SessionState): Promise<boolean> {
    if (f.seq === 0) {
      await this.unsequenced(f);
      return false;
    }
    if (this.expected === null) this.expected = f.seq;
    const d = seqDiff(f.seq, this.expected);
    if (d < 0) {
      await this.behind(f, s);
      return false;
    }
    if (d > 0) {
      // A gap: an earlier event was lost on the wire. Ask for a replay, once per gap.
      if (s.requested !== this.expected) {
        s.requested = this.expected;
        this.events.emit({ type: 'warning', text: `sequence gap: expected ${this.expected}, got ${f.seq}` });
        void this.command(MSG.REPLAY_FROM, u16(this.expected));
        await this.askStatus(s, true); // HELLO shows what the shoe still holds
      }
      return false;
    }
    if (!(await this.deliver(this.decode(f)))) return false; // not journalled: no ACK, the shoe resends
    this.invented = 0;
    this.delivered.add(f);
    this.lastAcked = f.seq;
    this.expected = nextSeq(f.seq);
    await this.write(MSG.ACK, 0, u16(f.seq));
    return true;
  }

  /**
   * A frame behind the expected number. The same event again (our ACK lost) is acknowledged again
   * and dropped. Another event under a number already used, or a number the shoe no longer holds
   * (its counter went back without a HELLO), is a lie or a fault: a warning, GET_STATUS (the HELLO's
   * restart check runs), and a drawn card in it reaches the table as an unreadable read, so the
   * table holds rather than one card standing in for another.
   */
  private async behind(f: ShoeFrame, s: SessionState): Promise<void> {
    if (!this.delivered.isResend(f)) {
      this.events.emit({ type: 'warning', text: `sequence ${f.seq} already used (expected ${this.expected}): type 0x${f.type.toString(16)} is not a resend` });
      await this.askStatus(s);
      if (isCardReport(f.type) && !(await this.report(f, `sequence ${f.seq} already used, another read: ${cardSaid(f.type, f.payload)}`))) return;
      this.delivered.add(f); // the same lie again is a resend of it
    }
    await this.reAck(f.seq);
  }

  /**
   * Acknowledges again what was delivered, at most once per REACK_MS for the same number: the
   * shoe resends its whole unacknowledged queue at once (every 500 ms), and one cumulative ACK
   * answers it all; a device repeating a frame as fast as the wire carries got one write per copy.
   */
  private async reAck(seq: number): Promise<void> {
    const ack = this.lastAcked || seq;
    const now = elapsedOf(this.clock);
    if (this.reAcked?.seq === ack && now - this.reAcked.at < REACK_MS) return;
    this.reAcked = { seq: ack, at: now };
    await this.write(MSG.ACK, 0, u16(ack));
  }

  /**
   * An event frame with sequence 0, which only HELLO and CMD_RESULT may carry: it cannot be
   * acknowledged, and dropping it would lose a card the dealer drew. A card report is an unreadable
   * read; any other is the driver's alarm (the table held for a person).
   */
  private async unsequenced(f: ShoeFrame): Promise<void> {
    if (this.delivered.isResend(f)) return; // the same one again: reported already
    const why = `sequence 0 on type 0x${f.type.toString(16)}`;
    if (await this.report(f, isCardReport(f.type) ? `${why}: ${cardSaid(f.type, f.payload)}` : why)) this.delivered.add(f);
  }

  /**
   * Journals a read or an alarm the driver made of a frame it cannot take as sent. At most
   * INVENTED_PER_EVENT between two events delivered in order (the table is on hold after the first;
   * more would only fill the journal); past that, a warning. False if not journalled.
   */
  private async report(f: ShoeFrame, reason: string): Promise<boolean> {
    if (this.invented >= INVENTED_PER_EVENT) {
      this.events.emit({ type: 'warning', text: `${reason} (not journalled: ${INVENTED_PER_EVENT} already since the last event)` });
      return true;
    }
    this.invented++;
    const e: SequencedShoeEvent = isCardReport(f.type)
      ? { type: 'unreadable', sequence: f.seq, index: rdU16(f.payload, 0), reason, burn: false, raw: toHex(f.payload) }
      : { type: 'alarm', sequence: f.seq, code: 'protocol', severity: 'critical', text: reason };
    return this.deliver(e);
  }

  /** GET_STATUS, at most once between HELLOs unless `always` (a gap). */
  private async askStatus(s: SessionState, always = false): Promise<void> {
    if (s.statusAsked && !always) return;
    s.statusAsked = true;
    await this.ch?.write(encodeShoeFrame(0, MSG.GET_STATUS));
  }

  /**
   * GET_STATUS until HELLO. The shoe's sequenced events that arrive first are kept, in order, for
   * the session to handle once the HELLO has said where the shoe stands: a shoe may send an event
   * while our GET_STATUS is on its way, and dropping it would make the next one look like a gap.
   */
  private async handshake(ch: FrameChannel<ShoeFrame>, parser: ShoeFrameParser): Promise<{ hello: ShoeFrame; early: ShoeFrame[] }> {
    const early: ShoeFrame[] = [];
    const retries = this.opts.retries ?? 3;
    for (let i = 0; i < retries; i++) {
      await ch.write(encodeShoeFrame(0, MSG.GET_STATUS));
      const until = elapsedOf(this.clock) + this.timeout;
      while (elapsedOf(this.clock) < until) {
        const f = await ch.next(Math.max(1, until - elapsedOf(this.clock)));
        if (f?.type === MSG.HELLO) return { hello: f, early };
        // Bounded: a device that floods events and never answers costs no memory; what is not kept
        // comes back as a gap, and a replay. An event under sequence 0 is kept too: handled after
        // the HELLO as any other (`unsequenced`), a card in it an unreadable read, not lost here.
        if (f && f.type !== MSG.CMD_RESULT && early.length < EARLY_FRAMES_KEPT) early.push(f);
      }
      parser.reset();
    }
    throw new LinkLostError('shoe: no HELLO');
  }

  private onHello(f: ShoeFrame): void {
    const p = f.payload;
    const lastSeq = rdU16(p, 4);
    const oldest = rdU16(p, 6);
    this.serial = readText(p, 8) || undefined;
    const deviceNext = oldest || nextSeq(lastSeq);
    if (this.expected === null) this.expected = deviceNext;
    else if (seqDiff(nextSeq(lastSeq), this.expected) < 0) {
      // The shoe's counter is behind what we already delivered: it was reset or swapped. (Its
      // oldest unacknowledged event may legitimately be behind: our ACK was lost.)
      this.events.emit({ type: 'warning', text: `shoe sequence restarted (device at ${lastSeq}, host expected ${this.expected})` });
      this.expected = deviceNext;
      this.delivered.clear();
    } else if (seqDiff(deviceNext, this.expected) > 0) {
      // The shoe no longer holds events we never journalled (acknowledged by another host, or a
      // journal that lost its tail): waiting for them would stall the shoe forever.
      this.events.emit({ type: 'warning', text: `shoe events ${this.expected}…${lastSeq} were acknowledged elsewhere; continuing from ${deviceNext}` });
      this.expected = deviceNext;
      this.delivered.clear();
    }
    this.delivered.resendsFrom(deviceNext);
  }

  /**
   * The event a frame in order says. One that cannot be read is never dropped: a drawn card is an
   * unreadable read naming what came (the table holds, as for a card the reader could not see);
   * anything else the driver's critical alarm `protocol`.
   */
  private decode(f: ShoeFrame): SequencedShoeEvent {
    const e = this.decodeKnown(f);
    if (e) return e;
    const sequence = f.seq;
    const p = f.payload;
    if (isCardReport(f.type)) {
      const reason = `undecodable card report: ${cardSaid(f.type, p)}`;
      return { type: 'unreadable', sequence, index: rdU16(p, 0), reason, burn: ((p[5] ?? 0) & 1) !== 0, raw: toHex(p) };
    }
    return { type: 'alarm', sequence, code: 'protocol', severity: 'critical', text: `undecodable event: type 0x${f.type.toString(16)}, ${p.length} bytes` };
  }

  private decodeKnown(f: ShoeFrame): SequencedShoeEvent | null {
    const p = f.payload;
    const sequence = f.seq;
    switch (f.type) {
      case MSG.CARD_DRAWN: {
        if (p.length < 6) return null;
        const card = cardFromWire(p[2] ?? 0, p[3] ?? 0);
        if (!card) return null;
        const raw = readText(p, 6);
        return {
          type: 'card',
          sequence,
          card,
          ...partsOf(card),
          index: rdU16(p, 0),
          quality: Math.min(100, p[4] ?? 0),
          burn: ((p[5] ?? 0) & 1) !== 0,
          wrongDeck: ((p[5] ?? 0) & 2) !== 0,
          ...(raw ? { raw } : {}),
        };
      }
      case MSG.CARD_UNREADABLE:
        if (p.length < 4) return null;
        return { type: 'unreadable', sequence, index: rdU16(p, 0), reason: UNREADABLE_REASONS[p[2] ?? 0] ?? `reason ${p[2]}`, burn: ((p[3] ?? 0) & 1) !== 0 };
      case MSG.CUT_CARD:
        return p.length < 2 ? null : { type: 'cutCard', sequence, index: rdU16(p, 0) };
      case MSG.SHOE_EMPTY:
        return p.length < 2 ? null : { type: 'shoeEmpty', sequence, index: rdU16(p, 0) };
      case MSG.SHOE_LOADED:
        return p.length < 7 ? null : { type: 'shoeLoaded', sequence, sessionId: rdU32(p, 0), decks: p[4] ?? 0, cards: rdU16(p, 5), setId: readText(p, 7) };
      case MSG.LID:
        return p.length < 1 ? null : { type: 'lid', sequence, open: p[0] === 1 };
      case MSG.MODE:
        return p.length < 1 ? null : { type: 'burnMode', sequence, on: p[0] === 1 };
      case MSG.LOCK_STATE:
        return p.length < 1 ? null : { type: 'lock', sequence, locked: p[0] === 1 };
      case MSG.ALARM:
        return p.length < 2 ? null : { type: 'alarm', sequence, code: `E${p[0]}`, severity: SEVERITY[p[1] ?? 1] ?? 'warning', text: readText(p, 2) };
      default:
        return null;
    }
  }
}

/** The lid as a HELLO's flags say it (payload byte 3); undefined for a HELLO too short to say. */
function lidOf(hello: ShoeFrame): boolean | undefined {
  const flags = hello.payload[3];
  return flags === undefined ? undefined : (flags & HELLO_FLAGS.LID_OPEN) !== 0;
}
