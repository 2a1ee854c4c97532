import { z } from 'zod';
import { MACHINE_ID_MAX, MACHINE_SYSTEM_ID, parseValidationNumber, SEQUENCE_MAX, ValidationNumber } from './validation-number.js';

// Cash-out tickets (TITO, issue 47; docs/tito.md): the words the table host, the validation
// authority (host/tickets/authority.ts) and the upstream that is its first implementation share,
// defined once, pure and zod only, as the transfers' terms are (terms/transfer-terms.ts). Money is
// integer minor units of the table's currency.

/** A station of the table (seated 1–7, remote from 101: engine/table/vocabulary.ts). */
export const TicketStation = z.number().int().min(1).max(9999);
export const TicketCurrency = z.string().regex(/^[A-Z]{3}$/);
const Amount = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
/**
 * The instants a ticket may name, issued or expiring: from 2000 to the end of 2199. No floor's clock
 * is outside them, and every one is an instant PostgreSQL's timestamptz holds (it refuses year 0000,
 * which the ISO shape alone takes). Before 7 December a ticket dated year 0000 passed here, and the
 * upstream's INSERT of it failed its sync's batch with a 500 for ever (tests/tickets/ticket-dates.test.ts).
 */
export const TICKET_TIME_RANGE = { from: '2000-01-01T00:00:00.000Z', until: '2200-01-01T00:00:00.000Z' } as const;
const Instant = z.iso.datetime({ offset: true }).refine((at) => {
  const t = Date.parse(at);
  return t >= Date.parse(TICKET_TIME_RANGE.from) && t < Date.parse(TICKET_TIME_RANGE.until);
}, 'an instant from 2000 to the end of 2199');

/** A validation number that is one of ours (`parseValidationNumber`): 18 digits with its checks right. */
export const TicketNumber = ValidationNumber.refine((n) => parseValidationNumber(n).ok, 'not a validation number this scheme makes');

/**
 * One attempt to redeem a ticket at a station: made by the table (a UUID), journalled in
 * `ticket.redeem.request` before the authority is asked, and named by every later word about that
 * attempt — the approval, the confirmation, the cancel, the journal's outcome. A table can name
 * only its own attempts (the authority keys them by the table that asked).
 */
export const RequestId = z.string().regex(/^[A-Za-z0-9._:-]{8,128}$/);
export type RequestId = z.infer<typeof RequestId>;

/** The ticket's own words, whoever numbered it. */
const issuedTerms = {
  station: TicketStation,
  amount: Amount,
  currency: TicketCurrency,
  issuedAt: Instant,
  expiresAt: Instant,
};

/** A ticket numbered by the table itself (`validationNumber`): the validation id it was made under (the authority's for this table) and its sequence. */
export const MachineTicketTerms = z.strictObject({
  validation: TicketNumber,
  machineId: z.number().int().min(1).max(MACHINE_ID_MAX),
  sequence: z.number().int().min(1).max(SEQUENCE_MAX),
  ...issuedTerms,
});

/**
 * A number the casino's system gave in SAS system validation (long poll 0x58; docs/sas.md, "System
 * validation"): its validation system id (01–99, never 00, the machine's own) and 16 digits. The
 * table cannot check it beyond its shape: the system that gave it is the one that pays it.
 */
export const SystemTicketNumber = ValidationNumber.refine((n) => n.slice(0, 2) !== MACHINE_SYSTEM_ID, 'system id 00 is a number the machine made');

/** Either kind of number: what a printed ticket, its end and a redemption attempt carry. */
export const AnyTicketNumber = ValidationNumber.refine(
  (n) => n.slice(0, 2) !== MACHINE_SYSTEM_ID || parseValidationNumber(n).ok,
  'neither a number this scheme makes nor one a casino system gave',
);

/**
 * A ticket numbered by the casino's system (SAS system validation): the system id (the number's
 * first two digits), the table's `ticket.validation.request` the system answered (the ledger checks
 * the number against that request's end), and the table's own count of tickets (`sequence`, as on
 * the paper and in 0x4D's ticket number; the next machine-numbered ticket goes on after it).
 */
