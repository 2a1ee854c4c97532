// The general poll's exceptions (SAS 6.02 §2.2.1): a FIFO of at least 20 events, whose oldest is
// lost when it overflows (exception 0x70, buffer overflow, is then reported at the next
// opportunity), and the priority exceptions, which are never queued: each is a flag until the
// host acknowledges it, and a set flag is always reported before the queue, highest first in
// the order of PRIORITY_ORDER. An exception leaves only when the host acknowledges it (an implied
// ACK, §3.1); a repeated poll (an implied NACK) is answered with the same exception.
import { EXC, PRIORITY_ORDER } from './constants.js';

const PRIORITY = new Set(PRIORITY_ORDER);

export class ExceptionQueue {
  private readonly fifo: number[] = [];
  private readonly flags = new Set<number>();

  /** `capacity`: the FIFO's size; SAS asks for at least 20. */
  constructor(readonly capacity = 20) {
    if (!Number.isInteger(capacity) || capacity < 20) throw new RangeError('SAS asks for an exception queue of at least 20');
  }

  /** Queues an exception (a priority one sets its flag); returns the exception lost to an overflow, if any. */
  raise(code: number): number | null {
    if (code === EXC.none || !Number.isInteger(code) || code < 0 || code > 0xff) throw new RangeError(`not an exception code: ${code}`);
    if (PRIORITY.has(code)) {
      this.flags.add(code);
      return null;
    }
    let lost: number | null = null;
    if (this.fifo.length >= this.capacity) {
      lost = this.fifo.shift() ?? null;
      this.flags.add(EXC.bufferOverflow);
    }
    this.fifo.push(code);
    return lost;
  }

  /** The exception the next general poll reports: the highest priority flag, else the oldest queued, else 0x00. */
  peek(): number {
    if (this.flags.size > 0) for (const code of PRIORITY_ORDER) if (this.flags.has(code)) return code;
    return this.fifo[0] ?? EXC.none;
  }

  /** The host acknowledged `code`, which a general poll reported: it leaves. */
  acknowledge(code: number): void {
    if (this.flags.delete(code)) return;
    if (this.fifo[0] === code) this.fifo.shift();
  }

  /** Queued exceptions and set flags, for tests and diagnostics. */
  get size(): number {
    return this.fifo.length + this.flags.size;
  }
}
