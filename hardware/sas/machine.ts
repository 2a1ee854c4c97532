// The machine side of a SAS link, without a transport: characters in, bytes out. It answers
// general polls from the exception queue and long polls through the responder, keeps the host's
// implied ACK and NACK (SAS 6.02 §3.1–3.2: a poll repeated byte for byte is answered again with
// the same bytes, anything else acknowledges the last answer), synchronises after start and after a loop break
// (§3.3), chirps when no address byte has come for 5 s and reports the link down then or after
// 30 s without an implied ACK (§4.2–4.3). Time is the injected clock's; nothing here waits.
import { crc16Kermit } from '../crc.js';
import { elapsedOf, Emitter, realClock, type Clock } from '../clock.js';
import { EXC, LP } from './constants.js';
import { ExceptionQueue, type Queued } from './exceptions.js';
import { HitTries } from './hit-tries.js';
import { hasCrc, RequestAssembler, WOKEN_MS, type Heard } from './request.js';
import { crcOk, respond, withCrc } from './responder.js';
import type { SasGameSide, SasLinkEvent } from './types.js';

export interface SasMachineOptions {
  /** 1–127 (SAS 6.02 §2.1; an address of 0 answers nothing and is refused here). */
  address: number;
  game: SasGameSide;
  /** Writes bytes to the host; `wake` sets the ninth bit of the first (only the chirp does). */
  write(bytes: Uint8Array, wake: boolean): void;
  clock?: Clock;
  /** §2.3.2: 5 ms on the wire (the default); a link passes what it can measure, the bytes' arrival (`interByteLimitMs`, link.ts). */
  interByteMs?: number;
  /** §4.2: 5 s without an address byte. */
  silenceMs?: number;
  /** §4.2: a chirp every 200 ms while silent. */
  chirpMs?: number;
  /** §4.3: 30 s without an implied ACK. */
  ackTimeoutMs?: number;
  exceptionCapacity?: number;
  /** Bytes of the ROM image hashed per turn of the event loop, so polls are answered meanwhile (§6.1). */
  romChunk?: number;
  /**
   * §7.8.1: exception 51 acknowledged and no long poll 1B within 15 s, while a handpay is still
   * pending: 51 again, every 15 s. `null`: never (§7.8.2, the operator's setting for a system
   * that does not poll 1B).
   */
  handpayReissueMs?: number | null;
  /**
   * The note §7.8.1's reissue counts from, as it stood before a restart (the `handpay-note` event
   * the caller kept): when the host acknowledged 51 without asking 1B since, or null.
   */
  handpayAckedAt?: number | null;
}

/**
 * §8 (AFT game lock): exception 6F is issued as the lock takes effect and reissued every five
 * seconds while the machine stays locked (as the public Aristocrat platform's lock handler does).
 */
export const GAME_LOCKED_REISSUE_MS = 5_000;

/** What `attempt` gives when the station's part failed (no reply of the responder's is a symbol). */
const FAILED: unique symbol = Symbol('failed');

interface Pending {
  /**
   * The poll answered, whole: a repeat is the same bytes (§3.2). The command alone is not enough:
   * 0x2F for another meter, 0x74 cancel after lock, 0x72 with a new transaction are new polls.
   */
  poll: Uint8Array;
  reply: Uint8Array;
  onAck?: () => void;
  repeats: number;
}

