// A SAS host, as a casino management system's polling loop drives one machine on a multi-drop
// line, written from the protocol document with its own codecs (./codec.ts). Before each new poll
// it polls another address (an absent machine), which is the implied ACK of the machine's last
// answer (SAS 6.02 §3.1); an answer that does not come within the window, or comes with a bad
// CRC, is asked for again with the same poll, at most twice (the implied NACK, §3.2).
//
// On a loaded machine an answer can come after the window. The machine answers every poll it
// hears, in order, and answers the same poll again with the same bytes (§3.2): so an answer is
// matched to its poll (a long poll's answer starts with the address and the command: anything
// before that is a late answer to an earlier poll, dropped), and after a poll that was sent again
// the copies still owed by the attempts that timed out are waited for and dropped, so none is
// read as the next poll's answer.
import { appendCrc, bcd, crcValid, message, WireReader } from './codec.js';

export interface HostIo {
  write(bytes: Uint8Array): Promise<void>;
  onData(fn: (bytes: Uint8Array) => void): void;
  close(): Promise<void>;
}

/** How long an answer is: 'ack' one byte, a fixed length, a length byte at index 2, or what a function of the bytes so far says (null: not known yet). */
export type Shape = 'ack' | number | 'variable' | ((received: readonly number[]) => number | null);

export interface HostOptions {
  /** The machine must start answering within 20 ms (§2.3.1); over a pty on a loaded test machine we allow far more (1 s: an answer comes as soon as it is ready, so only a poll meant to go unanswered waits it out) and measure instead (bench/sas.bench.ts). */
  answerTimeoutMs?: number;
  /** The absent machine polled for the implied ACK. */
  otherAddress?: number;
}

export class SasHost {
  private readonly reader = new WireReader();
  private received: number[] = [];
  /** When each byte of `received` reached the simulator (Date.now() in its data handler). */
  private arrivedAt: number[] = [];
  private wakeUp: (() => void) | null = null;
  /** Characters the machine sent with the wake-up bit: its chirps (§4.2). */
  readonly chirps: number[] = [];
  /** Polls sent again after a missing or damaged answer. */
  retries = 0;
  /** Bytes dropped as late answers to earlier polls. */
  stale = 0;
  /** The last `exchange` gave null for an answer that came whole but late (left in, dropped by the next poll: no copy of it is owed). */
  private lastLate = false;
  private readonly timeoutMs: number;
  private readonly other: number;

  constructor(
    private readonly io: HostIo,
    readonly address: number,
    options: HostOptions = {},
  ) {
    this.timeoutMs = options.answerTimeoutMs ?? 1_000;
    this.other = options.otherAddress ?? (address === 127 ? 126 : 127);
    io.onData((chunk) => {
      for (const c of this.reader.read(chunk)) {
        if (c.wake) this.chirps.push(c.byte);
        else {
          this.received.push(c.byte);
          this.arrivedAt.push(Date.now());
        }
      }
      this.wakeUp?.();
    });
  }

  /** A general poll to another machine: synchronises a machine that has just started (§3.3) and acknowledges the last answer. */
  async pollOther(): Promise<void> {
    await this.io.write(message([0x80 | this.other]));
  }

