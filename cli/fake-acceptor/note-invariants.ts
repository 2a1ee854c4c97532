import type { Ledger } from '../../ledger/index.js';
import type { AcceptorTruth } from './fake-acceptor.js';

// The notes' invariants of both fault campaigns (cli/sim-faults/, cli/kill-trials/), from what
// outlived the host (the fake acceptors' truth) against its journal.

/** What the stackers hold, and the credits lost or doubled against them. */
export interface StackedCredited {
  stacked: number;
  stackedAmount: number;
  lost: number;
  duplicated: number;
}

/**
 * Every note in a stacker credited exactly once, and no credit without a stacked note. `credits`:
 * the journal's `bill.credit` entries counted by transaction id (`<device>:<escrow id>:credit`).
 */
export function stackedCredited(truths: Iterable<AcceptorTruth>, credits: ReadonlyMap<string, number>, violations: string[]): StackedCredited {
  const r: StackedCredited = { stacked: 0, stackedAmount: 0, lost: 0, duplicated: 0 };
  const expected = new Set<string>();
  for (const t of truths) {
    for (const [id, n] of t.notes) {
      if (n.where !== 'stacker') continue;
      r.stacked++;
      r.stackedAmount += n.amount;
      const k = `${t.device}:${id}:credit`;
      expected.add(k);
      const c = credits.get(k) ?? 0;
      if (c === 0) {
        r.lost++;
        violations.push(`note ${id} of ${t.device} is in the stacker and was never credited`);
      } else if (c > 1) {
        r.duplicated += c - 1;
        violations.push(`note ${id} of ${t.device} was credited ${c} times`);
      }
    }
  }
  for (const k of credits.keys())
    if (!expected.has(k)) {
      r.duplicated++;
      violations.push(`a credit with no stacked note: ${k}`);
    }
  return r;
}

/** Money conserved to the minor unit: what the stacked notes brought is on the meters, in open rounds, or the house's. */
export function notesConserved(ledger: Ledger, stations: readonly number[], stackedAmount: number, violations: string[]): void {
  const onMeters = stations.reduce((sum, s) => sum + ledger.credit(s), 0);
  const open = ledger.rounds
    .open()
    .flatMap((r) => r.stations)
    .reduce((sum, x) => sum + x.amount, 0);
  const house = ledger.balance('house');
  if (onMeters + open - house !== stackedAmount)
    violations.push(`money not conserved: meters ${onMeters} + open ${open} − house ${house} ≠ notes stacked ${stackedAmount}`);
}
