import type { Logger } from 'pino';
import { tableGame } from '../../engine/games.js';
import { limitBreaks } from '../../engine/table/limits.js';
import type { TableParams } from '../../engine/table/state.js';
import { digestsOfReference, type Ledger } from '../../ledger/index.js';
import { liveOpenSaid, ruleRecordOf } from '../config/authorisation.js';
import type { RuleSwitch } from '../config/config-changes.js';
import { limitSaid, said, type Said } from '../config/refusal-words.js';
import { tableOptions, unknownBetTypes, type TableConfig } from '../config/table-config.js';
import type { GroupCommit } from './command-batch.js';
import { openTable } from './start-table.js';
import type { SwitchingTable } from './switching-table.js';
import { openTableGame } from './table-game.js';
import type { Timers } from './timers.js';
import { macauDay } from '../config/macau-time.js';

export interface GameSwitchDeps {
  ledger: Ledger;
  log: Logger;
  timers: Timers;
  table: SwitchingTable;
  /** The table's parameters under the running configuration (which the switch has changed by then). */
  params: () => TableParams;
  /** The program running, as its `power.reset` names it (recover.ts). */
  program?: string;
  groupCommit?: GroupCommit;
}

/**
 * A rule set switched between shoes (issue 49 item 6): the game of the table's new profile or
 * options, built exactly as a start builds it (the journal folded under the new game's identity,
 * which the running table has never opened under, so only the credits carry over; then opened
 * under it), so that a kill at any step comes back to the same table: before the change is
 * journalled the old game, after it the new one (the start applies the journalled rule set,
 * `restoreRestartChanges`). Only between rounds (no round open, no chips on the spots, no hold,
 * not halted), on a shoe of the same decks, under the rule set's authorisation as a start
 * requires it, with its limits and bets; a table playing a progressive jackpot keeps its pools in
 * its game, so it does not switch (a start is needed to carry them). Open winning streaks do not
 * stop it: opened afresh, the table returns their held stakes to the stations' credits, journalled
 * before it plays (start-table.ts `returnHeldStakes`), as a restart under other rules does. A
 * refusal would wait on streaks a busy table may always have open, holding the switch off for good.
 */
export function gameSwitch(d: GameSwitchDeps): RuleSwitch {
  return {
    refusal(next) {
      const running = d.table;
      if (!running.reads.betweenRounds() || d.ledger.rounds.open().length > 0) return { say: said('waitRound'), wait: true };
      if (running.state.faults.halted) return { say: said('waitHalted', { why: running.state.faults.halted }), wait: true };
      const never = permanentRefusal(d, next);
      return never ? { say: never, wait: false } : null;
    },
    switchTo(next) {
      const faults = d.table.state.faults;
      d.table.switchTo(() => {
        const opened = openTableGame(next, (g) =>
          openTable(g, {
            ledger: d.ledger,
            log: d.log,
            timers: d.timers,
            params: d.params(),
            ...(d.program !== undefined ? { program: d.program } : {}),
            ...(d.groupCommit ? { groupCommit: d.groupCommit } : {}),
          }),
        );
        try {
          opened.resume({ newShoe: false, params: d.params(), switched: true });
          // The faults in force stay in force (the new game's fold starts without them, as a start's does).
          if (faults.newBetsStopped !== null || faults.disabled.length > 0 || (faults.jackpotStopped ?? null) !== null) opened.table.setFaults(faults);
        } catch (err) {
          // Half opened, it listens to the ledger already: stopped, or it would hear every write as its table's.
          opened.table.stop();
          d.log.error(
            { err, game: next.game, profile: next.profile },
            'rule set switch: the new game could not be opened; the table takes nothing until it is started again',
          );
          throw err;
        }
        return opened.table;
      });
      d.log.info({ game: next.game, profile: d.table.game.profile }, 'rule set switched at the shoe change: the game rebuilt');
    },
  };
}

/** Why the table as it runs can never play `next` (null: it can): its jackpot, its shoe, its limits, its authorisation. */
function permanentRefusal(d: Pick<GameSwitchDeps, 'table' | 'ledger'>, next: TableConfig): Said | null {
  const running = d.table;
  if (running.reads.progressive() !== null) return said('progressive');
  const game = tableGame(next.game, next.profile, tableOptions(next));
  const named = { game: next.game, profile: next.profile };
  if (game.decks !== running.game.decks) return said('decks', { ...named, decks: game.decks, held: running.game.decks });
  const unknown = unknownBetTypes(next, game.rules.bets);
  if (unknown.length > 0) return said('switchUnknownBets', { ...named, bets: unknown.join(', ') });
  const broken = limitBreaks(game.rules.limitRules, next)[0];
  if (broken) return limitSaid(broken, named, next.currency);
  const record = ruleRecordOf(next);
  return liveOpenSaid(record, record.reference ? digestsOfReference(d.ledger, record.reference) : [], macauDay(Date.now()));
}
