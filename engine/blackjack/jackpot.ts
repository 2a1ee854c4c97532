import type { Card } from '../cards/card.js';

/**
 * Portugal's progressive jackpot (rules 38–50) as a side-bet contract. The combinations and
 * awards are the concessionaire's, approved by the inspectorate (rule 43), so the pay table is
 * pluggable: it names the best winning combination among a hand's first 2–4 cards (rule 42).
 */
export interface JackpotAward {
  /** Name of the combination, for the record. */
  readonly combination: string;
  /** Higher ranks are better; the highest rank of the table is the top award (rule 50). */
  readonly rank: number;
  /** A fixed amount in minor units, or `pool`: the (remaining) jackpot itself. */
  readonly pays: { readonly fixed: number } | 'pool';
}

export interface JackpotPayTable {
  /** The best award for these cards (first 2–4 cards of one hand), if any. */
  evaluate(cards: readonly Card[]): JackpotAward | undefined;
}

export interface JackpotEntry {
  readonly seat: number;
  readonly hand: number;
  readonly stake: number;
  readonly cards: readonly Card[];
}

export interface JackpotResult {
  readonly seat: number;
  readonly hand: number;
  readonly stake: number;
  readonly award: number;
  readonly combination?: string;
}

/**
 * Settles every jackpot bet of a round (rule 50): awards are paid from the smallest to the
 * largest; what remains of the pool goes to the holders of the top combination, split equally
 * (the indivisible remainder minor units stay in the pool). Each hand counts on its own, split
 * hands included (rule 42); one chip per player per hand (rule 47). Awards are paid whatever the
 * main result (rule 43); the chip itself always goes to the pool (rules 41, 48).
 */
export function settleJackpot(entries: readonly JackpotEntry[], table: JackpotPayTable, pool: number): { results: JackpotResult[]; poolAfter: number } {
  const evaluated = entries.map((e) => ({ e, award: table.evaluate(e.cards) }));
  const winners = evaluated.filter((x) => x.award !== undefined) as { e: JackpotEntry; award: JackpotAward }[];
  const awards = new Map<JackpotEntry, number>();
  let remaining = pool;
  const fixed = winners.filter((w) => w.award.pays !== 'pool').sort((a, b) => a.award.rank - b.award.rank);
  for (const w of fixed) {
    const amount = Math.min(remaining, (w.award.pays as { fixed: number }).fixed);
    awards.set(w.e, amount);
    remaining -= amount;
  }
  const top = winners.filter((w) => w.award.pays === 'pool');
  if (top.length > 0) {
    const share = Math.floor(remaining / top.length);
    for (const w of top) awards.set(w.e, share);
    remaining -= share * top.length;
  }
  const results = evaluated.map(({ e, award }) => ({
    seat: e.seat,
    hand: e.hand,
    stake: e.stake,
    award: awards.get(e) ?? 0,
    ...(award ? { combination: award.combination } : {}),
  }));
  return { results, poolAfter: remaining };
}