  /** Sends `bytes` as one message and reads an answer of `shape`; null after the window. */
  async exchange(bytes: readonly number[], shape: Shape, timeoutMs = this.timeoutMs): Promise<number[] | null> {
    this.stale += this.take(this.received.length).length;
    this.lastLate = false;
    await this.io.write(message(bytes));
    // A long poll to this machine (not a general poll, not a broadcast): its answer is this address and this command, or this address alone (an ACK or NACK).
    const command = bytes[0] === this.address && bytes.length > 1 ? bytes[1] : undefined;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (command !== undefined) this.dropUntilAnswerTo(command, shape === 'ack');
      const need = this.needed(shape);
      // In time only if its last byte came by the deadline: a simulator held past it (a loaded
      // machine) finds a late answer already in, and reading it before the deadline was looked at
      // took it as in time. A late answer stays, dropped as stale by the next poll.
      if (need !== null && this.received.length >= need) {
        if ((this.arrivedAt[need - 1] ?? Infinity) <= deadline) return this.take(need);
        this.lastLate = true;
        return null;
      }
      const left = deadline - Date.now();
      if (left <= 0) return null;
      await this.arrival(left);
    }
  }

  /** Drops bytes before the first that can begin the answer to `command` (the address, then the command; for an ACK or NACK, the address or `address | 0x80`). */
  private dropUntilAnswerTo(command: number, ack: boolean): void {
    const r = this.received;
    const starts = (i: number): boolean =>
      ack ? r[i] === this.address || r[i] === (this.address | 0x80) : r[i] === this.address && (i + 1 >= r.length || r[i + 1] === command);
    let i = 0;
    while (i < r.length && !starts(i)) i++;
    if (i > 0) this.stale += this.take(i).length;
  }

  /** Resolves when bytes arrive, or after `ms`. */
  private async arrival(ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      this.wakeUp = () => {
        clearTimeout(t);
        resolve();
      };
    });
    this.wakeUp = null;
  }

  /** Waits (at most `ms`) for `n` more bytes, the copies an earlier attempt of the same poll still owes, and drops them. */
  private async dropCopies(n: number, ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    while (this.received.length < n && Date.now() < deadline) await this.arrival(deadline - Date.now());
    this.stale += this.take(n).length;
  }

  /** The first `n` bytes received (fewer if fewer came), removed with their arrival times. */
  private take(n: number): number[] {
    this.arrivedAt.splice(0, n);
    return this.received.splice(0, n);
  }

  /** Bytes received and not yet read as an answer (an unexpected or late answer). */
  leftover(): number[] {
    return [...this.received];
  }

  private needed(shape: Shape): number | null {
    if (shape === 'ack') return 1;
    if (typeof shape === 'number') return shape;
    if (typeof shape === 'function') return shape(this.received);
    const len = this.received[2];
    return len === undefined ? null : 3 + len + 2;
  }

  /** A poll whose answer is checked (address, command, CRC) and asked for again up to twice. */
  async poll(bytes: readonly number[], shape: Shape): Promise<number[]> {
    await this.pollOther();
    const t0 = Date.now();
    let unanswered = 0;
    for (let attempt = 0; attempt < 3; attempt++) {
      if (attempt > 0) this.retries++;
      const answer = await this.exchange(bytes, shape);
      if (answer && this.wellFormed(answer, bytes[1] ?? -1, shape)) {
        // The attempts that timed out were heard too: their answers (the same bytes) come after this one, as late as this one was.
        if (unanswered > 0) await this.dropCopies(unanswered * answer.length, Date.now() - t0 + this.timeoutMs);
        return answer;
      }
      if (!answer && !this.lastLate) unanswered++;
    }
    throw new Error(`no good answer to ${bytes.map((b) => b.toString(16).padStart(2, '0')).join(' ')} in three polls`);
  }

  private wellFormed(answer: number[], command: number, shape: Shape): boolean {
    if (shape === 'ack') return answer[0] === this.address || answer[0] === (this.address | 0x80);
    return answer[0] === this.address && answer[1] === command && crcValid(answer);
  }

  /** A general poll (after the implied ACK of the last answer): the exception code. */
  async generalPoll(): Promise<number> {
    await this.pollOther();
    const a = await this.exchange([0x80 | this.address], 1);
    if (!a) throw new Error('no answer to a general poll');
    return a[0] ?? -1;
  }

  /**
   * A general poll asked again with the same byte (the implied NACK, §3.2) when its answer does not
   * come within the window, at most twice, as `poll` asks a long poll again: on a loaded machine an
   * answer can take longer than the window. The copies the attempts that timed out still owe (the
   * same byte: a repeated poll is answered alike) are waited for and dropped.
   */
  async generalPollRetried(): Promise<number> {
    await this.pollOther();
    const t0 = Date.now();
    let owed = 0;
    for (let attempt = 0; attempt < 3; attempt++) {
      if (attempt > 0) this.retries++;
      const a = await this.exchange([0x80 | this.address], 1);
      const code = a?.[0];
      if (code === undefined) {
        // An answer that came late was dropped by this retry; one that has not come is still owed.
        if (!this.lastLate) owed++;
        continue;
      }
      if (owed > 0) await this.dropCopies(owed, Date.now() - t0 + this.timeoutMs);
      return code;
    }
    throw new Error('no answer to a general poll in three polls');
  }

  /** The same general poll again, without acknowledging: the implied NACK. */
  async generalPollAgain(): Promise<number | null> {
    const a = await this.exchange([0x80 | this.address], 1);
    return a?.[0] ?? null;
  }

  /** A type R long poll (address, command; no CRC). */
  typeR(command: number, shape: Shape): Promise<number[]> {
    return this.poll([this.address, command], shape);
  }

  /** A type S long poll: address, command, data, CRC. */
  typeS(command: number, data: readonly number[], shape: Shape): Promise<number[]> {
    return this.poll(appendCrc([this.address, command, ...data]), shape);
  }

  /** Long poll 0x7F to every machine (address 0, type G): never answered. */
  async broadcastTime(fields: { month: number; day: number; year: number; hour: number; minute: number; second: number }): Promise<void> {
    const f = fields;
    const bytes = appendCrc([0x00, 0x7f, ...bcd(f.month, 1), ...bcd(f.day, 1), ...bcd(f.year, 2), ...bcd(f.hour, 1), ...bcd(f.minute, 1), ...bcd(f.second, 1)]);
    await this.io.write(message(bytes));
  }
}
