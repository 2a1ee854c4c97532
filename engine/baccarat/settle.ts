/**
 * Settlement of the baccarat bets of one seat against a coup's result, as settlement lines.
 *
 * Rounding in minor units: where a rule yields a fraction of a minor unit (5% commission of a
 * stake that is not a multiple of 20, 50% of an odd stake), the fraction goes to the player: the
 * commission is rounded down and a fractional prize up. The house never keeps more than the
 * rule gives it; the host may in addition restrict stakes to amounts that never round.
 */
import { assertMinorUnits, type SettlementLine } from '../settlement/settlement-line.js';
import type { BaccaratProfile, Payout } from './profiles.js';
import type { CoupResult } from './tableau.js';

export const BACCARAT_BETS = ['banker', 'player', 'tie', 'playerPair', 'bankerPair', 'lucky6'] as const;
export type BaccaratBet = (typeof BACCARAT_BETS)[number];
export type BaccaratBets = Partial<Record<BaccaratBet, number>>;

/**
 * `a × b / d` in whole units and the remainder's numerator, exact for any safe `a` and `b`, `d` up
 * to 10000: `a × b` itself may pass 2^53 (a large stake times 5000 basis points), where a float
 * product is rounded and its floor or ceiling can be one unit off, either way.
 */
function mulDiv(a: number, b: number, d: number): { whole: number; rest: number } {
  let q = Math.floor(a / d);
  let r = a - q * d;
  // a / d is itself rounded when a is large: correct the quotient by one if it overshot or fell short.
  if (r < 0) {
    q -= 1;
    r += d;
  } else if (r >= d) {
    q += 1;
    r -= d;
  }
  const restProduct = r * b; // < d × b ≤ 10^8: exact
  return { whole: q * b + Math.floor(restProduct / d), rest: restProduct % d };
}

/** `stake × win / per`, a fraction of a minor unit rounded up (to the player). */
export function prize(stake: number, p: { readonly win: number; readonly per: number }): number {
  const { whole, rest } = mulDiv(stake, p.win, p.per);
  return rest > 0 ? whole + 1 : whole;
}

/** The commission on banker winnings, rounded down (to the player). */
export function commission(winnings: number, basisPoints: number): number {
  return mulDiv(winnings, basisPoints, 10000).whole;
}

function line(seat: number, bet: BaccaratBet, stake: number, net: number, rule: string): SettlementLine {
  // A stake so large that its prize is no longer an exact integer is refused, never rounded.
  assertMinorUnits(net, `seat ${seat} ${bet} result`);
  return { seat, bet, stake, net, rule };
}

function bankerLine(seat: number, stake: number, r: CoupResult, profile: BaccaratProfile): SettlementLine {
  const b = profile.banker;
  // Art. 18 speaks of the banker's wins only: returned on a tie or lost, the line cites the bet's article.
  if (r.winner === 'tie') return line(seat, 'banker', stake, 0, profile.betRules.banker);
  if (r.winner === 'player') return line(seat, 'banker', stake, -stake, profile.betRules.banker);
  if (b.kind === 'commission') return line(seat, 'banker', stake, stake - commission(stake, b.commissionBasisPoints), b.rule);
  if (r.bankerTotal === 6) return line(seat, 'banker', stake, prize(stake, { win: b.winOnSixBasisPoints, per: 10000 }), b.winOnSixRule);
  return line(seat, 'banker', stake, stake, b.rule);
}

/**
 * «6 Sortudo» (Art. 13 n.1 4)(3)): "ganha quando o grupo banqueiro ganha a jogada com o total de 6
 * pontos, após ter recebido as duas cartas iniciais ou uma carta adicional"; Art. 17 n.5 pays 12 to 1
 * on the first two cards and 20 to 1 with the third. A banker 6 that ties or loses is no win.
 */
function lucky6Line(seat: number, stake: number, r: CoupResult, profile: BaccaratProfile): SettlementLine {
  const wins = r.winner === 'banker' && r.bankerTotal === 6;
  const p = r.banker.length === 2 ? profile.payouts.lucky6Two : profile.payouts.lucky6Three;
  return simple(seat, 'lucky6', stake, wins, p);
}

function simple(seat: number, bet: BaccaratBet, stake: number, wins: boolean, p: Payout): SettlementLine {
  return line(seat, bet, stake, wins ? prize(stake, p) : -stake, p.rule);
}

/**
 * One line per bet placed (stakes of 0 are not bets and give no line), in the order
 * banker, player, tie, player pair, banker pair.
 */
export function settleBaccaratSeat(seat: number, bets: BaccaratBets, r: CoupResult, profile: BaccaratProfile): SettlementLine[] {
  const out: SettlementLine[] = [];
  for (const bet of BACCARAT_BETS) {
    const stake = bets[bet];
    if (stake === undefined || stake === 0) continue;
    assertMinorUnits(stake, `seat ${seat} ${bet} stake`);
    if (stake < 0) throw new RangeError(`seat ${seat} ${bet} stake must not be negative, got ${stake}`);
    const pays = profile.payouts;
    switch (bet) {
      case 'banker':
        out.push(bankerLine(seat, stake, r, profile));
        break;
      case 'player':
        out.push(r.winner === 'tie' ? line(seat, bet, stake, 0, profile.betRules.player) : simple(seat, bet, stake, r.winner === 'player', pays.player));
        break;
      case 'tie':
        out.push(simple(seat, bet, stake, r.winner === 'tie', pays.tie));
        break;
      case 'playerPair':
        out.push(simple(seat, bet, stake, r.playerPair, pays.playerPair));
        break;
      case 'bankerPair':
        out.push(simple(seat, bet, stake, r.bankerPair, pays.bankerPair));
        break;
      case 'lucky6':
        out.push(lucky6Line(seat, stake, r, profile));
        break;
    }
  }
  return out;
}
