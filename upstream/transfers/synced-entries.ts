// The terminals' synced transfer entries as the reconciliation reads them from the upstream's
// journal (upstream/transfers/reconciler.ts), parsed with the hosts' own schemas: what does not
// parse, or comes from a terminal whose id is no table id, is named as unreadable and never believed.
import { isTransferEntryType, keyOf, parseTransferEntry, TableId, type TransferEntry, type TransferId } from '../../terms/transfer-terms.js';

/** A table's `transfer.alarm` entry: a peer's message it distrusted and refused. */
export interface PeerAlarm {
  readonly terminal: TableId;
  readonly seq: number;
  readonly payload: Extract<TransferEntry, { type: 'transfer.alarm' }>['payload'];
}

/** When the entries that pair each id were journalled (ms, their table's clock), by `keyOf(id)`. */
export interface TransferTimes {
  /** When each id's debit was journalled at its sender. */
  readonly debitedAt: Map<string, number>;
  /** When each id's credit (at its receiver) was first journalled: the entry a one-sided disagreement may have seen. */
  readonly takenAt: Map<string, number>;
  /** When each id's closing (at its sender) was first journalled: the other entry a one-sided disagreement may have seen. */
  readonly closedAt: Map<string, number>;
}

/** A journal row of the upstream's, as read for the transfers. */
export interface JournalRow {
  terminal_id: string;
  seq: number;
  type: string;
  body: string;
  ts: Date | string;
}

/** The entry types the reconciliation reads. */
export const TRANSFER_ENTRY_TYPES = [
  'transfer.out',
  'transfer.recall',
  'transfer.complete',
  'transfer.reverse',
  'transfer.in',
  'transfer.refuse',
  'transfer.alarm',
];

/**
 * The seqs of a batch's transfer entries that do not read as one (stored, never paired): ingest
 * raises them, as it does a ticket entry's (before, they were named only in the report's return).
 */
export function unreadableTransferSeqs(cols: {
  readonly seq: readonly number[];
  readonly type: readonly string[];
  readonly body: readonly string[];
}): number[] {
  return cols.seq.filter((seq, i) => {
    const type = cols.type[i] ?? '';
    if (!isTransferEntryType(type)) return false;
    return 'unreadable' in readRow({ terminal_id: TRANSFER_READER, seq, type, body: cols.body[i] ?? '', ts: '' });
  });
}

/** A table id that stands for the batch's terminal when only its entries are read. */
const TRANSFER_READER = 'reader';

/** One row as a table's transfer entry, or why it is unreadable. */
export function readRow(r: JournalRow): { readonly table: TableId; readonly entry: TransferEntry } | { readonly unreadable: string } {
  const table = TableId.safeParse(r.terminal_id);
  if (!table.success || !isTransferEntryType(r.type)) return { unreadable: `${r.terminal_id} seq ${r.seq}: not a table's transfer entry` };
  try {
    return { table: table.data, entry: parseTransferEntry(r.type, (JSON.parse(r.body) as { payload?: unknown }).payload) };
  } catch (e) {
    return { unreadable: `${r.terminal_id} seq ${r.seq}: ${e instanceof Error ? e.message.slice(0, 200) : String(e)}` };
  }
}

/** Notes an entry's time when it is its own side's debit, credit or closing (the first of each). */
export function noteTime(times: TransferTimes, table: TableId, entry: TransferEntry, ts: number): void {
  // Each time only from the side that may journal it (the debit and the closing: the id's origin), the first.
  const first = (at: Map<string, number>, id: TransferId) => {
    if (!at.has(keyOf(id))) at.set(keyOf(id), ts);
  };
  if (entry.type === 'transfer.in') {
    if (entry.payload.transfer.to === table) first(times.takenAt, entry.payload.transfer.id);
    return;
  }
  if (entry.type === 'transfer.refuse' || entry.type === 'transfer.recall' || entry.type === 'transfer.alarm') return;
  const t = entry.payload.transfer;
  if (t.from !== table || t.id.origin !== table) return;
  first(entry.type === 'transfer.out' ? times.debitedAt : times.closedAt, t.id);
}
