// What the machine side of SAS needs from the station it speaks for, injected: it never imports
// the ledger or the host. Meters (and 0x1B's handpay) are in credits of the accounting
// denomination (the host converts its integer minor units: docs/sas.md, "Meters"); the amounts of
// tickets and system validation (0x4D, 0x57, 0x70/0x71) are in cents, the currency's minor units,
// whatever the denomination (docs/sas.md, "Amounts in cents"), and so are AFT's (our reading).
import type { MeterName } from './constants.js';
import type { TicketRedemption } from './redemption.js';
import type { SasAftRegistrationSide } from './aft-register.js';
import type { SasSystemValidationSide } from './system-validation.js';

/** The station's meters at the instant of a poll; a meter left out is one the station does not track. */
export type SasMeters = Partial<Record<MeterName, number>>;

/** Long poll 0x1F's fields and 0x54's serial number. */
export interface SasMachineInfo {
  /** 2 ASCII characters (Table C-1's manufacturer code). */
  gameId: string;
  /** 3 ASCII characters; "000" when there is none. */
  additionalId: string;
  /** The accounting denomination in minor units (cents, avos): one of Table C-4's. */
  denominationMinor: number;
  /** The largest configured max bet in credits (sent as FF above 255). */
  maxBet: number;
  progressiveGroup: number;
  /** Table C-2's option bits (2 bytes, binary). */
  gameOptions: number;
  /** 6 ASCII characters. */
  paytableId: string;
  /** Theoretical return at max bet, 4 ASCII digits with the decimal point implied ("9750" = 97.50 %). */
  basePercent: string;
  /** 0–40 ASCII characters. */
  serialNumber: string;
}

/** A date and time as the station's clock shows it (local time of the floor), as SAS carries it. */
export interface SasDateTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** Long poll 0x1B's answer while a handpay is pending. */
export interface SasHandpay {
  /** 00 for a handpay that is no SAS progressive. */
  progressiveGroup: number;
  /** 0x40 a non-progressive win, 0x80 cancelled credits, 01–20 a progressive level. */
  level: number;
  /** Credits. */
  amount: number;
  /** Credits paid before the handpay (0 for the kiosk). */
  partialPay: number;
  /** 00 only an attendant may reset it, 01 it may also be reset to the credit meter. */
  resetId: number;
}

export type HandpayResetResult = 'reset' | 'unable' | 'none';

export interface SasGameSide {
  readonly info: SasMachineInfo;
  meters(): SasMeters;
  /**
   * Long polls 0x01/0x02: the host disables or enables play (the round in play ends first). False:
   * not taken now (the station's changes are over their rate): the machine NACKs it and the host
   * asks again, as SAS has it after a NACK.
   */
  setPlay(enabled: boolean): boolean;
  /** Long polls 0x06/0x07; false as `setPlay`'s. */
  setBillAcceptor(enabled: boolean): boolean;
  now(): SasDateTime;
  /** Long poll 0x7F: false refuses the time (the machine NACKs it). */
  setTime(t: SasDateTime): boolean;
  /** The pending handpay, or null. */
  handpay(): SasHandpay | null;
  /** Long poll 0x94. */
  resetHandpay(): HandpayResetResult;
  /**
   * The program actually running, over which long poll 0x21's seeded CRC is computed: whole, or part
   * by part as it is read from its files (an installation's program is far too large to read at once
   * on the host's one thread, or to keep).
   */
  romImage(): Uint8Array | AsyncIterable<Uint8Array>;
  /** Tickets through the casino's system (0x4C, 0x4D, 0x70, 0x71); absent: those polls are ignored as unknown. */
  tickets?: SasTicketSide;
  /** System validation (0x57, 0x58: the system numbers each cash-out ticket); absent, those polls are ignored as unknown. */
  systemValidation?: SasSystemValidationSide;
  /** AFT (0x72, 0x74); absent, those polls are ignored as unknown. */
  aft?: SasAftSide;
}

/** Long poll 0x4C's machine validation id and sequence (3 bytes each). */
export interface SasValidationId {
  machineId: number;
  sequence: number;
}

/** Long poll 0x4D's record of one validation (a ticket printed), Table 15.13c's fields. */
export interface SasValidationRecord {
  /** Table 15.13c: 00 a cashable ticket from a cash-out. */
  type: number;
  /** Its position in the machine's buffer, 1–31. */
  index: number;
  at: SasDateTime;
  /** 18 digits: the 2-digit validation system id, then the 16-digit number. */
  validation: string;
  /** Cents (minor units), not credits (§15.13: the ticket amount). */
  amount: number;
  /** The number printed on the ticket, 0–9999. */
  ticketNumber: number;
  /** The expiry date printed, or null (sent as 00000000). */
  expires: { year: number; month: number; day: number } | null;
}

/** What a station gives the ticket polls: its redemption cycle, its validation id and the tickets it printed. */
export interface SasTicketSide {
  readonly redemption: TicketRedemption;
  /** 0x4C: a machine id of 0 only reads; else the id and sequence to take. Null: no secure enhanced validation here (ignored). */
  validationId(requested: SasValidationId): SasValidationId | null;
  /** 0x4D: 'current' the oldest not yet read (read once the host acknowledges it), 'look-ahead' the same without reading it, 1–31 a buffer index. */
  validationInfo(which: 'current' | 'look-ahead' | number): { record: SasValidationRecord; onAck?: () => void } | null;
}

