import { z } from 'zod';
import { REFUSAL_REASONS } from '../engine/table/vocabulary.js';

/**
 * Why the host refused a station's command, worded for the player under `refusals.<reason>` in
 * every locale. The English detail of the refusal stays in the log and service mode.
 */
export const RefusalReason = z.enum(REFUSAL_REASONS);
export type RefusalReason = z.infer<typeof RefusalReason>;

export function refusalKey(reason: RefusalReason): `refusals.${RefusalReason}` {
  return `refusals.${reason}`;
}
