/**
 * Baccarat's prizes and commission in minor units. Where a rule yields a fraction of a minor unit
 * (5% commission of a stake that is not a multiple of 20, 50% of an odd stake), the fraction goes
 * to the player: the commission is rounded down and a fractional prize up.
 */

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
