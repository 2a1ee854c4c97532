// How long ID-003 lets a note or ticket told to stack stay on its way. An honest unit reports
// STACKING for a second or two, then VEND VALID (or gives the note back, or jams: each a report of
// its own). A unit that says STACKING at every poll, or keeps the note in escrow however often it
// is told STACK, has taken the player's money and says nothing the table can act on; past the
// limit (`stackTimeoutMs`, as SSP's quiet polls: docs/protocols/id003.md) it is `note-vanished`.
import { elapsedOf, type Clock } from '../../clock.js';

export class StackStall {
  private since: number | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly limitMs: number,
  ) {}

  /** Whether this report, one more of a stack still on its way (`onItsWay`), is past the limit; any other report starts the count again. */
  stalled(onItsWay: boolean): boolean {
    if (!onItsWay) {
      this.since = null;
      return false;
    }
    const now = elapsedOf(this.clock);
    this.since ??= now;
    if (now - this.since < this.limitMs) return false;
    this.since = null;
    return true;
  }

  get limit(): number {
    return this.limitMs;
  }
}
