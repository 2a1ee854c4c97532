// What a soak prints: its account of the money as one JSON line (`--json`) or as rows, with any
// mismatch named; and its verdict (exit 0 only when the money is conserved, the ledger verifies,
// the log kept under its cap and, with `--jackpot`, the jackpot's chips were played and conserved).
import type { SoakAccount } from './account.js';
import type { SoakPlan } from './plan.js';
import { ticketSummary } from './ticket-account.js';

/** What the soak measured beside the account. */
export interface SoakRun {
  readonly restarts: number;
  /** Of the kills, those that landed while a ticket printed (with `--tickets`). */
  readonly killsMidPrint: number;
  readonly hours: number;
  readonly logPeak: number;
  readonly logFiles: number;
  /** With `--tickets`: the alarms the soak's upstream raised, by kind and what (null without it). */
  readonly upstreamAlarms: Record<string, number> | null;
}

export function printSoak(plan: SoakPlan, a: SoakAccount, run: SoakRun): void {
  const out = {
    rounds: a.rounds,
    restarts: run.restarts,
    ...(plan.values.tickets ? { killsMidPrint: run.killsMidPrint } : {}),
    voided: a.voided,
    creditsIn: a.creditsIn,
    creditsOut: a.creditsOut,
    creditsOnMeters: a.creditsOnMeters,
    wagered: a.wagered,
    won: a.won,
    conserved: a.conserved,
    ledgerVerified: a.ledgerVerified,
    roundsPerHour: Math.round(a.rounds / run.hours),
    logCapBytes: plan.logCap,
    logPeakBytes: run.logPeak,
    logFiles: run.logFiles,
    shoeChanges: a.shoeChanges,
    holds: a.holds,
    tickets: {
      printed: a.tickets.printed,
      voided: a.tickets.voided,
      settledByHand: a.tickets.settledByHand,
      inPrint: a.tickets.inPrint,
      redeemed: a.tickets.redeemed,
      returned: a.tickets.returned,
      pendingRedemptions: a.tickets.pendingRedemptions,
    },
    ...(plan.values.jackpot ? { jackpot: a.jackpot } : {}),
    ...(run.upstreamAlarms ? { upstreamAlarms: run.upstreamAlarms } : {}),
  };
  if (plan.values.json) {
    console.log(JSON.stringify(out));
    return;
  }
  for (const [k, x] of Object.entries(out))
    console.log(`${k.padEnd(16)} ${k === 'tickets' ? ticketSummary(a.tickets) : typeof x === 'object' ? JSON.stringify(x) : String(x)}`);
  console.log(`${'inPlay'.padEnd(16)} ${a.inPlay}   houseNet ${a.houseNet}   data ${plan.dataDir}`);
  for (const p of [...a.problems, ...a.tickets.problems]) console.log(`  MISMATCH: ${p}`);
  for (const k of unexpectedAlarms(run)) console.log(`  UPSTREAM ALARM: ${k} (${run.upstreamAlarms?.[k] ?? 0})`);
  if (run.logPeak > plan.logCap) console.log(`  host.log reached ${run.logPeak} bytes, past its cap of ${plan.logCap}`);
}

/** The soak's exit code. */
export function soakVerdict(plan: SoakPlan, a: SoakAccount, run: SoakRun): number {
  const jackpotOk = !plan.values.jackpot || (a.jackpot.conserved && a.jackpot.chips > 0);
  return a.conserved && a.ledgerVerified && run.logPeak <= plan.logCap && jackpotOk && unexpectedAlarms(run).length === 0 ? 0 : 1;
}

/**
 * The upstream's alarms an honest table should never raise. Its players present paid copies on
 * purpose (`ticket-refused`); anything else — a ticket of another issuer, a disagreement, one known
 * only by the table's word — is the table or the register wrong.
 */
export function unexpectedAlarms(run: Pick<SoakRun, 'upstreamAlarms'>): string[] {
  return Object.keys(run.upstreamAlarms ?? {}).filter((k) => k !== 'ticket-refused');
}
