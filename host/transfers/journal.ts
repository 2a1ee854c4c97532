import type { TransferEntry, TransferId } from '../../terms/transfer-terms.js';

/**
 * Where a host's transfers are journalled: the table's ledger (ledger-journal.ts), or a model of
 * it (the simulation's). `append` is one durable transaction, all or nothing, and throws when the
 * journal refuses (nothing of the step is then sent).
 */
export interface TransferJournal {
  /** Every transfer entry journalled, in order (what a start folds). */
  entries(): Iterable<TransferEntry>;
  append(entries: readonly TransferEntry[]): void;
  /** A station's credit now, as the journal's accounts say. */
  credit(station: number): number;
  /**
   * What counts against the station credit limit (docs/sas.md, "The station credit limit"): the
   * credit, the notes told to stack and not credited yet, a ticket approved and not stacked yet.
   * Absent (a model of the journal with no acceptors): the credit.
   */
  held?(station: number): number;
  /** When the transfer's debit (`transfer.out`) or credit (`transfer.in`) was journalled here, if the journal keeps times (the ledger does). */
  journalledAt?(id: TransferId): string | undefined;
}
