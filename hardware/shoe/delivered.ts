// What the framed driver delivered, by sequence number, so that a frame behind the expected number
// is told apart: a resend (the same event again: ACK again, drop) from another event under a number
// already used, or a number the shoe cannot be resending (its counter went back without a HELLO).
// Dropping those as resends let one card stand in for another (a review of the shoe driver).
import { seqDiff, type ShoeFrame } from './framed.js';

/** Sequence numbers remembered: far more than a shoe holds unacknowledged (its queue is resent whole every 500 ms). */
const KEPT = 256;
/** Different contents remembered under one number: a device that cycles more is told once each, up to this. */
const CONTENTS_PER_SEQ = 4;

/** A frame's type and payload, as one comparable value. */
export function contentOf(f: ShoeFrame): string {
  return String.fromCharCode(f.type, ...f.payload);
}

export class DeliveredRecord {
  private readonly bySeq = new Map<number, string[]>();
  /**
   * The HELLO's oldest unacknowledged event: from there on, a number not recorded may be a resend of
   * an event delivered before this record began (journalled before a host restart, our ACK lost).
   * Behind it the shoe holds nothing to resend. Null until a HELLO says.
   */
  private floor: number | null = null;

  /** Whether a frame behind the expected number is the shoe resending what it may still hold. */
  isResend(f: ShoeFrame): boolean {
    const seen = this.bySeq.get(f.seq);
    if (seen) return seen.includes(contentOf(f));
    return this.floor !== null && seqDiff(f.seq, this.floor) >= 0;
  }

  /** Remembers what was delivered (or reported) under a number; false when the number holds enough already. */
  add(f: ShoeFrame): boolean {
    const seen = this.bySeq.get(f.seq) ?? [];
    const content = contentOf(f);
    if (seen.includes(content)) return true;
    if (seen.length >= CONTENTS_PER_SEQ) return false;
    this.bySeq.delete(f.seq);
    this.bySeq.set(f.seq, [...seen, content]);
    if (this.bySeq.size > KEPT) this.bySeq.delete(this.bySeq.keys().next().value ?? f.seq);
    return true;
  }

  /** The shoe's HELLO: the oldest event it still holds unacknowledged, or (none) the next it will send. */
  resendsFrom(seq: number): void {
    this.floor = seq;
  }

  /** The shoe's counter restarted, or another host took its events: old numbers mean nothing now. */
  clear(): void {
    this.bySeq.clear();
  }
}
