/**
 * The sums a Monte Carlo keeps per bet (of net/stake and of its square), shared by the baccarat
 * and «Desafio ao Casino» simulators: sums rather than means, so runs on several threads merge
 * by addition, and the house edge with its standard error computed once at the end.
 */

export interface NetSums {
  sum: number;
  sumSq: number;
}

export type BetSums<K extends string> = Record<K, NetSums>;

export interface EdgeEstimate {
  /** Percent of the stake, positive = house advantage. */
  readonly houseEdge: number;
  /** Standard error of that mean, in percent. */
  readonly standardError: number;
}

export function emptySums<K extends string>(bets: readonly K[]): BetSums<K> {
  const out = {} as BetSums<K>;
  for (const b of bets) out[b] = { sum: 0, sumSq: 0 };
  return out;
}

/** Adds one coup's result of a bet, `x` = net / stake. */
export function addNet(acc: NetSums, x: number): void {
  acc.sum += x;
  acc.sumSq += x * x;
}

export function mergeSums<K extends string>(bets: readonly K[], a: BetSums<K>, b: BetSums<K>): BetSums<K> {
  const out = emptySums(bets);
  for (const k of bets) out[k] = { sum: a[k].sum + b[k].sum, sumSq: a[k].sumSq + b[k].sumSq };
  return out;
}

export function edges<K extends string>(bets: readonly K[], sums: BetSums<K>, n: number): Record<K, EdgeEstimate> {
  const out = {} as Record<K, EdgeEstimate>;
  for (const b of bets) {
    const mean = sums[b].sum / n;
    const variance = Math.max(0, sums[b].sumSq / n - mean * mean);
    out[b] = { houseEdge: -100 * mean, standardError: (100 * Math.sqrt(variance)) / Math.sqrt(n) };
  }
  return out;
}
