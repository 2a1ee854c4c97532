import type { Logger } from 'pino';
import type { GameDefinition } from '../../engine/table/game.js';
import type { TableParams } from '../../engine/table/state.js';
import { heldStakes, type Ledger } from '../../ledger/index.js';
import { recoverTable, voidStrayRounds, type RecoveryReport } from './recover.js';
import { TableRuntime, type LiveTable } from './runtime.js';
import type { GroupCommit } from './command-batch.js';
import type { Timers } from './timers.js';

export interface OpenedTable {
  table: LiveTable;
  report: RecoveryReport;
  /** The highest shoe sequence number journalled for the shoe in play (the driver drops re-reports up to it). */
  lastSequence: number | undefined;
  /**
   * Puts the recovered table in play: opens it if the journal had it under no (or another) game,
   * carries a changed configuration file over as a `configure`, and starts the countdown of the
   * step the kill interrupted (`resume`). `newShoe`: the shoe is a new device and must be loaded first.
   * `params`: the table's parameters as they are now, with the journalled configuration changes
   * applied again over the file (so asked for after they are, never the file's alone).
   * `switched`: not a start but a rule set switched between shoes (game-switch.ts): the game is
   * opened under its new identity and nothing is resumed (no countdown was interrupted).
   */
  resume(options: { newShoe: boolean; params: TableParams; switched?: boolean }): void;
}

/**
 * The table opens afresh (another game, profile or rule options, whose identity its journal never
 * opened under; or a journal it could not fold): the old game's state, and every winning streak in
 * it, is gone, so the stakes the ledger still holds for them (`held:<n>`, Macau 2009 Art. 13 5))
 * go back to each station's credit, journalled (`held.return`) before the table opens and plays.
 * Returned rather than carried into the new game: it may play no streak, and a stake held for a
 * streak no game will settle would stay held for ever. Every such account is emptied, whatever
 * station it is, so none is stranded by a station removed from the configuration either.
 */
function returnHeldStakes(ledger: Ledger, tableId: string, log: Logger): void {
  for (const [held, amount] of Object.entries(heldStakes(ledger))) {
    const station = Number(held);
    const reason = 'the table opened under another game or rule set: the winning streak ends and its held stakes are returned';
    const txId = `${tableId}:held-return:${station}:${ledger.headOf().seq + 1}`;
    ledger.append({ type: 'held.return', txId, payload: { tableId, station, amount, reason } });
    log.warn({ station, amount }, 'held streak stakes returned: the table opened afresh');
  }
}

/**
 * The table of one game, rebuilt from the journal: the runtime over the folded state, listening
 * to the ledger; rounds the ledger holds open that the table will not go on with are voided by
 * the recovery rules (every bet returned).
 */
export function openTable<S, R>(
  game: GameDefinition<S, R>,
  deps: {
    ledger: Ledger;
    log: Logger;
    timers: Timers;
    params: TableParams;
    /** The program running, as its `power.reset` names it: an earlier build's journal is read by its facts (recover.ts). */
    program?: string;
    /** Station commands share durable commits within this window (absent: each is committed as it comes). */
    groupCommit?: GroupCommit;
  },
): OpenedTable {
  const { ledger, log, timers, params, program } = deps;
  const recovered = recoverTable({ ledger, game, params, log, ...(program !== undefined ? { program } : {}) });
  const runtime = new TableRuntime({ game, ledger, log, timers, ...(deps.groupCommit ? { groupCommit: deps.groupCommit } : {}) }, recovered.state);
  const report = recovered.report;
  const sequences = recovered.state.sequences;
  return {
    table: runtime,
    report,
    // The last journalled, not the greatest: a shoe's numbers start again at 1 after 65535 (start-table.test.ts).
    lastSequence: sequences.at(-1),
    resume({ newShoe, params: now, switched }) {
      if (!report.ledgerVerified) return runtime.start();
      const reason =
        recovered.foldProblems.length > 0
          ? `the journal does not fold through this version: ${recovered.foldProblems[0] ?? ''}`.slice(0, 2000)
          : recovered.opened
            ? 'interrupted round that the table does not go on with'
            : 'interrupted round of a table opened anew';
      voidStrayRounds({ ledger, table: runtime, log, report, reason });
      const at = timers.now();
      // A seating the last file gave for after the round in play is this file's to confirm or replace (engine/table/seat-change.ts).
      if (!recovered.opened) {
        returnHeldStakes(ledger, now.tableId, log);
        runtime.input({ kind: 'open', at, params: now, game: game.identity });
      } else if (JSON.stringify(runtime.state.params) !== JSON.stringify(now) || runtime.state.seatsNext !== undefined) runtime.configure(now);
      if (!switched) runtime.input({ kind: 'resume', at, newShoe: newShoe || report.voided.length > 0 });
      if (report.tableHold) log.warn({ hold: report.tableHold }, 'the table was on hold between rounds: held again until resolved');
      if (report.resumedRound)
        log.warn({ roundId: report.resumedRound, cards: runtime.state.cards.length, decisions: runtime.state.decisions.length }, 'interrupted round resumed');
      // Verified, folded, and everything since journalled by the runtime or heard by it: its state
      // is the journal's fold, and may go into checkpoints.
      runtime.checkpoints.standsAtHead();
      // The next start begins here: verification after this entry, the fold from this state.
      report.checkpointed = runtime.checkpoints.now();
      runtime.start();
    },
  };
}
