// Each terminal's budget of journal a minute: entries and body bytes. The ingest's rate limit
// (600 batches a minute) counts per client address, and a batch may hold 5,000 entries and 8 MB:
// one cabinet with its own key could write some 4.5 GB a minute and keep an embedded PGlite busy
// most of every minute (a review). An honest table sends at most 500 entries and 512 KiB a batch
// (ledger/sync-client.ts), and it stops syncing (blocks play) past 50,000 unsynced entries: its
// whole backlog fits one minute's budget, and a stadium's busiest play (2,000 stations betting a
// round every half minute) is a fraction of it.

/** Entries and bytes (the sum of the entries' body lengths) a terminal may send a minute. */
export interface IngestBudgetLimits {
  entriesPerMinute: number;
  bytesPerMinute: number;
}

export const DEFAULT_INGEST_BUDGET: IngestBudgetLimits = { entriesPerMinute: 60_000, bytesPerMinute: 64 * 1024 * 1024 };

interface Left {
  entries: number;
  bytes: number;
  at: number;
}

/**
 * A bucket per terminal, full at a minute's budget and filling at its rate; a batch takes its
 * entries and bytes, or none when either is short. Held in memory per signed terminal (enrolled:
 * an invented id is refused before it, so the map grows with the enrolled terminals only).
 */
export class IngestBudget {
  private readonly left = new Map<string, Left>();
  constructor(
    private readonly limits: IngestBudgetLimits = DEFAULT_INGEST_BUDGET,
    /** Milliseconds on a clock that never steps: a wall clock set forward would refill the budget at once. */
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Takes the batch from the terminal's budget: 0 when taken, else the milliseconds until it would fit. */
  take(terminal: string, entries: number, bytes: number): number {
    const { entriesPerMinute, bytesPerMinute } = this.limits;
    const t = this.now();
    const b = this.left.get(terminal) ?? { entries: entriesPerMinute, bytes: bytesPerMinute, at: t };
    const share = Math.max(0, t - b.at) / 60_000;
    b.entries = Math.min(entriesPerMinute, b.entries + share * entriesPerMinute);
    b.bytes = Math.min(bytesPerMinute, b.bytes + share * bytesPerMinute);
    b.at = t;
    this.left.set(terminal, b);
    if (entries <= b.entries && bytes <= b.bytes) {
      b.entries -= entries;
      b.bytes -= bytes;
      return 0;
    }
    const short = Math.max((entries - b.entries) / entriesPerMinute, (bytes - b.bytes) / bytesPerMinute);
    return Math.ceil(short * 60_000);
  }
}
