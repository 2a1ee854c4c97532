import type { Ledger } from '../../ledger/index.js';
import { verifyLedger } from '../../ledger/index.js';
import { notesConserved, stackedCredited } from '../fake-acceptor/note-invariants.js';
import { readDeviceTruth } from './device-record.js';
import { deviceFile } from './table-host.js';

/** What the journal says so far, read incrementally: a campaign's ledger only grows. */
export class JournalTally {
  private seen = 0;
  /** Journalled credits by transaction id (a repeated report must not be a second entry). */
  readonly credits = new Map<string, number>();
  /** Settlements and voids by round id. */
  readonly closings = new Map<string, number>();
  rounds = 0;

  update(ledger: Ledger): void {
    const head = ledger.headOf().seq;
    for (let s = this.seen + 1; s <= head; s++) {
      const e = ledger.entry(s);
      if (!e) throw new Error(`journal entry ${s} is missing below the head ${head}`);
      if (e.type === 'bill.credit') {
        const k = e.txId ?? `(no txId at ${e.seq})`;
        this.credits.set(k, (this.credits.get(k) ?? 0) + 1);
      }
      if ((e.type === 'round.settle' || e.type === 'round.void') && e.roundId) {
        this.closings.set(e.roundId, (this.closings.get(e.roundId) ?? 0) + 1);
        this.rounds++;
      }
    }
    this.seen = head;
  }
}

export interface TrialCheck {
  /** Stacked notes never credited. */
  lost: number;
  /** Credits past the first for one note, and credits with no stacked note. */
  duplicated: number;
  /** The ledger did not verify (at start, or from its first entry when asked). */
  ledgerFailure: boolean;
  violations: string[];
  stacked: number;
  stackedAmount: number;
}

/**
 * The invariants after a restart that recovered from a kill, against what outlived the kill (the
 * acceptors' record files): every stacked note credited exactly once and no credit without one;
 * money conserved to the minor unit (meters + open rounds − house = the notes in the stackers); no
 * round settled or voided twice; the ledger verifies (from its checkpoint at every start, and from
 * its first entry when `full`).
 */
export function checkAfterRestart(o: {
  ledger: Ledger;
  dir: string;
  stations: readonly number[];
  tally: JournalTally;
  verifiedAtStart: boolean;
  problems: readonly string[];
  full: boolean;
}): TrialCheck {
  const { ledger, tally } = o;
  const violations: string[] = [];
  tally.update(ledger);
  let ledgerFailure = false;
  if (!o.verifiedAtStart) {
    ledgerFailure = true;
    violations.push(`the ledger did not verify at start: ${o.problems.join('; ')}`);
  }
  if (o.full) {
    const v = verifyLedger(ledger);
    if (!v.ok) {
      ledgerFailure = true;
      violations.push(`the ledger does not verify from its first entry: ${v.problems.slice(0, 3).join('; ')}`);
    }
  }
  const truths = o.stations.map((station) => readDeviceTruth(deviceFile(o.dir, station), `BA-${station}`));
  const { lost, duplicated, stacked, stackedAmount } = stackedCredited(truths, tally.credits, violations);
  for (const [round, n] of tally.closings) if (n > 1) violations.push(`round ${round} settled or voided ${n} times`);
  notesConserved(ledger, o.stations, stackedAmount, violations);
  return { lost, duplicated, ledgerFailure, violations, stacked, stackedAmount };
}
