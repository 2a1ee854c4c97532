import { entriesOfTypes, type Ledger } from '../../ledger/index.js';
import { TICKET_ACCOUNTS } from '../../ledger/ticket-postings.js';
import { isTicketEntryType, parseTicketEntry, TICKET_ENTRY_TYPES, type TicketEntry } from '../../terms/ticket-terms.js';

// The tickets of a soak (issue 47, docs/tito.md), from the journal's payloads alone, so that the
// money check of the soak counts them without trusting the postings it checks: a ticket's credit
// left a meter when it was issued, came back if it was voided, is paper (owed by the floor) once
// printed, and is in print between the two; a ticket redeemed here put its amount on a meter.

export interface TicketAccount {
  /** Tickets issued (the credit left a meter), and their sum. */
  issued: { count: number; amount: number };
  /** Printed: the floor owes their holders. */
  printed: { count: number; amount: number };
  /** Voided: the credit went back to the station. */
  voided: { count: number; amount: number };
  /** Of those printed or voided, the ones a person settled (`settledBy`: the printer could not say; in a soak, the simulated attendant). */
  settledByHand: { count: number; amount: number };
  /** Issued and neither printed nor voided when the soak stopped (in print, or the printer could not say). */
  inPrint: { count: number; amount: number };
  /** Stacked at this table's acceptors, the stations credited. */
  redeemed: { count: number; amount: number };
  /** Redemption attempts asked and not ended (approved and not stacked or returned, or not answered) when the soak stopped. */
  pendingRedemptions: number;
  /** Attempts that went back to the player. */
  returned: number;
  /** A ticket printed and voided, ended twice, ended with no issue, or redeemed twice; the ledger's ticket accounts against the journal. */
  problems: string[];
}

/** Folds the journal's ticket entries: what each ticket became, and whether the ledger's ticket accounts agree. */
export function ticketAccountFor(ledger: Ledger): TicketAccount {
  const a: TicketAccount = {
    issued: { count: 0, amount: 0 },
    printed: { count: 0, amount: 0 },
    voided: { count: 0, amount: 0 },
    settledByHand: { count: 0, amount: 0 },
    inPrint: { count: 0, amount: 0 },
    redeemed: { count: 0, amount: 0 },
    pendingRedemptions: 0,
    returned: 0,
    problems: [],
  };
  const issued = new Map<string, number>();
  const ends = new Map<string, string[]>();
  const byHand = new Set<string>();
  const stacked = new Map<string, number>();
  const attempts = new Set<string>();
  for (const r of entriesOfTypes(ledger, [...TICKET_ENTRY_TYPES])) {
    const body: unknown = JSON.parse(r.body);
    const e: TicketEntry | null =
      body && typeof body === 'object' && 'payload' in body && isTicketEntryType(r.type) ? parseTicketEntry(r.type, body.payload) : null;
    if (!e) {
      a.problems.push(`entry ${r.seq} (${r.type}) does not read as a ticket entry`);
      continue;
    }
    switch (e.type) {
      case 'ticket.issue':
        if (issued.has(e.payload.validation)) a.problems.push(`ticket ${e.payload.validation} issued twice`);
        issued.set(e.payload.validation, e.payload.amount);
        a.issued.count++;
        a.issued.amount += e.payload.amount;
        break;
      case 'ticket.printed':
      case 'ticket.void':
        ends.set(e.payload.validation, [...(ends.get(e.payload.validation) ?? []), e.type]);
        if (e.payload.settledBy) byHand.add(e.payload.validation);
        break;
      case 'ticket.redeem.request':
        attempts.add(e.payload.requestId);
        break;
      case 'ticket.redeem.returned':
        a.returned++;
        attempts.delete(e.payload.requestId);
        break;
      case 'ticket.redeem.stacked':
        attempts.delete(e.payload.requestId);
        stacked.set(e.payload.validation, (stacked.get(e.payload.validation) ?? 0) + 1);
        a.redeemed.count++;
        a.redeemed.amount += e.payload.amount;
        break;
      case 'ticket.redeem.approved':
        break;
    }
  }
  countEnds(a, issued, ends, byHand);
  for (const [validation, n] of stacked) if (n > 1) a.problems.push(`ticket ${validation} credited ${n} times`);
  a.pendingRedemptions = attempts.size;
  // The ledger's own ticket accounts (its postings) against what the payloads say.
  const books = {
    [TICKET_ACCOUNTS.printing]: -a.inPrint.amount,
    [TICKET_ACCOUNTS.out]: -a.printed.amount,
    [TICKET_ACCOUNTS.in]: a.redeemed.amount,
  };
  for (const [name, expected] of Object.entries(books)) {
    const held = ledger.balance(name);
    if (held !== expected) a.problems.push(`account ${name} holds ${held}, the journal's tickets give ${expected}`);
  }
  return a;
}

/** Each ticket issued by its end (printed, voided, or none yet: in print), and who ended it; an end twice or with no issue is a problem. */
function countEnds(a: TicketAccount, issued: ReadonlyMap<string, number>, ends: ReadonlyMap<string, string[]>, byHand: ReadonlySet<string>): void {
  for (const [validation, amount] of issued) {
    const end = ends.get(validation) ?? [];
    if (end.length > 1) a.problems.push(`ticket ${validation} ended ${end.length} times (${end.join(', ')}): printed and given back`);
    const first = end[0];
    const into = first === 'ticket.printed' ? a.printed : first === 'ticket.void' ? a.voided : a.inPrint;
    into.count++;
    into.amount += amount;
    if (byHand.has(validation)) {
      a.settledByHand.count++;
      a.settledByHand.amount += amount;
    }
  }
  for (const validation of ends.keys()) if (!issued.has(validation)) a.problems.push(`ticket ${validation} ended without being issued here`);
}

/**
 * The soak's summary line for tickets: printed, redeemed at this table's acceptors, and refused
 * (attempts sent back to the player: already paid, unknown, offline…), with the rest that a
 * reader of the money check needs (voided, still in print, redemptions not ended). Amounts in minor units.
 */
export function ticketSummary(t: TicketAccount): string {
  return (
    `printed ${t.printed.count} (${t.printed.amount}), redeemed ${t.redeemed.count} (${t.redeemed.amount}), refused ${t.returned}; ` +
    `voided ${t.voided.count} (${t.voided.amount}), settled by hand ${t.settledByHand.count} (${t.settledByHand.amount}), ` +
    `in print ${t.inPrint.count} (${t.inPrint.amount}), redemptions pending ${t.pendingRedemptions}`
  );
}
