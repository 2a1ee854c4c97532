import type { Outcome } from '../../engine/table/game.js';
import type { TableInput } from '../../engine/table/inputs.js';
import type { Timers } from './timers.js';

/** How long station commands wait for others to share their durable commit. */
export interface GroupCommit {
  /** The window from the first command waiting to the commit (a few milliseconds). */
  readonly windowMs: number;
}

/**
 * A few milliseconds: a betting window's bets arrive in bursts (a table's 250 stations open their
 * window at once), and 2 ms is a fraction of a durable commit's own time on this hardware, so a
 * bet waits little more for its acknowledgement than it did alone.
 */
export const GROUP_COMMIT: GroupCommit = { windowMs: 2 };

/**
 * Station commands (bets, decisions) gathered for one durable commit: the first to arrive opens a
 * window of `windowMs`, every command arriving within it joins, and at its end `commit` steps them
 * all in order and journals them in one transaction. Each command's promise settles only after
 * that commit returned (journalled before acknowledged); a commit the ledger refuses settles each
 * with its own outcome as `commit` gives it. `flush` commits at once what waits: anything else the
 * table does (a card, a timer, a credit, a read of its state) comes after the commands that
 * arrived before it.
 */
export class CommandBatch {
  private waiting: { input: TableInput; settle: (o: Outcome) => void }[] = [];
  private timer: unknown = null;

  constructor(
    private readonly config: GroupCommit,
    private readonly timers: Timers,
    private readonly commit: (inputs: readonly TableInput[]) => Outcome[],
  ) {}

  submit(input: TableInput): Promise<Outcome> {
    return new Promise((settle) => {
      this.waiting.push({ input, settle });
      if (this.waiting.length === 1) this.timer = this.timers.setTimeout(() => this.flush(), this.config.windowMs);
    });
  }

  /** Whether commands wait for their commit. */
  pending(): boolean {
    return this.waiting.length > 0;
  }

  /** Commits what waits now. */
  flush(): void {
    if (this.waiting.length === 0) return;
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
    // Taken first: a commit's listeners may read the table, which flushes again (nothing then).
    const batch = this.waiting;
    this.waiting = [];
    let outcomes: Outcome[];
    try {
      outcomes = this.commit(batch.map((b) => b.input));
    } catch (e) {
      const reason = `not committed: ${e instanceof Error ? e.message : String(e)}`;
      outcomes = batch.map(() => ({ ok: false, reason }));
    }
    batch.forEach((b, i) => b.settle(outcomes[i] ?? { ok: false, reason: 'not committed' }));
  }

  /** The table stops: what waits is refused, never committed. */
  close(reason: string): void {
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
    for (const b of this.waiting.splice(0)) b.settle({ ok: false, reason });
  }
}
