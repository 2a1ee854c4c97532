// What a reconciliation of transfers is asked (how long a transfer may stay open, how far clocks
// may differ) and what it answers: apart from the reading and the alarms, which both use them.
import type { PairedTransfer } from '../../terms/transfer-reconcile.js';
import type { TableId } from '../../terms/transfer-terms.js';

export interface TransferWatch {
  /**
   * A transfer whose sender has journalled its debit and not its closing for longer than this is an
   * alarm; so is a one-sided disagreement (`pending`) whose missing end has not synced for as long.
   */
  readonly openAfterSeconds: number;
  /**
   * How far two tables' clocks may differ (default `DEFAULT_SKEW_MARGIN_SECONDS`): a one-sided
   * disagreement is an alarm once the terminal whose entry is missing has synced an entry journalled
   * at least this long after the entry seen, by its own clock.
   */
  readonly skewMarginSeconds?: number;
}

/** The clock skew between two tables' hosts the reconciliation allows unless told otherwise. */
export const DEFAULT_SKEW_MARGIN_SECONDS = 60;

export interface OpenTransfer {
  readonly transfer: PairedTransfer['transfer'];
  readonly receiver: PairedTransfer['receiver'];
  /** Since its debit was journalled (the sender's clock, as synced). */
  readonly openSeconds: number;
}

/**
 * A disagreement that the lagging end's later sync can still mend (`awaitedSide`), not yet an
 * alarm: the terminal whose entry is missing has not synced past the entry seen (+ the margin),
 * and it has not been `openAfterSeconds` since.
 */
export type PendingTransfer = PairedTransfer & {
  /** The terminal whose entry is awaited. */
  readonly awaiting: TableId;
  /** Since the entry seen was journalled (its terminal's clock, as synced). */
  readonly waitedSeconds: number;
};

export interface TransferReport {
  /** Transfer ids paired across the terminals. */
  readonly transfers: number;
  readonly completed: number;
  readonly reversed: number;
  /** Every transfer still open at its sender, and for how long. */
  readonly open: readonly OpenTransfer[];
  /**
   * Every id whose two journals disagree, with the money it made or lost across them (each an
   * alarm): at once when no later entry can mend it, else once its missing end is no longer expected.
   */
  readonly disagreements: readonly PairedTransfer[];
  /** Every one-sided disagreement still waiting for its lagging end's sync: reported, not alarmed. */
  readonly pending: readonly PendingTransfer[];
  /**
   * The ids that never closed and were set aside (upstream/transfers/reconciler.ts,
   * SET_ASIDE_AFTER_SECONDS after the upstream received their newest entry): each an alarm, counted,
   * the newest SET_ASIDE_KEPT named; not in `open` or `disagreements` any more.
   */
  readonly setAside: { readonly count: number; readonly newest: readonly PairedTransfer[] };
  /** Alarms raised by this run (none for an id already alarmed and not cleared, none for a peer alarm raised before). */
  readonly raised: number;
  /** The `transfer.alarm` entries synced (each an alarm once). */
  readonly peerAlarms: number;
  /** Entries that did not parse as transfer entries, or terminals whose id is no table id: named (the newest `UNREADABLE_KEPT`), never believed. */
  readonly unreadable: readonly string[];
}
