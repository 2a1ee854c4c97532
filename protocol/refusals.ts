import { z } from 'zod';

/**
 * Why the host refused a station's command, worded for the player under `refusals.<reason>` in
 * every locale. The English detail of the refusal stays in the log and service mode.
 */
export const RefusalReason = z.enum([
  'betting-closed',
  'bets-stopped',
  'unknown-bet',
  'under-min',
  'over-max',
  'over-credit',
  'no-decision',
  'illegal-action',
  'no-round',
  'not-a-station',
  'station-locked',
  'station-disabled',
  'table-halted',
  'cash-out-empty',
  'cash-out-pending',
  'behind-not-allowed',
  'bets-paused',
  'bets-in-play',
  'behind-seat-empty',
]);
export type RefusalReason = z.infer<typeof RefusalReason>;

export function refusalKey(reason: RefusalReason): string {
  return `refusals.${reason}`;
}
