// When the entries the witness has not signed yet were journalled, so that the witness link's age
// limit (`maxUnwitnessedSeconds`, witness-link.ts) counts from the oldest entry still waiting. It
// once counted from the first entry of a stretch that was never wholly signed: on a busy table
// the next commit always lands while the last head is being signed, so the stretch never ended and
// new bets stopped after a minute with the witness a fraction of a second behind.

/** Commits closer together than this share one mark (an entry may be counted older by less than this: the limit errs toward stopping). */
const GRAIN_MS = 1_000;

/**
 * At most this many marks (an hour of commits a second apart): past it a new commit shares the
 * newest mark, older than it is, so a witness away for so long only looks further behind.
 */
const MAX_MARKS = 3_600;

export class UnwitnessedAges {
  /** The first entry of each run of commits and when it was journalled, oldest first. */
  private marks: { seq: number; at: number }[] = [];

  /** Entries from `seq` on were journalled at `at` (ms). */
  appended(seq: number, at: number): void {
    const last = this.marks[this.marks.length - 1];
    if (last && (at - last.at < GRAIN_MS || this.marks.length >= MAX_MARKS)) return;
    this.marks.push({ seq, at });
  }

  /** The witness signed every entry through `seq`; the journal's head is `head`. */
  witnessedThrough(seq: number, head: number): void {
    if (seq >= head) {
      this.marks = [];
      return;
    }
    // The oldest entry waiting is seq + 1: keep the run that holds it and every later one.
    let drop = 0;
    while (drop + 1 < this.marks.length && (this.marks[drop + 1]?.seq ?? Infinity) <= seq + 1) drop++;
    if (drop > 0) this.marks.splice(0, drop);
  }

  /** When the oldest entry not yet witnessed was journalled (ms), or null when none is known to wait. */
  oldest(): number | null {
    return this.marks[0]?.at ?? null;
  }
}