export class SasMachine {
  readonly events = new Emitter<SasLinkEvent>();
  readonly exceptions: ExceptionQueue;
  private readonly clock: Clock;
  private readonly assembler: RequestAssembler;
  private synced = false;
  /** 'unknown' until the host first answers or the link is first found silent. */
  private state: 'unknown' | 'up' | 'down' = 'unknown';
  private everUp = false;
  private pending: Pending | null = null;
  /** The answer a one- or two-byte poll seemed to acknowledge, held until that poll is known whole (`confirm`, `retract`). */
  private held: Pending | null = null;
  /** The answer given to the message heard last, if it was answered anew (not a repeat): a `retract` disregards it. */
  private fresh: Pending | null = null;
  /** When the short poll whose ACK is `held` was heard (the monotonic clock). */
  private heldAt = 0;
  /**
   * A general poll to another machine that came within `WOKEN_MS` of the short poll whose ACK is
   * `held`, itself held until what follows shows it whole (`heard`, `watch`): data after it show
   * it, and the short poll before it, cut from one longer message hit on the line twice.
   */
  private deferred: { poll: Heard; at: number } | null = null;
  /** What came between the messages taken: the tries the line hit (§3.2). */
  private readonly tries = new HitTries();
  private lastAddressAt: number;
  private lastAckAt: number;
  private timer: unknown = null;
  /**
   * 0x21's computation: `generation` counts the requests (a newer one supersedes the rest), `wanted`
   * the newest seed not yet computed, `reading` whether a read of the program runs (at most one).
   */
  private rom: { generation: number; signature: number | null; wanted: number | null; reading: boolean } = {
    generation: 0,
    signature: null,
    wanted: null,
    reading: false,
  };
  /** When the host last acknowledged 51 without asking 1B since (§7.8.1), or null. */
  private handpayAckedAt: number | null = null;
  /**
   * A 51 waits since the reissue's time came (the copy, or the journal's own): the kept note was
   * left as it was, so a 1B must still clear it though `handpayAckedAt` is null.
   */
  private handpayReissued = false;
  /** When 6F was last issued for the lock in force (the monotonic clock), or null while the station is not locked. */
  private lockReportedAt: number | null = null;
  /** Answers sent, for diagnostics and the fuzz. */
  answered = 0;

  constructor(private readonly options: SasMachineOptions) {
    if (!Number.isInteger(options.address) || options.address < 1 || options.address > 127) throw new RangeError('a SAS address is 1–127');
    this.clock = options.clock ?? realClock;
    this.exceptions = new ExceptionQueue(options.exceptionCapacity);
    this.assembler = new RequestAssembler(
      options.address,
      (h) => this.heard(h),
      () => elapsedOf(this.clock),
      options.interByteMs ?? 5,
    );
    this.lastAddressAt = this.lastAckAt = elapsedOf(this.clock);
    this.handpayAckedAt = options.handpayAckedAt ?? null;
  }

  get address(): number {
    return this.options.address;
  }

  /** Whether the host's polls are being answered (up since the last link-up, not down since). */
  get linkUp(): boolean {
    return this.state === 'up';
  }

  /** Counts of dropped messages and stray characters (line noise the host never sees answered). */
  get counts(): Readonly<{ truncated: number; stray: number }> {
    return this.assembler.counts;
  }

  /** Starts the silence watchdog (chirps, link-down). */
  start(): void {
    if (this.timer !== null) return;
    const tick = (): void => {
      this.watch();
      this.timer = this.clock.setTimeout(tick, this.options.chirpMs ?? 200);
    };
    this.timer = this.clock.setTimeout(tick, this.options.chirpMs ?? 200);
  }

  stop(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    this.rom.generation++;
    this.rom.wanted = null;
  }

  /** Raises an exception for the host (a priority one sets its flag; §2.2.1); `tag` comes back in its `exception-acked` or `exception-lost`. */
  raise(code: number, tag?: string): void {
    const lost = this.exceptions.raise(code, tag);
    if (lost !== null) this.events.emit({ type: 'exception-lost', ...lost });
  }

  /** One received character. */
  char(byte: number, wake: boolean): void {
    if (wake) this.lastAddressAt = elapsedOf(this.clock);
    this.tries.char(byte);
    this.assembler.char(byte, wake);
  }

  private heard(h: Heard): void {
    if (h.kind === 'continued') {
      // The general poll held was the middle of the message the short poll before it began.
      this.deferred = null;
      return this.retract();
    }
    const now = elapsedOf(this.clock);
    this.takeDeferred();
    // A general poll to another machine right after the short poll whose ACK is held (within a
    // message's inter-byte time, §2.3.2): the retry's address byte hit into a general poll to
    // this machine and a later byte into one to another may be one message hit twice, which only
    // the data after it show. Held too (a real one acknowledges when the next character comes, or
    // at the watchdog's turn). Taken at once, it acknowledged both the answer the host was asking
    // for again and the short poll's own, neither of which the host had (until 7 December).
    if (h.kind === 'general' && h.address !== this.options.address && this.held && now - this.heldAt <= WOKEN_MS) {
      this.deferred = { poll: h, at: now };
      return;
    }
    this.take(h);
  }

