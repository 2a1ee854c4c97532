import { z } from 'zod';
import { RequestId, TicketCurrency, TicketRefusal, TicketStation, TicketTerms } from '../terms/ticket-terms.js';
import { TERMINAL_ID } from './auth.js';

// The /v1/tickets routes' bodies and answers (docs/upstream.md, "Tickets"). The table host checks
// the answers with its own copy (host/tickets/wire.ts), as the sync client does the ingest's.

const TerminalId = z.string().regex(TERMINAL_ID);
const Instant = z.iso.datetime({ offset: true });
/** Eighteen digits: a number that fails the scheme's checks is refused by the authority (`unknown`), and its attempt kept. */
const Digits = z.string().regex(/^\d{18}$/);
const Minor = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/** `proposed`: the id the table's configuration names, taken when no table holds it (else the next free one). */
export const MachineBody = z
  .strictObject({ terminalId: TerminalId, proposed: z.number().int().min(1).max(0xffffff).optional() })
  .meta({ id: 'TicketMachineRequest' });
export const MachineAnswer = z.strictObject({ machineId: z.number().int().min(1).max(0xffffff) }).meta({ id: 'TicketMachine' });
export const IssueBody = z.strictObject({ terminalId: TerminalId, ticket: TicketTerms }).meta({ id: 'TicketIssue' });
export const TicketAtBody = z.strictObject({ terminalId: TerminalId, validation: Digits, station: TicketStation }).meta({ id: 'TicketAt' });
export const AttemptBody = z
  .strictObject({ terminalId: TerminalId, requestId: RequestId, validation: Digits, station: TicketStation })
  .meta({ id: 'TicketAttempt' });
export const RedeemBody = z
  .strictObject({
    terminalId: TerminalId,
    requestId: RequestId,
    validation: Digits,
    station: TicketStation,
    currency: TicketCurrency,
    limit: Minor,
  })
  .meta({ id: 'TicketRedeem' });
export const RedeemAnswer = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('approved'), requestId: RequestId, validation: Digits, amount: z.number().int().positive(), currency: TicketCurrency }),
    z.strictObject({ kind: z.literal('refused'), requestId: RequestId, reason: TicketRefusal }),
  ])
  .meta({ id: 'TicketDecision' });
export const TicketOk = z.strictObject({ ok: z.literal(true) }).meta({ id: 'TicketOk' });

export const TicketParams = z.strictObject({ validation: Digits });
const State = z.enum(['issued', 'printed', 'pending', 'redeemed', 'voided', 'expired']);
const Outcome = z.enum(['approved', 'refused', 'stacked', 'returned']);
export const TicketView = z
  .strictObject({
    validation: Digits,
    ticket: z
      .strictObject({
        state: State,
        terminalId: TerminalId,
        station: z.number().int(),
        machineId: z.number().int(),
        sequence: z.number().int(),
        amount: Minor,
        currency: z.string(),
        issuedAt: Instant,
        expiresAt: Instant,
        printedAt: Instant.nullable(),
        voidedAt: Instant.nullable(),
        redemption: z
          .strictObject({
            terminalId: TerminalId,
            station: z.number().int(),
            requestId: z.string(),
            pendingAt: Instant.nullable(),
            redeemedAt: Instant.nullable(),
          })
          .nullable(),
      })
      .nullable(),
    attempts: z.array(
      z.strictObject({
        terminalId: TerminalId,
        requestId: z.string(),
        station: z.number().int(),
        outcome: Outcome,
        reason: z.string().nullable(),
        amount: Minor.nullable(),
        askedAt: Instant,
        closedAt: Instant.nullable(),
      }),
    ),
    /** The tables that registered this number under an id not theirs (`foreign-issuer`): while any, it is refused `contested` everywhere. */
    contests: z.array(
      z.strictObject({ terminalId: TerminalId, station: z.number().int(), amount: Minor, currency: z.string(), issuedAt: Instant, contestedAt: Instant }),
    ),
  })
  .meta({ id: 'TicketView' });
export const Liability = z
  .strictObject({
    asOf: Instant,
    currencies: z.array(z.strictObject({ currency: z.string(), tickets: z.number().int(), amount: Minor })),
    /** The tables left out: their tickets out in a currency are past what a table takes in a day (upstream/figure-bound.ts). */
    outOfRange: z.array(z.string()),
  })
  .meta({ id: 'TicketLiability' });
