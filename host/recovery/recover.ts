import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { verifyLedger, type Ledger } from '../../ledger/index.js';
import type { TableConfig } from '../config/table-config.js';
import type { LiveGame } from '../table/live-game.js';
import { replayJournal, type Replayed } from './replay-journal.js';

/** Who authorises a void the recovery rules decide (every bet returned, nothing kept). */
export const RECOVERY_AUTHORITY = 'host-recovery';

/** What the start-up recovery found and did; `/healthz` shows it, a tilt can be raised from it. */
export interface RecoveryReport {
  ledgerVerified: boolean;
  /** Verification problems (empty when verified). */
  problems: string[];
  /** The interrupted round that goes on, if any. */
  resumedRound: string | null;
  /** The hold between rounds the table starts on again (its reason), if any. */
  tableHold: string | null;
  /** Rounds voided by the recovery rules (every bet returned), with why. */
  voided: { roundId: string; reason: string }[];
  replayedEntries: number;
  verifyMs: number;
  replayMs: number;
}

export interface Recovered {
  report: RecoveryReport;
  /** Null when the ledger failed verification: nothing was replayed or written, the table holds. */
  replayed: Replayed | null;
}

/**
 * Start-up recovery (issue 7 §6, docs/table-host.md "Recovery"): verify the whole ledger; on
 * failure touch nothing and let the table hold (`hold.ledger`). Otherwise rebuild the shoe and
 * the interrupted round from the journal, and void by the rules the open rounds that cannot go on.
 * Credits need no rebuilding: the ledger's balances are the credit meters.
 */
export function recoverTable(deps: { ledger: Ledger; game: LiveGame; config: TableConfig; log: Logger }): Recovered {
  const { ledger, game, config, log } = deps;
  const t0 = performance.now();
  const verified = verifyLedger(ledger);
  const verifyMs = performance.now() - t0;
  const report: RecoveryReport = {
    ledgerVerified: verified.ok,
    problems: verified.problems,
    resumedRound: null,
    tableHold: null,
    voided: [],
    replayedEntries: 0,
    verifyMs,
    replayMs: 0,
  };
  if (!verified.ok) {
    log.error({ problems: verified.problems.slice(0, 10) }, 'ledger verification failed: the table holds and takes no bets');
    return { report, replayed: null };
  }
  const t1 = performance.now();
  const replayed = replayJournal(ledger, game);
  for (const v of replayed.toVoid) {
    ledger.append({
      type: 'round.void',
      payload: {
        roundId: v.roundId,
        tableId: config.tableId,
        game: game.game,
        profile: game.profile,
        cards: v.cards,
        decisions: v.decisions,
        reason: v.reason,
        authorisedBy: [RECOVERY_AUTHORITY],
      },
      txId: `${v.roundId}:void`,
    });
    report.voided.push({ roundId: v.roundId, reason: v.reason });
    log.warn({ roundId: v.roundId, reason: v.reason }, 'interrupted round voided at start: every bet returned');
  }
  report.resumedRound = replayed.round?.roundId ?? null;
  report.tableHold = replayed.tableHold?.reason ?? null;
  report.replayedEntries = replayed.entries;
  report.replayMs = performance.now() - t1;
  if (replayed.tableHold) log.warn({ hold: replayed.tableHold }, 'the table was on hold between rounds: held again until resolved');
  if (replayed.round) log.warn({ roundId: replayed.round.roundId, cards: replayed.round.cards.length, decisions: replayed.round.decisions.length }, 'interrupted round resumed');
  return { report, replayed };
}