  /** A general poll held (`deferred`) that nothing showed cut: taken now, before what comes next. */
  private takeDeferred(): void {
    const d = this.deferred;
    this.deferred = null;
    if (d) this.take(d.poll);
  }

  private take(h: Heard): void {
    if (h.kind === 'continued') return;
    this.fresh = null;
    // Whatever comes next shows the short poll before it was whole: its implied ACK stands.
    if (this.held) this.confirm();
    const mine = h.address === this.options.address;
    if (h.kind === 'other' || (h.kind === 'general' && !mine) || (h.kind === 'long' && h.address === 0)) {
      // A poll hit on the line (a retry's address byte flipped into another's, or into 0) is not one
      // a host sent: no implied ACK of an answer the host may never have had, and no cycle.
      if (h.kind !== 'general' && !sentByAHost(h.bytes)) return;
      this.taken(h.at, h.end);
      // A poll to another machine or a broadcast: an implied ACK, and the poll cycle to synchronise on.
      this.acknowledge(true);
      this.synced = true;
      // A broadcast is never answered.
      if (h.kind === 'long' && h.known && h.command === LP.receiveDateTime) this.attempt(h.command, 'answer', () => respond(h.bytes, this.options.game));
      return;
    }
    if (!this.synced) return;
    // A poll whose CRC is wrong was not received (§2.2.2): ignored whole, before it is taken as an
    // implied ACK. Taken as one, the host's retry with a bit flipped on the line ran the ACK's
    // effect (an exception popped, a ticket record marked read), and its clean retry was answered
    // as a new poll: what the host never had was lost (a review of 4 December).
    if (h.kind === 'long' && h.known && hasCrc(h.command) && !crcOk(h.bytes)) return;
    // A command this machine does not know: a real host's poll is two bytes (type R) or ends in its
    // CRC. Anything else is a poll hit on the line (a retry's command byte flipped): not received,
    // so no implied ACK of an answer the host may never have had (until 7 December it was one).
    if (h.kind === 'long' && !h.known && h.bytes.length !== 2 && !crcOk(h.bytes)) return;
    this.taken(h.at, h.end);
    const poll = h.kind === 'general' ? Uint8Array.of(0x80 | h.address) : h.bytes;
    if (this.pending && sameBytes(this.pending.poll, poll)) return this.repeat(this.pending);
    // A one- or two-byte poll after the answer to a longer one: it may be that poll's retry cut on
    // the line (its address byte made a general poll, its command byte a type R command), which a
    // data character right after it shows (`continued`). Answered now (§2.3.1's 20 ms), but its
    // implied ACK of that answer is held until the poll is known whole.
    if (poll.length <= 2 && this.pending && this.pending.poll.length > 2) {
      this.held = this.pending;
      this.heldAt = elapsedOf(this.clock);
      this.pending = null;
    }
    // What the ACK does was not done: this poll is left unanswered, as if lost, and its retry acknowledges again.
    else if (!this.acknowledge()) return;
    if (h.kind === 'general') this.generalPoll(poll);
    else if (h.known) this.longPoll(h.bytes, h.command);
    else this.markUp(); // a long poll we do not support: ignored, not NACKed (§4.4), but the host is there
  }

  /**
   * The short poll just answered was the start of a longer message hit on the line: not received.
   * Its answer is disregarded (the host reads it as no answer to what it sent) and the answer it
   * seemed to acknowledge is pending again, for the host's retry to be answered with (§3.2).
   */
  private retract(): void {
    const answered = this.fresh;
    this.fresh = null;
    // Its characters were no message taken: with what came before and after, they are what the line made of the host's tries.
    this.tries.retract();
    if (this.held) {
      this.pending = this.held;
      this.held = null;
    }
    // Nothing held (no longer answer awaited its ACK): the short poll's own answer is not pending
    // either. Left pending, the host's retry acknowledged it: a general poll's exception (or the
    // ROM signature) the host never read was taken out (until 7 December).
    else if (answered !== null && this.pending === answered) this.pending = null;
  }

