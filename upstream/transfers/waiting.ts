// Which paired transfers are still open at their sender, and which disagreements are alarms now
// rather than one end's sync lagging behind the other's (docs/upstream.md, "Transfers between tables").
import { awaitedSide, type PairedTransfer } from '../../terms/transfer-reconcile.js';
import { keyOf } from '../../terms/transfer-terms.js';
import type { Sql } from '../sql.js';
import { DEFAULT_SKEW_MARGIN_SECONDS, type OpenTransfer, type PendingTransfer, type TransferWatch } from './report.js';
import type { TransferTimes } from './synced-entries.js';

/** Every transfer open at its sender whose debit has synced, and for how long (by `now`). */
export function openTransfers(paired: readonly PairedTransfer[], debitedAt: ReadonlyMap<string, number>, now: Date): OpenTransfer[] {
  const open: OpenTransfer[] = [];
  for (const p of paired) {
    if (p.sender !== 'open') continue;
    const at = debitedAt.get(keyOf(p.id));
    if (at !== undefined) open.push({ transfer: p.transfer, receiver: p.receiver, openSeconds: Math.max(0, (now.getTime() - at) / 1000) });
  }
  return open;
}

/**
 * The disagreements, split into those that are alarms (`disagreements`) and those still waiting
 * for the lagging end's sync (`pending`): see reconcileTransfers for when a wait ends.
 */
export async function judgeDisagreements(
  sql: Sql,
  paired: readonly PairedTransfer[],
  synced: Pick<TransferTimes, 'takenAt' | 'closedAt'>,
  watch: TransferWatch,
  now: Date,
): Promise<{ disagreements: PairedTransfer[]; pending: PendingTransfer[] }> {
  const syncedTo = await syncedHeads(sql);
  const marginMs = (watch.skewMarginSeconds ?? DEFAULT_SKEW_MARGIN_SECONDS) * 1000;
  const disagreements: PairedTransfer[] = [];
  const pending: PendingTransfer[] = [];
  for (const p of paired) {
    if (p.disagreements.length === 0) continue;
    const side = awaitedSide(p);
    const seen = side === 'sender' ? synced.takenAt.get(keyOf(p.id)) : side === 'receiver' ? synced.closedAt.get(keyOf(p.id)) : undefined;
    if (side === null || seen === undefined) {
      disagreements.push(p);
      continue;
    }
    const awaiting = side === 'sender' ? p.transfer.from : p.transfer.to;
    const head = syncedTo.get(awaiting);
    const waitedSeconds = Math.max(0, (now.getTime() - seen) / 1000);
    const syncedPast = head !== undefined && head >= seen + marginMs;
    if (syncedPast || waitedSeconds > watch.openAfterSeconds) disagreements.push(p);
    else pending.push({ ...p, awaiting, waitedSeconds });
  }
  return { disagreements, pending };
}

/** When each terminal journalled the last entry the upstream holds of it (its own clock). */
async function syncedHeads(sql: Sql): Promise<Map<string, number>> {
  const r = await sql.query<{ terminal_id: string; ts: Date | string }>(
    'SELECT h.terminal_id, j.ts FROM heads h JOIN journal j ON j.terminal_id = h.terminal_id AND j.seq = h.seq',
  );
  return new Map(r.rows.map((row) => [row.terminal_id, new Date(row.ts).getTime()]));
}
