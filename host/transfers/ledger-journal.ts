import { entriesOfTypes, type EntryBody, type Ledger } from '../../ledger/index.js';
import {
  isTransferEntryType,
  parseTransferEntry,
  TRANSFER_PAYLOADS,
  txIdOfTransferEntry,
  type TransferEntry,
  type TransferId,
} from '../../terms/transfer-terms.js';
import type { TransferJournal } from './journal.js';

const TYPES = Object.keys(TRANSFER_PAYLOADS).filter(isTransferEntryType);

/** The table's ledger as a host's transfer journal: each entry under the transaction id its step shares (ledger/derive.ts). */
export class LedgerTransferJournal implements TransferJournal {
  /** When each transfer's debit or credit was journalled here, by `origin serial`; read on from the last entry seen. */
  private readonly times = new Map<string, string>();
  private timesSeq = 0;

  constructor(private readonly ledger: Ledger) {}

  *entries(): Iterable<TransferEntry> {
    for (const e of entriesOfTypes(this.ledger, TYPES)) {
      if (!isTransferEntryType(e.type)) throw new Error(`entry ${e.seq} is a ${e.type}, asked for transfers`);
      const body: EntryBody = JSON.parse(e.body);
      yield parseTransferEntry(e.type, body.payload);
    }
  }

  append(entries: readonly TransferEntry[]): void {
    if (entries.length) this.ledger.appendMany(entries.map((e) => ({ ...e, txId: txIdOfTransferEntry(e) })));
  }

  credit(station: number): number {
    return this.ledger.credit(station);
  }

  journalledAt(id: TransferId): string | undefined {
    for (const e of entriesOfTypes(this.ledger, ['transfer.out', 'transfer.in'], this.timesSeq + 1)) {
      this.timesSeq = e.seq;
      if (!isTransferEntryType(e.type)) continue;
      const body: EntryBody = JSON.parse(e.body);
      const entry = parseTransferEntry(e.type, body.payload);
      if (entry.type === 'transfer.out' || entry.type === 'transfer.in') this.times.set(timeKey(entry.payload.transfer.id), e.ts);
    }
    return this.times.get(timeKey(id));
  }
}

/** A map key of a transfer id (never parsed back: the id stays two fields everywhere else). */
const timeKey = (id: TransferId) => `${id.origin} ${id.serial}`;
