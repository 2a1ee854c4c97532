// The tickets' test kit: tickets as a table issues them, and a table's journal batch holding ticket
// entries as the host's integration will journal them (ledger/ticket-terms.ts), hashed and chained
// as the ledger does (upstream/chain.ts states the same chain), for the upstream's ingest.
import { randomUUID } from 'node:crypto';
import { TICKET_PAYLOADS, type TicketEntryType, type TicketTerms } from '../../ledger/ticket-terms.js';
import { validationNumber } from '../../ledger/validation-number.js';
import { chainHash, genesisHash, sha256Hex } from '../../upstream/chain.js';
import type { IngestBatch } from '../../upstream/ingest.js';

export const DAY = 86_400_000;

/** A ticket of `machineId`'s table, its `sequence`-th, issued now (or `issuedAt`) and valid `days`. */
export function ticket(
  machineId: number,
  sequence: number,
  amount: number,
  options: { station?: number; currency?: string; issuedAt?: number; days?: number } = {},
): TicketTerms {
  const issued = options.issuedAt ?? Date.now();
  return TICKET_PAYLOADS['ticket.issue'].parse({
    validation: validationNumber(machineId, sequence),
    machineId,
    sequence,
    station: options.station ?? 1,
    amount,
    currency: options.currency ?? 'MOP',
    issuedAt: new Date(issued).toISOString(),
    expiresAt: new Date(issued + (options.days ?? 30) * DAY).toISOString(),
  });
}

export const requestId = (): string => randomUUID();

/** A terminal's journal as the upstream sees it: entries appended, each batch chained from the last. */
export class FakeJournal {
  private seq = 0;
  private prev: string;
  constructor(readonly terminal: string) {
    this.prev = genesisHash(terminal);
  }

  /** A batch of entries of these types and payloads (each payload checked by its schema first). */
  batch(entries: readonly { type: TicketEntryType | 'bill.credit'; payload: unknown }[]): IngestBatch {
    const prevHash = this.prev;
    const out = entries.map(({ type, payload }) => {
      if (type !== 'bill.credit') TICKET_PAYLOADS[type].parse(payload);
      this.seq++;
      const body = JSON.stringify({ v: 1, terminal: this.terminal, seq: this.seq, ts: new Date().toISOString(), type, payload, postings: [], meters: [] });
      const hash = chainHash(this.prev, sha256Hex(body));
      this.prev = hash;
      return { seq: this.seq, hash, body };
    });
    return { terminalId: this.terminal, prevHash, entries: out };
  }
}
