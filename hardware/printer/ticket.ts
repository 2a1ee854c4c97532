// A cash-out ticket as the host hands it to the printer driver, checked at the boundary (zod), and
// the pure formatting the ticket shows: the validation number in digits, the amount in figures.
// The words (amount in words, the labels) come from the host, which takes them from locales/.
import { z } from 'zod';
import { hasControlCharacter } from './tcl.js';

import { ValidationNumber } from '../validation-number.js';

export { ValidationNumber };

/** A line of a ticket: printable text, no control characters, short enough for one region. */
const Line = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine((s) => !hasControlCharacter(s), 'no control characters');

const Stamp = z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, 'YYYY-MM-DD HH:MM:SS');
const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD');

/** The words printed beside the values, in the ticket's languages (locales `ticket.*`, zh-Hant / pt). */
export const TicketLabels = z.object({
  title: Line(60),
  validation: Line(40),
  table: Line(30),
  station: Line(30),
  ticketNumber: Line(30),
  issued: Line(30),
  expires: Line(40),
});
export type TicketLabels = z.infer<typeof TicketLabels>;

/** The longest table id the ticket's table line carries (the table's configuration refuses a longer one at a table with a printer). */
export const TICKET_TABLE_CHARS = 20;

export const TicketData = z.object({
  validationNumber: ValidationNumber,
  /** Integer minor units (avos, cents): the figures are made from it here, never from a float. */
  amount: z.object({ minor: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), currency: z.enum(['HKD', 'MOP']) }),
  /** The amount in words, from locales' pure functions (financial numerals in Chinese). */
  amountInWords: z.object({ zh: Line(80), pt: Line(200) }),
  table: Line(TICKET_TABLE_CHARS),
  station: z.number().int().min(1).max(9999),
  ticketNumber: z.number().int().min(1).max(99_999_999),
  issuedAt: Stamp,
  expiresOn: Day,
  labels: TicketLabels,
});
export type TicketData = z.infer<typeof TicketData>;

/** The validation number as tickets show it: `00-0000-0000-0000-0000`. */
export function formatValidationNumber(n: ValidationNumber): string {
  if (!ValidationNumber.safeParse(n).success) throw new RangeError('a validation number is 18 digits');
  return `${n.slice(0, 2)}-${n.slice(2, 6)}-${n.slice(6, 10)}-${n.slice(10, 14)}-${n.slice(14, 18)}`;
}

/**
 * The amount in figures, `MOP 1,234.50`: the ISO code (the printer's fonts have no 澳門元 sign), digits
 * grouped by three, always two decimals. Built from the integer, so no rounding can touch it.
 */
export function formatAmountFigures(minor: number, currency: 'HKD' | 'MOP'): string {
  if (!Number.isSafeInteger(minor) || minor < 0) throw new RangeError(`an amount is whole minor units ≥ 0, got ${minor}`);
  const s = String(minor).padStart(3, '0');
  const units = s.slice(0, -2).replace(/\B(?=(\d{3})+$)/g, ',');
  return `${currency} ${units}.${s.slice(-2)}`;
}
