import { z } from 'zod';
import { tiltDetailSaid, type Said } from '../../locales/said.js';
import { inEnglish } from '../config/refusal-words.js';

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

/**
 * The fault's detail said by key (`tilt.raise`'s `say`), as service mode's fault list shows a
 * detail, in the reader's language; the Tickets page reads it back (readTicketFaultSaid). The
 * English `detail` beside it is the catalogue's, so journals before 6 December (English only) are read by readTicketFault.
 */
export function ticketFaultSaid(f: TicketFault, currency: string): Said {
  const values = { lastDigits: f.last4, amount: f.amount, currency, by: f.by, ...(f.reason ? { reason: f.reason } : {}) };
  return tiltDetailSaid(f.settled === 'printed' ? 'ticketLateVerdictPrinted' : 'ticketLateVerdictVoid', values);
}

const SAID = z.object({
  key: z.enum(['tiltDetail.ticketLateVerdictPrinted', 'tiltDetail.ticketLateVerdictVoid']),
  values: z.object({
    lastDigits: z.string().regex(/^\d{4}$/),
    amount: z.number().int().nonnegative().max(999_999_999_999_999),
    by: z.string().min(1).max(200),
    reason: z
      .string()
      .regex(/^[\w-]{1,40}$/)
      .optional(),
  }),
});

/** The fault read back from its say; null for any other (the page then reads its detail). */
export function readTicketFaultSaid(say: unknown): TicketFault | null {
  const r = SAID.safeParse(say);
  if (!r.success) return null;
  const { lastDigits, amount, by, reason } = r.data.values;
  // Settled one way, the printer said the other: the fault is raised only where they differ.
  const settled = r.data.key === 'tiltDetail.ticketLateVerdictPrinted' ? 'printed' : 'void';
  return { last4: lastDigits, amount, settled, by, printer: settled === 'printed' ? 'not-printed' : 'printed', ...(reason ? { reason } : {}) };
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

/** A settlement by hand refused: what it says to a person (`say`), the same in English for the log (`detail`). */
export function settleRefusal(say: Said): { ok: false; detail: string; say: Said } {
  return { ok: false, detail: inEnglish(say), say };
}
