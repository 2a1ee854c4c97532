// The floor's alarms of the transfers: one alarm per transfer id, kind, table and finding, ever (an
// id already alarmed so, cleared or not, is not raised again; another finding on the same id is a
// new alarm), and each table's `transfer.alarm` entry raised once.
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
    const k = standingKey(kind, terminal, id, detail);
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
  // Under each table that journalled a sender's part of an id not its own, or a receiver's part out
  // of place (those entries are the lie, whatever the others say), and under the sender unless
  // another table's part is all there is; each names every table with an entry of the id.
  const othersOnly = (d: PairedTransfer) => d.disagreements.every((x) => x === 'sender-part-by-other' || x === 'taken-by-other');
  for (const d of disagreements)
    for (const terminal of new Set([...(othersOnly(d) ? [] : [d.transfer.from]), ...d.impostors, ...d.outOfPlace]))
      await raise('transfer-disagreement', terminal, d.id, {
        transfer: d.transfer,
        disagreements: [...d.disagreements].sort(),
        net: d.net,
        sender: d.sender,
        receiver: d.receiver,
        tables: d.tables,
        impostors: d.impostors,
        outOfPlace: d.outOfPlace,
        // Two people's word closed it at the sender, not its receiver's: who, and on what record.
        ...(d.settled ? { settled: d.settled } : {}),
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

/**
 * What makes a transfer alarm the same one: its kind, table and id, and for a disagreement what was
 * found (the disagreements, sorted, and the money): a worse finding later is raised again.
 */
function standingKey(kind: string, terminal: string | null, id: PairedTransfer['id'], detail: Record<string, unknown>): string {
  // Sorted as read back too: alarms raised before the key had their disagreements in the order found.
  const said = detail['disagreements'];
  const disagreements = Array.isArray(said) ? [...said].map(String).sort() : null;
  const found = kind === 'transfer-disagreement' ? JSON.stringify([disagreements, detail['net'] ?? null]) : '';
  return `${kind} ${terminal ?? ''} ${keyOf(id)} ${found}`;
}

/**
 * The transfer alarms raised, cleared or not, by standingKey: a journal never changes, so a finding a
 * person cleared would otherwise be raised again at every run (a review: every minute, for ever).
 */
async function standingAlarms(sql: Sql): Promise<Set<string>> {
  const r = await sql.query<{ kind: string; terminal_id: string | null; detail: unknown }>(
    'SELECT kind, terminal_id, detail FROM alarms WHERE kind = ANY($1::text[])',
    [[...TRANSFER_ALARM_KINDS]],
  );
  const standing = new Set<string>();
  for (const a of r.rows) {
    const detail = typeof a.detail === 'string' ? (JSON.parse(a.detail) as unknown) : a.detail;
    if (typeof detail !== 'object' || detail === null || !('id' in detail)) continue;
    const id = detail.id;
    if (typeof id === 'object' && id !== null && 'origin' in id && 'serial' in id && typeof id.origin === 'string' && typeof id.serial === 'number') {
      const table = TableId.safeParse(id.origin);
      if (table.success) standing.add(standingKey(a.kind, a.terminal_id, { origin: table.data, serial: id.serial }, { ...detail }));
    }
  }
  return standing;
}