export const SystemTicketTerms = z.strictObject({
  validation: SystemTicketNumber,
  systemId: z.number().int().min(1).max(99),
  requestId: RequestId,
  sequence: z.number().int().min(1).max(SEQUENCE_MAX),
  ...issuedTerms,
});

/** What the table journals with `ticket.issue` and tells the authority: the ticket as printed, numbered by the table or by the casino's system. */
export const TicketTerms = z.union([MachineTicketTerms, SystemTicketTerms]);
export type TicketTerms = z.infer<typeof TicketTerms>;
export type MachineTicketTerms = z.infer<typeof MachineTicketTerms>;
export type SystemTicketTerms = z.infer<typeof SystemTicketTerms>;

/** Whether the casino's system numbered this ticket (SAS system validation). */
export function isSystemNumbered(t: TicketTerms): t is SystemTicketTerms {
  return 'systemId' in t;
}

/**
 * The terms' number is the one its terms say: for a number the table made, the one its machine id
 * and sequence make (a table cannot register another's number); for one the casino's system gave,
 * one that starts with that system's id.
 */
export function termsConsistent(t: TicketTerms): boolean {
  if (!(Date.parse(t.expiresAt) > Date.parse(t.issuedAt))) return false;
  if (isSystemNumbered(t)) return t.validation.slice(0, 2) === String(t.systemId).padStart(2, '0');
  const p = parseValidationNumber(t.validation);
  return p.ok && p.machineId === t.machineId && p.sequence === t.sequence;
}

/**
 * Why the authority refused a redemption (the player is told in their language; the ticket goes
 * back). `offline` is the host's own answer too: no answer in time, or one it could not believe.
 */
export const TICKET_REFUSALS = [
  /** No printed ticket has that number (never issued, not yet known, or not printed). */
  'unknown',
  /** Redeemed already. */
  'already-paid',
  /** Held by a redemption at a station (this one or another) not yet stacked or returned. */
  'pending-elsewhere',
  /** Past its expiry. */
  'expired',
  /** Voided by its table (the credit given back there): never paid. */
  'voided',
  /** Not in this table's currency. */
  'other-currency',
  /** Above what this table takes by ticket. */
  'over-limit',
  /** The authority did not answer in time, or not believably. */
  'offline',
  /** Two tables printed this number (a table's id not its own: docs/tito.md, "A contested number"): the cage settles it from the papers. */
  'contested',
] as const;
export type TicketRefusal = (typeof TICKET_REFUSALS)[number];
export const TicketRefusal = z.enum(TICKET_REFUSALS);

/** Why a table returned a ticket it asked about: a refusal, or its own reason after an approval. */
/** `credit-limit`: the station's credit would pass the table's `creditLimit` (docs/sas.md, "The station credit limit"). */
export const TICKET_RETURNS = [...TICKET_REFUSALS, 'acceptor-returned', 'acceptor-fault', 'player-cancelled', 'table-stopped', 'credit-limit'] as const;
export const TicketReturn = z.enum(TICKET_RETURNS);

const ticketOf = { validation: AnyTicketNumber, station: TicketStation };
/**
 * Which system validates the ticket or the attempt, when it is the casino's over SAS
 * (`tickets.authority: sas`; absent: the floor's own, the upstream). The upstream, which ingests
 * every table's journal, then neither registers the ticket nor looks for an attempt of its own:
 * without it a SAS table's every ticket would be another issuer's and every credit one it never
 * approved, each an alarm. The label gains a lying table nothing: the upstream still settles an
 * attempt it did approve, and alarms a number it holds.
 */
export const ValidatedBySas = z.literal('sas').optional();
const PrintAttempt = z.strictObject({ template: z.string().min(1).max(8), before: z.string().max(8) }).optional();
/**
 * Who settled a ticket the printer could not judge, or a ticket in the acceptor left without an end
 * (service mode; a second person above the two-person amount).
 */
const SettledBy = z.array(z.string().min(1).max(80)).min(1).max(2);
const attempt = { requestId: RequestId, ...ticketOf, authority: ValidatedBySas };

