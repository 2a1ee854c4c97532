// SAS long poll 0x4D (send enhanced validation information; docs/sas.md, "Tickets through SAS"):
// the tickets a station printed, read by the casino's system after exception 0x3D, from the
// journal. Function 00 gives the oldest ticket the system has not read, and the system's
// acknowledgement of that answer (the implied ACK, SAS 6.02 §3.1) marks it read, kept per station in
// the data folder (`sas-validation-read.json`, written before the next poll is answered), so a
// restart or a reconnect gives each ticket once; FF looks at it without reading it; 01–1F read the
// buffer by position, 1 the newest (our reading: the document's position numbering is the machine's).
import path from 'node:path';
import { z } from 'zod';
import type { SasValidationRecord } from '../../hardware/sas/types.js';
import type { Ledger } from '../../ledger/ledger.js';
import { ticketsPrintedAt, type PrintedTicket } from '../../ledger/ticket-queries.js';
import { macauTime } from '../config/macau-time.js';
import { readStateFileSaid, writeStateFile, type StateFileLog } from '../tickets/state-file.js';

export const VALIDATION_READ_FILE = 'sas-validation-read.json';
/** The buffer's positions (0x4D's functions 01–1F). */
const BUFFER = 31;
/** Table 15.13c: a cashable ticket from a cash-out. */
const CASHABLE_TICKET = 0x00;

const Read = z.strictObject({ v: z.literal(1), stations: z.record(z.string().regex(/^\d{1,4}$/), z.number().int().nonnegative()) });

export class ValidationRecords {
  private readonly file: string;
  private read: Record<string, number> = {};

  /** 0x4D's amount is in cents (the currency's minor units, as the ledger's), whatever the accounting denomination (docs/sas.md, "Amounts in cents"). */
  constructor(
    private readonly ledger: Ledger,
    dataDir: string,
    log?: StateFileLog,
  ) {
    this.file = path.join(dataDir, VALIDATION_READ_FILE);
    const consequence = "nothing read yet: the casino system reads the buffer's tickets again (long poll 4D)";
    this.read = readStateFileSaid(this.file, Read, log, consequence)?.stations ?? this.read;
  }

  /** 0x4D at `station`: 'current', 'look-ahead' or a buffer position 1–31. */
  of(station: number, which: 'current' | 'look-ahead' | number): { record: SasValidationRecord; onAck?: () => void } | null {
    if (typeof which === 'number') {
      const t = ticketsPrintedAt(this.ledger, station, 0, which, 'newest')[which - 1];
      return t && which <= BUFFER ? { record: this.record(t, which) } : null;
    }
    // A machine's buffer keeps its last 31: older tickets never read are gone from it, as they would be.
    const oldestKept = ticketsPrintedAt(this.ledger, station, 0, BUFFER, 'newest').at(-1)?.seq ?? 0;
    const t = ticketsPrintedAt(this.ledger, station, Math.max(this.read[String(station)] ?? 0, oldestKept - 1), 1)[0];
    if (!t) return null;
    const record = this.record(t, this.position(station, t.seq));
    return which === 'look-ahead' ? { record } : { record, onAck: () => this.markRead(station, t.seq) };
  }

  private position(station: number, seq: number): number {
    const newer = ticketsPrintedAt(this.ledger, station, seq, BUFFER).length;
    return Math.min(BUFFER, newer + 1);
  }

  private markRead(station: number, seq: number): void {
    this.read[String(station)] = Math.max(seq, this.read[String(station)] ?? 0);
    writeStateFile(this.file, { v: 1, stations: this.read });
  }

  private record(t: PrintedTicket, index: number): SasValidationRecord {
    // Macau's time, as its paper prints them (host/config/macau-time.ts), whatever the cabinet's zone.
    const issued = macauTime(Date.parse(t.terms.issuedAt));
    // The last day it is valid: a ticket expires as a day ends (host/floor/ticket-paper.ts), the instant the next begins.
    const expires = macauTime(Date.parse(t.terms.expiresAt) - 1);
    return {
      type: CASHABLE_TICKET,
      index,
      at: issued,
      validation: t.terms.validation,
      amount: t.terms.amount,
      ticketNumber: t.terms.sequence % 10_000,
      expires: { year: expires.year, month: expires.month, day: expires.day },
    };
  }
}
