import type { AftInRefusal, StationState, TicketReturnReason } from '../../../protocol/index.js';
import { NEVER } from '../anim/wake.js';

/** How long the station says what became of a ticket (printed, credited, returned…). */
const TICKET_SAID_MS = 10_000;

/**
 * What the station says of its tickets (docs/tito.md): a ticket in print or being checked while it
 * lasts, an outcome for a few seconds after it came; the newest of the two. `until`: when the words
 * next change.
 */
export type TicketKey =
  | `desk.ticketReturned.${TicketReturnReason}`
  | 'desk.noteReturned.credit-limit'
  | `desk.aftRefused.${AftInRefusal}`
  | 'desk.ticketChecking'
  | 'desk.ticketCredited'
  | 'desk.ticketPrinting'
  | 'desk.ticketPrinted'
  | 'desk.ticketVoided'
  | 'desk.ticketUnresolved'
  | 'desk.ticketAwaitingSystem';

export function ticketWords(s: StationState, now: number): { key: TicketKey; amount: number; until: number } | null {
  // A cash-out waiting for the casino system's number (SAS system validation) says so while it waits.
  const wait = s.cashout?.systemWait;
  if (wait) return { key: 'desk.ticketAwaitingSystem', amount: wait.amount, until: NEVER };
  const out = s.cashout?.ticket;
  const into = s.cashout?.ticketIn;
  const note = s.cashout?.noteIn;
  // A transfer in from the casino system the station refused (AFT): said like a note returned, with its amount.
  const aft = s.cashout?.aftIn;
  const lasting = (state: string) => state === 'printing' || state === 'unresolved' || state === 'checking';
  const said = [out, into, note, aft].filter((x) => x !== undefined && x !== null).sort((a, b) => b.at - a.at)[0];
  if (!said) return null;
  const until = lasting(said.state) ? NEVER : said.at + TICKET_SAID_MS;
  if (until <= now) return null;
  if (said === note) return { key: 'desk.noteReturned.credit-limit', amount: 0, until };
  if (said.state === 'refused') return { key: `desk.aftRefused.${said.reason}`, amount: said.amount, until };
  if (said.state === 'returned') return { key: `desk.ticketReturned.${said.reason}`, amount: 0, until };
  if (said.state === 'checking') return { key: 'desk.ticketChecking', amount: 0, until };
  if (said.state === 'credited') return { key: 'desk.ticketCredited', amount: said.amount, until };
  const keys = { printing: 'desk.ticketPrinting', printed: 'desk.ticketPrinted', voided: 'desk.ticketVoided', unresolved: 'desk.ticketUnresolved' } as const;
  return { key: keys[said.state], amount: said.amount, until };
}
