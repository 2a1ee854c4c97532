/**
 * What the host's metrics are read from: plain functions and figures handed in by the composition
 * root (host/start-host.ts), so this folder depends on nothing else of the host.
 */
export interface HostMetricSources {
  tableId: string;
  game: string;
  /** The table's meters (ledger scope `table`): cumulative, restored with the ledger. */
  tableMeters(): Record<string, number>;
  /** Faults active now, one kind per fault (a kind may repeat, one per station). */
  activeFaults(): string[];
  /** Live screen connections, by the view each was granted (null: not yet said hello). */
  screens(): (string | null)[];
  /** The sync client's figures; absent when the kiosk does not sync (then no sync metrics at all). */
  sync?: () => SyncFigures;
  ledger(): { entries: number; bytes: number };
  tableOnHold(): boolean;
}

export interface SyncFigures {
  lagEntries: number;
  lagSeconds: number;
  ackedSeq: number;
  consecutiveFailures: number;
  stopNewBets: boolean;
}
