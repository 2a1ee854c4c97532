// A ticket's validation number: 18 digits (the SAS validation number's length; the ID-003 barcode
// function `01 12` reads 18-character Interleaved 2 of 5 tickets; a TCL ticket prints them). The
// printer and the bill acceptor both check it at their boundary.
import { z } from 'zod';

export const ValidationNumber = z.string().regex(/^\d{18}$/, 'a validation number is 18 digits');
export type ValidationNumber = z.infer<typeof ValidationNumber>;

export function isValidationNumber(s: string): boolean {
  return ValidationNumber.safeParse(s).success;
}
