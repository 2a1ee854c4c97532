// The general poll's exceptions (SAS 6.02 §2.2.1): a FIFO of at least 20 events, whose oldest is
// lost when it overflows (exception 0x70, buffer overflow, is then reported at the next
// opportunity), and the priority exceptions, which are never queued: each is a flag until the
// host acknowledges it, and a set flag is always reported before the queue, highest first in
// the order of PRIORITY_ORDER. An exception leaves only when the host acknowledges it (an implied
// ACK, §3.1), or, a flag raised untagged (the machine's own reissued 51), when its raiser
// withdraws it or a tagged raise of the same code takes it over; a repeated poll (an implied NACK) is answered with the same exception. Each may
// carry its raiser's tag (the host's: the journal entry it comes from), handed back when the host
// acknowledges it or when an overflow loses it, so the raiser knows which of its events the host has.
import { EXC, PRIORITY_ORDER } from './constants.js';

const PRIORITY = new Set(PRIORITY_ORDER);

/** An exception as queued, with its raiser's tag (absent: nobody asked to hear of it). */
export interface Queued {
  code: number;
  tag?: string;
}

export function isPriority(code: number): boolean {
  return PRIORITY.has(code);
}

export class ExceptionQueue {
  private readonly fifo: Queued[] = [];
  private readonly flags = new Map<number, Queued>();

  /** `capacity`: the FIFO's size; SAS asks for at least 20. */
  constructor(readonly capacity = 20) {
    if (!Number.isInteger(capacity) || capacity < 20) throw new RangeError('SAS asks for an exception queue of at least 20');
  }

  /**
   * Queues an exception (a priority one sets its flag); returns the exception lost to an overflow,
   * if any. A priority exception raised again while its flag is set is reported once: a tagged
   * raise takes over a flag raised untagged (the machine's own copy of 51, nobody's event: its one
   * report now answers for the raiser's, whose tag comes back at its acknowledgement); otherwise
   * the flag keeps the tag it has. A raiser that must hear each of its events acknowledged raises
   * the next only once no tagged flag of that code waits (`claimed`), as the journal's feed does.
   */
  raise(code: number, tag?: string): Queued | null {
    if (code === EXC.none || !Number.isInteger(code) || code < 0 || code > 0xff) throw new RangeError(`not an exception code: ${code}`);
    const item: Queued = tag === undefined ? { code } : { code, tag };
    if (PRIORITY.has(code)) {
      const flag = this.flags.get(code);
      // Taken over in place: a report of the untagged flag, awaiting its ACK, answers for this one.
      if (!flag) this.flags.set(code, item);
      else if (flag.tag === undefined && tag !== undefined) flag.tag = tag;
      return null;
    }
    let lost: Queued | null = null;
    if (this.fifo.length >= this.capacity) {
      lost = this.fifo.shift() ?? null;
      if (!this.flags.has(EXC.bufferOverflow)) this.flags.set(EXC.bufferOverflow, { code: EXC.bufferOverflow });
    }
    this.fifo.push(item);
    return lost;
  }

  /** The exception the next general poll reports: the highest priority flag, else the oldest queued, else 0x00. */
  peek(): number {
    return this.next()?.code ?? EXC.none;
  }

  /** The exception the next general poll reports, itself (for `acknowledge`), or null for 0x00. */
  next(): Queued | null {
    if (this.flags.size > 0) for (const code of PRIORITY_ORDER) if (this.flags.has(code)) return this.flags.get(code) ?? null;
    return this.fifo[0] ?? null;
  }

  /**
   * The host acknowledged `item`, which a general poll reported (`next`): it leaves (returned, with
   * its tag). Only that one: if it is gone meanwhile (lost to an overflow, a flag withdrawn), nothing
   * leaves. The machine's ACK names the item: by its code, it took out the next of that code, which
   * the host never had. A code (a test's host acknowledging at once what it was just told) takes out
   * the exception of that code a general poll would report now.
   */
  acknowledge(what: Queued | number): Queued | null {
    const item = typeof what === 'number' ? this.reportable(what) : what;
    if (!item) return null;
    if (this.flags.get(item.code) === item) {
      this.flags.delete(item.code);
      return item;
    }
    if (this.fifo[0] === item) return this.fifo.shift() ?? null;
    return null;
  }

  /** The exception of `code` a general poll reports when it comes to that code: its flag, or the queue's oldest if of that code. */
  private reportable(code: number): Queued | null {
    return this.flags.get(code) ?? (this.fifo[0]?.code === code ? this.fifo[0] : null);
  }

  /**
   * Removes a priority exception's flag raised without a tag (its raiser's own, no event anyone
   * waits to hear acknowledged), before a general poll reports it; true if there was one. A tagged
   * flag stays.
   */
  withdrawUntagged(code: number): boolean {
    const flag = this.flags.get(code);
    if (!flag || flag.tag !== undefined) return false;
    return this.flags.delete(code);
  }

  /** Whether a priority exception's flag is set (raising it again would not report it twice). */
  flagged(code: number): boolean {
    return this.flags.has(code);
  }

  /** Whether a priority exception's flag is set with a raiser's tag (a tagged raise now would not be heard acknowledged). */
  claimed(code: number): boolean {
    return this.flags.get(code)?.tag !== undefined;
  }

  /** Exceptions in the FIFO (not the flags): room left is `capacity − queued`. */
  get queued(): number {
    return this.fifo.length;
  }

  /** Queued exceptions and set flags, for tests and diagnostics. */
  get size(): number {
    return this.fifo.length + this.flags.size;
  }
}