/** What the machine side reports to its caller (the host tilts and journals these). */
export type SasLinkEvent =
  /** No address byte for 5 s (the machine chirps), or no implied ACK for 30 s (SAS 6.02 §4.2–4.3). */
  | { type: 'link-down'; reason: 'no-address' | 'no-ack' }
  /** The host answered again after a link-down, or for the first time. */
  | { type: 'link-up'; again: boolean }
  /** The exception queue was full: its oldest exception was lost (exception 0x70 is reported). */
  | { type: 'exception-lost'; code: number; tag?: string }
  /** The host acknowledged an exception a general poll reported (§3.1): it has it. */
  | { type: 'exception-acked'; code: number; tag?: string }
  /**
   * The handpay queue's reissue note changed (§7.8.1): the host acknowledged 51 at `ackedAt`, or
   * (null) asked 1B or the handpay is gone. Kept by the caller across a restart (`handpayAckedAt`).
   */
  | { type: 'handpay-note'; ackedAt: number | null }
  /**
   * The station failed while the machine answered a long poll (`stage: 'answer'`, `command` its
   * command byte) or took the host's implied ACK of an answer (`stage: 'ack'`, `command` that
   * answer's poll's, null for a general poll's): the poll that carried it was left unanswered (the
   * host asks again), nothing was claimed done. The journal or the data folder refusing a write, say.
   */
  | { type: 'poll-failed'; command: number | null; stage: 'answer' | 'ack' | 'watchdog'; error: unknown };

// AFT (SAS 6.02 §8; hardware/sas/aft.ts parses and encodes, the station decides).

/** A transfer request as 0x72 carries it (what the kiosk reads of it). */
export interface AftRequest {
  /** 00 full transfer only, 01 partial transfers allowed. */
  code: number;
  /** The transaction index as sent: a transfer must carry 00 (§8.3); absent, 00. */
  index?: number;
  type: number;
  cashable: number | null;
  restricted: number | null;
  nonRestricted: number | null;
  flags: number;
  assetNumber: number;
  /** Whether the 20-byte registration key is all zeros ("registration not required"). */
  keyZero: boolean;
  /** The registration key (20 bytes), checked against the station's registration (0x73). */
  key: Uint8Array;
  /** 1–20 ASCII characters, as sent (checked by the station). */
  transactionId: string;
}

/** A transfer as 0x72 reports it: the answer to a request, or a history record an interrogation reads. */
export interface AftRecord {
  /** 0 the current or most recent transaction; 1–127 its position in the history buffer. */
  position: number;
  status: number;
  type: number;
  /** Credits transferred (or asked, for a refusal). */
  cashable: number;
  flags: number;
  assetNumber: number;
  transactionId: string;
  /** When it completed; null for a refusal. */
  at: SasDateTime | null;
  /** The station's cumulative meter for this type after it (credits); null for a refusal. */
  cumulative: number | null;
}

/** 0x74's answer. */
export interface AftStatusView {
  assetNumber: number;
  /** Table 8.9b bits: 0 to the machine OK, 1 from the machine OK. */
  availableTransfers: number;
  /** Table 8.9d bits: 1 partial to host allowed, 3 AFT registered, 4 in-house enabled, 7 any AFT enabled. */
  aftStatus: number;
  /** Credits on the meter (cashable). */
  cashable: number;
  /** The most one transfer may put on the meter (credits). */
  transferLimit: number;
  /** Game lock status (§8.4): 00 locked, 40 lock pending, FF not locked. */
  lock: number;
}

/** 0x74's lock request (§8.4): code 00 lock, 80 cancel a lock or a pending lock; the transfer conditions (bit 0 to the machine, 1 from it, 2 to a printer, 3 a bonus); the timeout in hundredths of a second (0000–9999 BCD). */
export interface AftLockRequest {
  code: 0x00 | 0x80;
  condition: number;
  timeoutHundredths: number;
}

export interface SasAftSide {
  /** 0x72 with a transfer code: decided, and journalled when it moves money, before the answer. */
  transfer(request: AftRequest): AftRecord;
  /** 0x72 interrogation (transfer code FE/FF): index 0 the current or most recent, 01–7F a history position, 81–FF relative (81 the newest). */
  interrogate(index: number): AftRecord | null;
  /** 0x74 with lock code 00 or 80, before its status is read: the station locks, leaves it pending, or refuses (docs/sas.md, "The game lock"). */
  lock(request: AftLockRequest): void;
  /** 0x74. */
  status(): AftStatusView;
  /** Whether the station is locked now (0x74's status 00): the machine reissues exception 6F every 5 s while it is (§8). */
  locked(): boolean;
  /** 0x73 (registration, hardware/sas/aft-register.ts); absent, 0x73 is ignored as unknown. */
  readonly registration?: SasAftRegistrationSide;
}