  /**
   * The short poll was whole: its implied ACK of the answer before it is done now. If what the ACK
   * does fails, that answer is pending again (the next poll acknowledges it again) and the short
   * poll's answer, whose ACK would come first, is let go: the host asks again.
   */
  private confirm(): void {
    const held = this.held;
    this.held = null;
    if (held?.onAck && this.attempt(held.poll[1] ?? null, 'ack', held.onAck) === FAILED) this.pending = held;
    else this.lastAckAt = elapsedOf(this.clock);
  }

  /** A message taken (`HitTries`): the pending poll's tries the line hit are counted; after the third, its answer is forgotten. */
  private taken(at: number, end: number): void {
    this.tries.taken(at, end, this.pending);
    if (this.pending && this.pending.repeats >= 2) this.pending = null;
  }

  /** An implied NACK: the same bytes again, never the poll's effect twice; after the third poll the answer is forgotten but its exception kept (§3.2). */
  private repeat(p: Pending): void {
    this.send(p.reply);
    if (++p.repeats >= 2) this.pending = null;
  }

  /**
   * An implied ACK of the last answer, if one is awaited (`cycle`: the host polled another address,
   * which also shows it cycling). False when what the ACK does failed (0x4D's read not kept): the
   * answer stays pending, so that the host's next poll acknowledges it again.
   */
  private acknowledge(cycle = false): boolean {
    if (cycle) this.lastAckAt = elapsedOf(this.clock);
    const p = this.pending;
    if (!p) return true;
    if (p.onAck && this.attempt(p.poll.length > 1 ? (p.poll[1] ?? null) : null, 'ack', p.onAck) === FAILED) return false;
    this.pending = null;
    this.lastAckAt = elapsedOf(this.clock);
    return true;
  }

  private generalPoll(poll: Uint8Array): void {
    const signature = this.rom.signature;
    if (signature !== null) {
      const reply = withCrc(this.options.address, LP.romSignature, Uint8Array.of(signature & 0xff, signature >>> 8));
      return this.answer(poll, reply, () => {
        this.rom.signature = null;
      });
    }
    const item = this.exceptions.next();
    this.answer(poll, Uint8Array.of(item?.code ?? EXC.none), item === null ? undefined : () => this.acknowledged(item));
  }

  private acknowledged(item: Queued): void {
    if (item.code === EXC.handpayPending) this.noteHandpay(this.clock.now());
    const done = this.exceptions.acknowledge(item);
    if (done) this.events.emit({ type: 'exception-acked', ...done });
  }

  private longPoll(bytes: Uint8Array, command: number): void {
    const reply = this.attempt(command, 'answer', () => {
      const r = respond(bytes, this.options.game);
      if (r.kind === 'rom') this.computeRom(r.seed);
      return r;
    });
    if (reply === FAILED || reply.kind === 'ignore') return;
    // Only a 1B answered ends the reissue (before its answer goes, so the note is kept first): one
    // left unanswered (its read failed) leaves the copy of 51 and the note for the host's retry.
    if (command === LP.handpayInfo && (this.handpayAckedAt !== null || this.handpayReissued)) this.handpayAsked();
    this.answer(bytes, reply.bytes, reply.kind === 'send' ? reply.onAck : undefined);
  }

  /**
   * The station's part of a poll, or of the host's ACK of an answer. Its failure (the journal or the
   * data folder refusing a write) must not leave the machine, whose caller is the port's data
   * handler: it is reported, and the caller answers nothing for it, so nothing not kept is claimed
   * done and the host's retry goes as after a lost answer. The write to the host is not in here: a
   * test's writer throws to fail the test.
   */
  private attempt<T>(command: number | null, stage: 'answer' | 'ack' | 'watchdog', fn: () => T): T | typeof FAILED {
    try {
      return fn();
    } catch (error) {
      this.events.emit({ type: 'poll-failed', command, stage, error });
      return FAILED;
    }
  }

