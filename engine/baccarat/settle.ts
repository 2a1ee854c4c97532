/**
 * Settlement of the baccarat bets of one seat against a coup's result, as settlement lines.
 *
 * Rounding in minor units: where a rule yields a fraction of a minor unit (5% commission of a
 * stake that is not a multiple of 20, 50% of an odd stake), the fraction goes to the player: the
 * commission is rounded down and a fractional prize up. The house never keeps more than the
 * rule gives it; the host may in addition restrict stakes to amounts that never round.
 */
import { assertMinorUnits, type SettlementLine } from '../settlement/settlement-line.js';
import { BACCARAT_CATALOGUE, type BaccaratBet } from './bets.js';
import type { BaccaratProfile } from './profiles.js';
import type { CoupResult } from './tableau.js';

export { BACCARAT_BETS, type BaccaratBet } from './bets.js';
export { commission, prize } from './payout-math.js';
export type BaccaratBets = Partial<Record<BaccaratBet, number>>;

/**
 * One line per bet placed (stakes of 0 are not bets and give no line), in the catalogue's order
 * (engine/baccarat/bets.ts: banker, player, tie, player pair, banker pair, Lucky 6).
 */
export function settleBaccaratSeat(seat: number, bets: BaccaratBets, r: CoupResult, profile: BaccaratProfile): SettlementLine[] {
  const out: SettlementLine[] = [];
  for (const entry of BACCARAT_CATALOGUE) {
    const bet = entry.id;
    const stake = bets[bet];
    if (stake === undefined || stake === 0) continue;
    assertMinorUnits(stake, `seat ${seat} ${bet} stake`);
    if (stake < 0) throw new RangeError(`seat ${seat} ${bet} stake must not be negative, got ${stake}`);
    const { net, rule } = entry.settle(stake, r, profile);
    // A stake so large that its prize is no longer an exact integer is refused, never rounded.
    assertMinorUnits(net, `seat ${seat} ${bet} result`);
    out.push({ seat, bet, stake, net, rule });
  }
  return out;
}
