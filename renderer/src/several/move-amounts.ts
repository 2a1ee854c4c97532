import type { StationTransfer, StationTransfers } from '../../../protocol/index.js';

/** How much one press moved before the player could choose: this many of the focus table's minimum bets. */
export const MINIMUMS_PER_MOVE = 5;

/**
 * The amounts a player may move to a table, lowest first: the table's chips in its 1-2-5 steps
 * from its minimum bet (as the station offers chips: station-play.ts `chipValues`), then on in the
 * same steps, up to what the home table holds, and that whole credit last (it need not be a
 * multiple of a chip). Nothing under the table's minimum: a move the player could not bet here.
 */
export function moveAmounts(tableMin: number, homeCredit: number): number[] {
  if (tableMin <= 0 || homeCredit < tableMin) return [];
  const out: number[] = [];
  for (let decade = 1; out.length < 64; decade *= 10) {
    for (const k of [1, 2, 5]) {
      const v = k * decade * tableMin;
      if (!Number.isSafeInteger(v) || v > homeCredit) {
        if (out.at(-1) !== homeCredit) out.push(homeCredit);
        return out;
      }
      out.push(v);
    }
  }
  return out;
}

/** The amount first offered: the largest step up to five minimum bets (what one press moved before issue 54). */
export function defaultMove(amounts: readonly number[], tableMin: number): number {
  const wanted = MINIMUMS_PER_MOVE * tableMin;
  return amounts.filter((a) => a <= wanted).at(-1) ?? 0;
}

/** The step `by` places from `amount` (the nearest step when `amount` is not one: home's credit changed). */
export function stepMove(amounts: readonly number[], amount: number, by: -1 | 1): number {
  if (amounts.length === 0) return 0;
  let i = amounts.findIndex((a) => a >= amount);
  if (i < 0) i = amounts.length - 1;
  else if (amounts[i] !== amount && by > 0) i -= 1;
  return amounts[Math.max(0, Math.min(amounts.length - 1, i + by))] ?? 0;
}

/**
 * The station's transfers as the tables it follows show them, each once, newest first: every
 * host lists the transfers it sent or took, so one transfer comes from both its ends; the
 * sender's word on it is kept (it knows whether it was credited, recalled or returned), and the
 * time is the sender's debit, else the receiver's credit.
 */
export function mergeTransfers(shown: readonly (StationTransfers | undefined)[]): StationTransfer[] {
  const byId = new Map<string, { t: StationTransfer; bySender: boolean }>();
  for (const list of shown) {
    if (!list) continue;
    for (const t of list.transfers) {
      const key = `${t.id.origin} ${t.id.serial}`;
      const bySender = list.table === t.from;
      const seen = byId.get(key);
      if (!seen) byId.set(key, { t, bySender });
      else if (bySender && !seen.bySender) byId.set(key, { t: { ...t, ...((t.at ?? seen.t.at) ? { at: t.at ?? seen.t.at } : {}) }, bySender });
      else if (!seen.t.at && t.at) byId.set(key, { ...seen, t: { ...seen.t, at: t.at } });
    }
  }
  return [...byId.values()].map((v) => v.t).sort((a, b) => (b.at ?? '').localeCompare(a.at ?? '') || b.id.serial - a.id.serial);
}
