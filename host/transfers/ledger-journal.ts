import { entriesOfTypes, type EntryBody, type Ledger } from '../../ledger/index.js';
import { isTransferEntryType, parseTransferEntry, TRANSFER_PAYLOADS, txIdOfTransferEntry, type TransferEntry } from '../../terms/transfer-terms.js';
import type { TransferJournal } from './journal.js';

const TYPES = Object.keys(TRANSFER_PAYLOADS).filter(isTransferEntryType);

/** The table's ledger as a host's transfer journal: each entry under the transaction id its step shares (ledger/derive.ts). */
export class LedgerTransferJournal implements TransferJournal {
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
}
