// A SAS host, as a casino management system's polling loop drives one machine on a multi-drop
// line, written from the protocol document with its own codecs (./codec.ts). Before each new poll
// it polls another address (an absent machine), which is the implied ACK of the machine's last
// answer (SAS 6.02 §3.1); an answer that does not come within the window, or comes with a bad
// CRC, is asked for again with the same poll, at most twice (the implied NACK, §3.2).
import { appendCrc, bcd, crcValid, message, WireReader } from './codec.js';

export interface HostIo {
  write(bytes: Uint8Array): Promise<void>;
  onData(fn: (bytes: Uint8Array) => void): void;
  close(): Promise<void>;
}

/** How long an answer is: 'ack' one byte, a fixed length, a length byte at index 2, or what a function of the bytes so far says (null: not known yet). */
export type Shape = 'ack' | number | 'variable' | ((received: readonly number[]) => number | null);

export interface HostOptions {
  /** The machine must start answering within 20 ms (§2.3.1); over a pty on a loaded test machine we allow more and measure instead (bench/sas.bench.ts). */
  answerTimeoutMs?: number;
  /** The absent machine polled for the implied ACK. */
  otherAddress?: number;
}

export class SasHost {
  private readonly reader = new WireReader();
  private received: number[] = [];
  private wakeUp: (() => void) | null = null;
  /** Characters the machine sent with the wake-up bit: its chirps (§4.2). */
  readonly chirps: number[] = [];
  /** Polls sent again after a missing or damaged answer. */
  retries = 0;
  private readonly timeoutMs: number;
  private readonly other: number;

  constructor(
    private readonly io: HostIo,
    readonly address: number,
    options: HostOptions = {},
  ) {
    this.timeoutMs = options.answerTimeoutMs ?? 250;
    this.other = options.otherAddress ?? (address === 127 ? 126 : 127);
    io.onData((chunk) => {
      for (const c of this.reader.read(chunk)) {
        if (c.wake) this.chirps.push(c.byte);
        else this.received.push(c.byte);
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
    this.received = [];
    await this.io.write(message(bytes));
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const need = this.needed(shape);
      if (need !== null && this.received.length >= need) return this.received.splice(0, need);
      const left = deadline - Date.now();
      if (left <= 0) return null;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.wakeUp = () => {
          clearTimeout(t);
          resolve();
        };
      });
      this.wakeUp = null;
    }
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
    for (let attempt = 0; attempt < 3; attempt++) {
      if (attempt > 0) this.retries++;
      const answer = await this.exchange(bytes, shape);
      if (answer && this.wellFormed(answer, bytes[1] ?? -1, shape)) return answer;
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