/**
 * The ledger entries of a ticket's life, as the host journals them (the host's integration writes
 * them; docs/tito.md, "Journal entries"). The upstream reads them from each table's synced journal
 * and resolves by them what the table's direct words left open (a redemption never confirmed).
 */
export const TICKET_PAYLOADS = {
  /**
   * The credit leaves the station's meter for a ticket; journalled before the print command, with
   * the print attempt (the printer's template for it and its last one before), so a restart can
   * ask the printer whether it printed (docs/protocols/tcl.md). Absent: no command was sent.
   */
  'ticket.issue': z.union([
    MachineTicketTerms.extend({ print: PrintAttempt, authority: ValidatedBySas }),
    SystemTicketTerms.extend({ print: PrintAttempt, authority: ValidatedBySas }),
  ]),
  /** The printer reported the ticket printed (its validation number accepted), or a person settled it so (`settledBy`): now redeemable. */
  'ticket.printed': z.strictObject({ ...ticketOf, settledBy: SettledBy.optional() }),
  /** The ticket was not printed (the printer's status, or a person's settlement): the credit is given back; the number is never paid. */
  'ticket.void': z.strictObject({ ...ticketOf, reason: z.string().min(1).max(200), settledBy: SettledBy.optional() }),
  /** A ticket in escrow at a station's acceptor; journalled before the authority is asked. No money moves. */
  'ticket.redeem.request': z.strictObject(attempt),
  /** The authority approved it for this amount; journalled before STACK, so a restart knows what to credit. */
  'ticket.redeem.approved': z.strictObject({ ...attempt, amount: Amount, currency: TicketCurrency }),
  /** The acceptor stacked it, or a person found it in the cashbox (`settledBy`): the station is credited by this entry. */
  'ticket.redeem.stacked': z.strictObject({ ...attempt, amount: Amount, currency: TicketCurrency, settledBy: SettledBy.optional() }),
  /** It went back to the player (refused, no answer, or returned after an approval), or a person found it not in the cashbox (`settledBy`). */
  'ticket.redeem.returned': z.strictObject({ ...attempt, reason: TicketReturn, settledBy: SettledBy.optional() }),
} as const;

export type TicketEntryType = keyof typeof TICKET_PAYLOADS;
export const TICKET_ENTRY_TYPES = Object.keys(TICKET_PAYLOADS) as readonly TicketEntryType[];
export type TicketEntry = { [T in TicketEntryType]: { type: T; payload: z.infer<(typeof TICKET_PAYLOADS)[T]> } }[TicketEntryType];

export function isTicketEntryType(type: string): type is TicketEntryType {
  return Object.hasOwn(TICKET_PAYLOADS, type);
}

/** A journalled ticket entry read back, checked by its schema; null when it does not fit. */
export function parseTicketEntry(type: TicketEntryType, payload: unknown): TicketEntry | null {
  switch (type) {
    case 'ticket.issue': {
      const r = TICKET_PAYLOADS[type].safeParse(payload);
      return r.success ? { type, payload: r.data } : null;
    }
    case 'ticket.printed': {
      const r = TICKET_PAYLOADS[type].safeParse(payload);
      return r.success ? { type, payload: r.data } : null;
    }
    case 'ticket.void': {
      const r = TICKET_PAYLOADS[type].safeParse(payload);
      return r.success ? { type, payload: r.data } : null;
    }
    case 'ticket.redeem.request': {
      const r = TICKET_PAYLOADS[type].safeParse(payload);
      return r.success ? { type, payload: r.data } : null;
    }
    case 'ticket.redeem.approved': {
      const r = TICKET_PAYLOADS[type].safeParse(payload);
      return r.success ? { type, payload: r.data } : null;
    }
    case 'ticket.redeem.stacked': {
      const r = TICKET_PAYLOADS[type].safeParse(payload);
      return r.success ? { type, payload: r.data } : null;
    }
    case 'ticket.redeem.returned': {
      const r = TICKET_PAYLOADS[type].safeParse(payload);
      return r.success ? { type, payload: r.data } : null;
    }
  }
}
