import type { LineContext, LineMarks } from '../line-choices.js';
import type { BlackjackSettlementLine } from '../round-types.js';
import type { Hand, Stake } from '../round-seats.js';

/** A settlement line, its fields in the order every line has been journalled with. */
export function lineOf(
  seat: number,
  bet: string,
  hand: number,
  stake: number,
  net: number,
  rule: string,
  owner?: string,
  marks: LineMarks = {},
): BlackjackSettlementLine {
  return { seat, bet, hand, stake, net, rule, ...marks, ...(owner !== undefined ? { owner } : {}) };
}

/** What a stake's hand went through, for its line's marks. */
export function handContext(h: Hand, st: Stake): LineContext {
  return {
    doubled: h.doubled && st.stake > st.base,
    fromSplit: h.fromSplit,
    behind: st.owner !== undefined,
    stayedOut: st.stayedOutSplit || st.stayedOutDouble,
  };
}
