// The terminals' synced transfer entries, read from the upstream's journal and parsed with the
// hosts' own schemas: what does not parse, or comes from a terminal whose id is no table id, is
// named as unreadable and never believed.
import { isTransferEntryType, keyOf, parseTransferEntry, TableId, type TransferEntry, type TransferId } from '../../terms/transfer-terms.js';
import type { Sql } from '../sql.js';

const TYPES = ['transfer.out', 'transfer.recall', 'transfer.complete', 'transfer.reverse', 'transfer.in', 'transfer.refuse', 'transfer.alarm'];

/** A table's `transfer.alarm` entry: a peer's message it distrusted and refused. */
export interface PeerAlarm {
  readonly terminal: TableId;
  readonly seq: number;
  readonly payload: Extract<TransferEntry, { type: 'transfer.alarm' }>['payload'];
}

export interface SyncedTransfers {
  /** Each table's transfer entries (its alarms apart), in journal order. */
  readonly journals: Map<TableId, TransferEntry[]>;
  /** When each id's debit was journalled at its sender (ms, the sender's clock), by `keyOf(id)`. */
  readonly debitedAt: Map<string, number>;
  /** When each id's credit (at its receiver) was first journalled: the entry a one-sided disagreement may have seen. */
  readonly takenAt: Map<string, number>;
  /** When each id's closing (at its sender) was first journalled: the other entry a one-sided disagreement may have seen. */
  readonly closedAt: Map<string, number>;
  readonly unreadable: string[];
  readonly peerAlarms: PeerAlarm[];
}

interface JournalRow {
  terminal_id: string;
  seq: number;
  type: string;
  body: string;
  ts: Date | string;
}

/** Every terminal's synced transfer entries, by table, with when the entries that pair them were journalled. */
export async function readSyncedTransfers(sql: Sql): Promise<SyncedTransfers> {
  const rows = await sql.query<JournalRow>('SELECT terminal_id, seq, type, body, ts FROM journal WHERE type = ANY($1::text[]) ORDER BY terminal_id, seq', [
    TYPES,
  ]);
  const synced: SyncedTransfers = { journals: new Map(), debitedAt: new Map(), takenAt: new Map(), closedAt: new Map(), unreadable: [], peerAlarms: [] };
  for (const r of rows.rows) {
    const read = readRow(r);
    if ('unreadable' in read) synced.unreadable.push(read.unreadable);
    else if (read.entry.type === 'transfer.alarm') synced.peerAlarms.push({ terminal: read.table, seq: r.seq, payload: read.entry.payload });
    else note(synced, read.table, read.entry, new Date(r.ts).getTime());
  }
  return synced;
}

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
function readRow(r: JournalRow): { readonly table: TableId; readonly entry: TransferEntry } | { readonly unreadable: string } {
  const table = TableId.safeParse(r.terminal_id);
  if (!table.success || !isTransferEntryType(r.type)) return { unreadable: `${r.terminal_id} seq ${r.seq}: not a table's transfer entry` };
  try {
    return { table: table.data, entry: parseTransferEntry(r.type, (JSON.parse(r.body) as { payload?: unknown }).payload) };
  } catch (e) {
    return { unreadable: `${r.terminal_id} seq ${r.seq}: ${e instanceof Error ? e.message.slice(0, 200) : String(e)}` };
  }
}

/** Adds a table's entry to its journal, and its time when it is its own side's debit, credit or closing. */
function note(synced: SyncedTransfers, table: TableId, entry: TransferEntry, ts: number): void {
  const list = synced.journals.get(table) ?? [];
  list.push(entry);
  synced.journals.set(table, list);
  // Each time only from the side that may journal it (the debit and the closing: the id's origin), the first.
  const first = (at: Map<string, number>, id: TransferId) => {
    if (!at.has(keyOf(id))) at.set(keyOf(id), ts);
  };
  if (entry.type === 'transfer.in') {
    if (entry.payload.transfer.to === table) first(synced.takenAt, entry.payload.transfer.id);
    return;
  }
  if (entry.type === 'transfer.refuse' || entry.type === 'transfer.recall' || entry.type === 'transfer.alarm') return;
  const t = entry.payload.transfer;
  if (t.from !== table || t.id.origin !== table) return;
  first(entry.type === 'transfer.out' ? synced.debitedAt : synced.closedAt, t.id);
}
