// SAS 6.02 §3.2: the host tries a poll three times at most, then goes on, and its next poll is no
// ACK of an answer it never had. A try the line hit is one of the three, though the machine never
// took it as a poll (a CRC wrong, a command or an address the line made, a byte woken, the
// address's wake-up bit lost, a short poll shown cut): what comes between two messages the machine
// takes is kept here, and a stretch of it that is the pending poll's length and differs from it in
// one byte at most (the hit one, the wake-up bit included) is counted as a try of it; so is such a
// stretch before a poll's first answer, as a try of that poll. Until 7 December none was, and a
// host that gave up after three tries of which the machine heard two acknowledged by its next poll
// the answer it never had (a 0x4D record marked read).

/** What the machine keeps of a poll answered: its bytes and how many of its tries came after the first. */
export interface Tried {
  poll: Uint8Array;
  repeats: number;
}

/** Characters kept of noise with no message taken: a few of the longest poll (3 + 255 + 2). */
const KEPT = 1_040;

export class HitTries {
  /** The characters since the last message taken; `from`: the index of the first. */
  private raw: number[] = [];
  private from = 0;
  /** What `taken` changed, for `retract` to give back. */
  private undo: { raw: number[]; from: number; pending: Tried | null; repeats: number } | null = null;
  /** What came before the message taken last, after the pending poll's last try. */
  private between: readonly number[] = [];

  /** Every character received, before the assembler reads it (the indices of `taken` count them from 0). */
  char(byte: number): void {
    this.raw.push(byte);
    if (this.raw.length > KEPT * 2) {
      this.from += this.raw.length - KEPT;
      this.raw = this.raw.slice(-KEPT);
    }
  }

  /**
   * A message taken, characters `at` to before `end`: what came before it counts as tries of the
   * pending poll (`pending.repeats`). What follows the pending poll's last try is kept for `before`
   * (not those: the same poll asked anew after the host gave up is a first try).
   */
  taken(at: number, end: number, pending: Tried | null): void {
    const cut = (i: number): number => Math.max(0, i - this.from);
    const between = this.raw.slice(0, cut(at));
    this.undo = { raw: this.raw.slice(0, cut(end)), from: this.from, pending, repeats: pending?.repeats ?? 0 };
    this.raw = this.raw.slice(cut(end));
    this.from = end;
    const found = pending ? triesIn(between, pending.poll) : { tries: 0, end: 0 };
    if (pending) pending.repeats += found.tries;
    this.between = between.slice(found.end);
  }

  /** The message taken last was cut from a longer one: its characters, and what came before, are noise again; its tries uncounted. */
  retract(): void {
    const undo = this.undo;
    this.undo = null;
    if (!undo) return;
    this.raw = [...undo.raw, ...this.raw];
    this.from = undo.from;
    if (undo.pending) undo.pending.repeats = undo.repeats;
  }

  /** How many tries of `poll`, answered anew, the line hit before it. */
  before(poll: Uint8Array): number {
    return triesIn(this.between, poll).tries;
  }
}

/**
 * How many tries of `poll` the line hit are in `between` (stretches of its length that differ from
 * it in one byte at most), and where the last ends (0 if none). A poll of one or two bytes is not
 * matched so: any noise is that close to it.
 */
function triesIn(between: readonly number[], poll: Uint8Array): { tries: number; end: number } {
  const n = poll.length;
  let tries = 0;
  let end = 0;
  if (n < 3) return { tries, end };
  for (let i = 0; i + n <= between.length;) {
    let differ = 0;
    for (let j = 0; j < n && differ <= 1; j++) if (between[i + j] !== poll[j]) differ++;
    if (differ > 1) i++;
    else {
      tries++;
      i += n;
      end = i;
    }
  }
  return { tries, end };
}