  private answer(poll: Uint8Array, reply: Uint8Array, onAck?: () => void): void {
    // Its tries the line hit before this one (`hitTries`): after the third, no next poll acknowledges it.
    const repeats = this.tries.before(poll);
    this.pending = this.fresh = { poll, reply, repeats, ...(onAck ? { onAck } : {}) };
    this.send(reply);
    this.markUp();
    if (repeats >= 2) this.pending = null;
  }

  private send(bytes: Uint8Array): void {
    this.answered++;
    this.options.write(bytes, false);
  }

  private markUp(): void {
    if (this.state === 'up') return;
    this.state = 'up';
    this.lastAckAt = elapsedOf(this.clock);
    this.events.emit({ type: 'link-up', again: this.everUp });
    this.everUp = true;
  }

  /** The watchdog's turn: chirp while silent; report the link down once per outage. */
  private watch(): void {
    // The link's silences on the monotonic clock; the handpay's reissue on the wall clock, whose note outlives a restart.
    const now = elapsedOf(this.clock);
    // A general poll held that no character followed within a message's time: it was whole.
    if (this.deferred && now - this.deferred.at > WOKEN_MS) this.takeDeferred();
    const silent = now - this.lastAddressAt >= (this.options.silenceMs ?? 5000);
    if (silent) this.options.write(Uint8Array.of(this.options.address), true);
    // The station read in a timer's turn: a failure here would leave the timer (the host's process) and never arm it again.
    this.attempt(LP.handpayInfo, 'watchdog', () => this.reissueHandpay(this.clock.now()));
    this.attempt(LP.aftStatus, 'watchdog', () => this.reissueLocked(now));
    const reason = silent ? 'no-address' : now - this.lastAckAt >= (this.options.ackTimeoutMs ?? 30_000) ? 'no-ack' : null;
    if (reason === null || this.state === 'down') return;
    this.state = 'down';
    this.synced = false;
    this.pending = null;
    this.held = null;
    this.fresh = null;
    this.deferred = null;
    this.events.emit({ type: 'link-down', reason });
  }

  /**
   * 1B asked: the reissue ends. A copy of 51 the watchdog raised and no general poll has reported
   * yet is withdrawn: it asked for this 1B, and its acknowledgement would start the reissue again
   * with the handpay just read. The journal's 51 (tagged) stays to be reported.
   */
  private handpayAsked(): void {
    this.exceptions.withdrawUntagged(EXC.handpayPending);
    this.noteHandpay(null);
  }

  /** The reissue's note changed: the caller keeps it (a restart takes it back as `handpayAckedAt`). */
  private noteHandpay(ackedAt: number | null): void {
    this.handpayAckedAt = ackedAt;
    this.handpayReissued = false;
    this.events.emit({ type: 'handpay-note', ackedAt });
  }

  /**
   * §7.8.1: 51 again once its time is up, if the handpay is still pending and no 51 is already
   * waiting (untagged: the journal's 51 was acknowledged). The kept note is left as it is when 51
   * is raised again: until the host acknowledges this 51 (a new note), a restart raises it again.
   */
  private reissueHandpay(now: number): void {
    const every = this.options.handpayReissueMs === undefined ? 15_000 : this.options.handpayReissueMs;
    if (every === null || this.handpayAckedAt === null || now - this.handpayAckedAt < every) return;
    if (this.options.game.handpay() === null) return this.noteHandpay(null);
    this.handpayAckedAt = null;
    this.handpayReissued = true;
    if (!this.exceptions.flagged(EXC.handpayPending)) this.raise(EXC.handpayPending);
  }

  /**
   * §8: 6F again every 5 s while the station is locked (the first is the journal's, raised as the
   * lock took effect). A copy the lock's end finds unreported is withdrawn: the station is no longer
   * locked. A flag still waiting is not raised twice.
   */
  private reissueLocked(now: number): void {
    if (!(this.options.game.aft?.locked() ?? false)) {
      if (this.lockReportedAt !== null) this.exceptions.withdrawUntagged(EXC.gameLocked);
      this.lockReportedAt = null;
      return;
    }
    if (this.lockReportedAt === null) this.lockReportedAt = now;
    if (now - this.lockReportedAt < GAME_LOCKED_REISSUE_MS) return;
    this.lockReportedAt = now;
    if (!this.exceptions.flagged(EXC.gameLocked)) this.raise(EXC.gameLocked);
  }

