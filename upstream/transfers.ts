import { reconcile, type PairedTransfer } from '../ledger/transfer-reconcile.js';
import { isTransferEntryType, keyOf, parseTransferEntry, TableId, type TransferEntry } from '../ledger/transfer-terms.js';
import { raiseAlarm } from './ingest.js';
import type { Sql } from './sql.js';

// Transfers of stations' credit between table hosts (docs/transfers.md), reconciled across the
// terminals' synced ledgers: every transfer id paired between its sender's journal and its
// receiver's by the same function the hosts' tests run (ledger/transfer-reconcile.ts). A terminal
// is the table host whose ledger it syncs; its terminal id is the table id its peers know it by
// (the host's default: `terminalId` is the table's id).

/** The alarm kinds this raises (one open alarm per transfer id and kind). */
export const TRANSFER_ALARM_KINDS = ['transfer-open-too-long', 'transfer-disagreement'] as const;

export interface TransferWatch {
  /** A transfer whose sender has journalled its debit and not its closing for longer than this is an alarm. */
  readonly openAfterSeconds: number;
}

export interface OpenTransfer {
  readonly transfer: PairedTransfer['transfer'];
  readonly receiver: PairedTransfer['receiver'];
  /** Since its debit was journalled (the sender's clock, as synced). */
  readonly openSeconds: number;
}

export interface TransferReport {
  /** Transfer ids paired across the terminals. */
  readonly transfers: number;
  readonly completed: number;
  readonly reversed: number;
  /** Every transfer still open at its sender, and for how long. */
  readonly open: readonly OpenTransfer[];
  /** Every id whose two journals disagree, with the money it made or lost across them. */
  readonly disagreements: readonly PairedTransfer[];
  /** Alarms raised by this run (none for an id already alarmed and not cleared). */
  readonly raised: number;
  /** Entries that did not parse as transfer entries, or terminals whose id is no table id: named, never believed. */
  readonly unreadable: readonly string[];
}

const TYPES = ['transfer.out', 'transfer.recall', 'transfer.complete', 'transfer.reverse', 'transfer.in', 'transfer.refuse'];

/**
 * Reads every terminal's synced transfer entries, pairs them, and raises an alarm for each
 * transfer open longer than `watch.openAfterSeconds` and each disagreement (once per id and kind
 * while the alarm stands). `now` is the service's clock.
 */
export async function reconcileTransfers(sql: Sql, watch: TransferWatch, now: Date = new Date()): Promise<TransferReport> {
  const rows = await sql.query<{ terminal_id: string; seq: number; type: string; body: string; ts: Date | string }>(
    'SELECT terminal_id, seq, type, body, ts FROM journal WHERE type = ANY($1::text[]) ORDER BY terminal_id, seq',
    [TYPES],
  );
  const journals = new Map<TableId, TransferEntry[]>();
  const debitedAt = new Map<string, number>();
  const unreadable: string[] = [];
  for (const r of rows.rows) {
    const table = TableId.safeParse(r.terminal_id);
    if (!table.success || !isTransferEntryType(r.type)) {
      unreadable.push(`${r.terminal_id} seq ${r.seq}: not a table's transfer entry`);
      continue;
    }
    let entry: TransferEntry;
    try {
      entry = parseTransferEntry(r.type, (JSON.parse(r.body) as { payload?: unknown }).payload);
    } catch (e) {
      unreadable.push(`${r.terminal_id} seq ${r.seq}: ${e instanceof Error ? e.message.slice(0, 200) : String(e)}`);
      continue;
    }
    const list = journals.get(table.data) ?? [];
    list.push(entry);
    journals.set(table.data, list);
    if (entry.type === 'transfer.out' && entry.payload.transfer.from === table.data) debitedAt.set(keyOf(entry.payload.transfer.id), new Date(r.ts).getTime());
  }
  const paired = reconcile(journals);
  const open: OpenTransfer[] = [];
  for (const p of paired) {
    if (p.sender !== 'open') continue;
    const at = debitedAt.get(keyOf(p.id));
    if (at !== undefined) open.push({ transfer: p.transfer, receiver: p.receiver, openSeconds: Math.max(0, (now.getTime() - at) / 1000) });
  }
  const disagreements = paired.filter((p) => p.disagreements.length > 0);
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
  return {
    transfers: paired.length,
    completed: paired.filter((p) => p.sender === 'completed').length,
    reversed: paired.filter((p) => p.sender === 'reversed').length,
    open,
    disagreements,
    raised,
    unreadable,
  };
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
