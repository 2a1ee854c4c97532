// The floor's alarms of the transfers: one open alarm per transfer id and kind (an id already
// alarmed and not cleared is not raised again), and each table's `transfer.alarm` entry raised once.
import type { PairedTransfer } from '../../terms/transfer-reconcile.js';
import { keyOf, TableId } from '../../terms/transfer-terms.js';
import { raiseAlarm } from '../alarm.js';
import type { Sql } from '../sql.js';
import type { OpenTransfer, TransferWatch } from './report.js';
import type { PeerAlarm } from './synced-entries.js';

/** The alarm kinds this raises (one open alarm per transfer id and kind). */
export const TRANSFER_ALARM_KINDS = ['transfer-open-too-long', 'transfer-disagreement'] as const;

/**
 * A table journalled a `transfer.alarm` (a peer's message it distrusted and refused: terms changed,
 * wrong currency, never sent there, a contradiction, a wrong link…): raised upstream once per entry,
 * at the next reconciliation after it synced (issue 50: before, none of them reached the floor).
 */
export const PEER_ALARM_KIND = 'transfer-peer-alarm';

/** Raises each transfer open longer than `watch.openAfterSeconds`, then each disagreement, unless its alarm stands; how many it raised. */
export async function raiseTransferAlarms(
  sql: Sql,
  watch: TransferWatch,
  open: readonly OpenTransfer[],
  disagreements: readonly PairedTransfer[],
): Promise<number> {
  let raised = 0;
  const standing = await standingAlarms(sql);
  const raise = async (kind: (typeof TRANSFER_ALARM_KINDS)[number], terminal: string, id: PairedTransfer['id'], detail: Record<string, unknown>) => {
    const k = `${kind} ${keyOf(id)}`;
    if (standing.has(k)) return;
    standing.add(k);
    await raiseAlarm(sql, terminal, kind, { id, ...detail });
    raised++;
  };
  for (const o of open)
    if (o.openSeconds > watch.openAfterSeconds)
      await raise('transfer-open-too-long', o.transfer.from, o.transfer.id, {
        transfer: o.transfer,
        receiver: o.receiver,
        openSeconds: Math.round(o.openSeconds),
      });
  for (const d of disagreements)
    await raise('transfer-disagreement', d.transfer.from, d.id, {
      transfer: d.transfer,
      disagreements: d.disagreements,
      net: d.net,
      sender: d.sender,
      receiver: d.receiver,
    });
  return raised;
}

/** Raises each table's `transfer.alarm` entry not raised before (cleared or not); how many it raised. */
export async function raisePeerAlarms(sql: Sql, peerAlarms: readonly PeerAlarm[]): Promise<number> {
  let raised = 0;
  const raisedBefore = await peerAlarmsRaised(sql);
  for (const a of peerAlarms) {
    if (raisedBefore.has(`${a.terminal} ${a.seq}`)) continue;
    await raiseAlarm(sql, a.terminal, PEER_ALARM_KIND, { terminal: a.terminal, seq: a.seq, ...a.payload });
    raised++;
  }
  return raised;
}

/** The `transfer.alarm` entries already raised (cleared or not), as `terminal seq`: each is raised once. */
async function peerAlarmsRaised(sql: Sql): Promise<Set<string>> {
  const r = await sql.query<{ terminal_id: string | null; detail: unknown }>('SELECT terminal_id, detail FROM alarms WHERE kind = $1', [PEER_ALARM_KIND]);
  const done = new Set<string>();
  for (const a of r.rows) {
    const detail = typeof a.detail === 'string' ? (JSON.parse(a.detail) as unknown) : a.detail;
    if (typeof detail === 'object' && detail !== null && 'seq' in detail && typeof detail.seq === 'number') done.add(`${a.terminal_id} ${detail.seq}`);
  }
  return done;
}

/** The transfer alarms not cleared, by kind and id. */
async function standingAlarms(sql: Sql): Promise<Set<string>> {
  const r = await sql.query<{ kind: string; detail: unknown }>('SELECT kind, detail FROM alarms WHERE kind = ANY($1::text[]) AND cleared_at IS NULL', [
    [...TRANSFER_ALARM_KINDS],
  ]);
  const standing = new Set<string>();
  for (const a of r.rows) {
    const detail = typeof a.detail === 'string' ? (JSON.parse(a.detail) as unknown) : a.detail;
    const id = typeof detail === 'object' && detail !== null && 'id' in detail ? detail.id : null;
    if (typeof id === 'object' && id !== null && 'origin' in id && 'serial' in id && typeof id.origin === 'string' && typeof id.serial === 'number') {
      const table = TableId.safeParse(id.origin);
      if (table.success) standing.add(`${a.kind} ${keyOf({ origin: table.data, serial: id.serial })}`);
    }
  }
  return standing;
}
