import { z } from 'zod';

/**
 * A printer's late verdict that differs from a person's settlement of a held ticket (docs/tito.md,
 * "A ticket held after a jam"), as the `ticket-late-verdict` fault journals it in its `tilt.raise`
 * detail: one line a person reads in the journal and the event log, written and read back here
 * only, so service mode's Tickets page can word it in the reader's language.
 */
export interface TicketFault {
  /** The validation number's last four digits: the whole number never leaves the journal's ticket entries. */
  last4: string;
  amount: number;
  /** What the person journalled. */
  settled: 'printed' | 'void';
  /** Who settled it (the entry's `settledBy`). */
  by: string;
  /** What the printer said afterwards, and why when it said not printed. */
  printer: 'printed' | 'not-printed';
  reason?: string;
}

export function ticketFaultDetail(f: TicketFault): string {
  const said = f.printer === 'printed' ? 'printed' : `not printed${f.reason ? ` (${f.reason})` : ''}`;
  return `ticket …${f.last4} of ${f.amount} settled ${f.settled} by ${f.by}; the printer later said ${said}`;
}

const DETAIL = /^ticket …(\d{4}) of (\d{1,15}) settled (printed|void) by (.{1,200}); the printer later said (printed|not printed)(?: \(([\w-]{1,40})\))?$/u;

/** The fault read back from its detail; null for any other text (the page then shows it as written). */
export function readTicketFault(detail: string): TicketFault | null {
  const m = DETAIL.exec(detail);
  if (!m?.[1] || !m[2] || !m[4]) return null;
  return {
    last4: m[1],
    amount: Number(m[2]),
    settled: m[3] === 'printed' ? 'printed' : 'void',
    by: m[4],
    printer: m[5] === 'printed' ? 'printed' : 'not-printed',
    ...(m[6] ? { reason: m[6] } : {}),
  };
}

/** Who settled a ticket's end, read back from its entry (absent: the printer's own verdict ended it). */
const SettledBy = z.object({ payload: z.object({ settledBy: z.array(z.string()).optional() }) });

/** The names that settled a ticket's end (its entry's body), or `the printer`. */
export function settledByOf(body: string): string {
  return SettledBy.safeParse(JSON.parse(body)).data?.payload.settledBy?.join(', ') ?? 'the printer';
}
