import type { Sql } from './sql.js';
import { TransferReconciler } from './transfers/reconciler.js';
import type { TransferReport, TransferWatch } from './transfers/report.js';

// Transfers of stations' credit between table hosts (docs/transfers.md), reconciled across the
// terminals' synced ledgers: every transfer id paired between its sender's journal and its
// receiver's by the same function the hosts' tests run (terms/transfer-reconcile.ts). A terminal
// is the table host whose ledger it syncs; its terminal id is the table id its peers know it by
// (the host's default: `terminalId` is the table's id). The reading, the waits and the alarms
// are each in upstream/transfers/.

export { PEER_ALARM_KIND, TRANSFER_ALARM_KINDS } from './transfers/alarms.js';
export { TransferReconciler } from './transfers/reconciler.js';
export { DEFAULT_SKEW_MARGIN_SECONDS, type OpenTransfer, type PendingTransfer, type TransferReport, type TransferWatch } from './transfers/report.js';

/**
 * Reads every terminal's synced transfer entries, pairs them, and raises an alarm for each
 * transfer open longer than `watch.openAfterSeconds` and each disagreement (once per id and kind
 * while the alarm stands). `now` is the service's clock.
 *
 * The hosts sync independently, so the upstream often holds one end of a transfer before the
 * other. A disagreement that is only the missing entry's end lagging (`awaitedSide`) waits: it is
 * an alarm once that terminal's synced head was journalled at or after the entry seen plus
 * `skewMarginSeconds` (it syncs in order, so the missing entry, journalled before by causality,
 * would be there), or once the entry seen is older than `openAfterSeconds` (a terminal silent that
 * long is itself worth a look). The head's time stands for the terminal's: a clock stepped back
 * only makes it wait longer, up to `openAfterSeconds`.
 *
 * Each call reads everything; a service that reconciles run after run keeps one
 * `TransferReconciler`, which reads only what synced since its last run.
 */
export async function reconcileTransfers(sql: Sql, watch: TransferWatch, now: Date = new Date()): Promise<TransferReport> {
  return new TransferReconciler().run(sql, watch, now);
}