  /** Long poll 0x21: the seeded CRC over the running program, a chunk per turn; reported at a general poll (§6.1). A new request restarts it. */
  private computeRom(seed: number): void {
    const generation = ++this.rom.generation;
    this.rom.signature = null;
    this.rom.wanted = seed;
    // A read of the program runs: it stops at its next chunk and reads again for this seed. Never a
    // second read beside it: each poll opened its own and a flood of seeds held thousands of files
    // open and their buffers (a review: F5).
    if (this.rom.reading) return;
    const image = this.options.game.romImage();
    if (!(image instanceof Uint8Array)) {
      void this.readRom(image);
      return;
    }
    const chunk = this.options.romChunk ?? 65_536;
    let crc = seed & 0xffff;
    let at = 0;
    const step = (): void => {
      if (generation !== this.rom.generation) return;
      const to = Math.min(image.length, at + chunk);
      crc = crc16Kermit(image, at, to, crc);
      at = to;
      if (at < image.length) this.clock.setTimeout(step, 0);
      else this.done(crc);
    };
    this.clock.setTimeout(step, 0);
  }

  private done(signature: number): void {
    this.rom.signature = signature;
    this.rom.wanted = null;
  }

  /**
   * The one read of a program read part by part, for the newest seed wanted: one superseded stops
   * between chunks, closes its reader (the iteration's return), and the next opens only then.
   */
  private async readRom(first: AsyncIterable<Uint8Array>): Promise<void> {
    this.rom.reading = true;
    try {
      let image: AsyncIterable<Uint8Array> | null = first;
      while (this.rom.wanted !== null) {
        const generation = this.rom.generation;
        const seed = this.rom.wanted;
        const parts = image ?? this.options.game.romImage();
        image = null;
        if (parts instanceof Uint8Array) return this.done(crc16Kermit(parts, 0, parts.length, seed));
        const crc = await this.computeRomParts(parts, seed, generation);
        if (crc !== null && generation === this.rom.generation) this.done(crc);
      }
    } finally {
      this.rom.reading = false;
    }
  }

  /**
   * The CRC over a program read part by part, a chunk per turn; null when a newer request
   * superseded it (stopped between chunks, the reader closed as it ends) or a part could not be
   * read (a file gone: reported as the poll's failure, no signature; the system's wait for one is
   * its own to time out).
   */
  private async computeRomParts(parts: AsyncIterable<Uint8Array>, seed: number, generation: number): Promise<number | null> {
    const chunk = this.options.romChunk ?? 65_536;
    let crc = seed & 0xffff;
    try {
      for await (const part of parts) {
        for (let at = 0; at < part.length; at += chunk) {
          if (generation !== this.rom.generation) return null;
          crc = crc16Kermit(part, at, Math.min(part.length, at + chunk), crc);
          await new Promise<void>((resolve) => this.clock.setTimeout(resolve, 0));
        }
      }
      return generation === this.rom.generation ? crc : null;
    } catch (error) {
      if (generation === this.rom.generation) {
        this.rom.wanted = null;
        this.events.emit({ type: 'poll-failed', command: LP.romSignature, stage: 'answer', error });
      }
      return null;
    }
  }
}

/**
 * Whether a poll to another machine or a broadcast is one a host could have sent: a broadcast
 * always ends in its CRC (§2.2.2.4: type G carries one, whatever its command; until 7 December two
 * bytes to address 0 of a command known as type R were taken as one); a poll to another machine is
 * two bytes (type R) or ends in its CRC (§2.2.2, §5.2). One hit on the line is neither.
 */
function sentByAHost(bytes: Uint8Array): boolean {
  if (bytes[0] === 0) return crcOk(bytes);
  return bytes.length === 2 || crcOk(bytes);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
