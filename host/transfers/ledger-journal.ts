import { creditHeld, entriesOfTypes, type EntryBody, type Ledger } from '../../ledger/index.js';
import {
  isTransferEntryType,
  parseTransferEntry,
  TRANSFER_PAYLOADS,
  transferTxId,
  txIdOfTransferEntry,
  type TransferEntry,
  type TransferId,
} from '../../terms/transfer-terms.js';
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

  held(station: number): number {
    return creditHeld(this.ledger, station);
  }

  /**
   * When the transfer's debit (its sender's `transfer.out`) or credit (its receiver's
   * `transfer.in`) was journalled here: looked up by the transaction id each is journalled under.
   * Before, a map kept the time of every transfer ever made, read on from the last entry seen: one
   * key per transfer for as long as the host ran (a review of what grows over weeks).
   */
  journalledAt(id: TransferId): string | undefined {
    const out = this.ledger.byTxId(transferTxId('out', id));
    if (out?.type === 'transfer.out') return out.ts;
    // A refusal is journalled under the same id as a credit: only a credit is a time the money came.
    const decided = this.ledger.byTxId(transferTxId('decide', id));
    return decided?.type === 'transfer.in' ? decided.ts : undefined;
  }
}
