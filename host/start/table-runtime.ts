import type { TableParams } from '../../engine/table/state.js';
import { limitProblems } from '../../engine/table/limits.js';
import { digestsOfReference } from '../../ledger/index.js';
import { liveOpenRefusal, recordPayload, ruleRecordOf } from '../config/authorisation.js';
import { restoreRestartChanges, type RuleSwitch } from '../config/config-changes.js';
import { unbelievedSasLines, unknownBetTypes } from '../config/table-config.js';
import { tableParams } from '../config/table-params.js';
import { BillAcceptors } from '../devices/bill-acceptors.js';
import { Printers } from '../devices/printers.js';
import { TicketIn } from '../devices/ticket-in.js';
import { sasTicketAuthority, ticketAuthority } from '../tickets/wiring.js';
import type { SasAuthority } from '../tickets/sas-authority.js';
import type { TicketAuthority } from '../tickets/authority.js';
import type { CreditRule } from '../devices/credit-rule/credit-rule.js';
import { tableCreditRule } from '../devices/credit-rule/table-credit-rule.js';
import { CreditLimitNotes } from '../devices/credit-rule/credit-limit.js';
import { GROUP_COMMIT } from '../table/command-batch.js';
import type { RecoveryReport } from '../table/recover.js';
import { gameSwitch } from '../table/game-switch.js';
import { SwitchingTable } from '../table/switching-table.js';
import { openTable, type OpenedTable } from '../table/start-table.js';
import { openTableGame } from '../table/table-game.js';
import { realTimers, type Timers } from '../table/timers.js';
import { TiltManager } from '../tilts/tilt-manager.js';
import { onBillAcceptorEvent } from '../tilts/tilt-sources.js';
import type { HostOptions } from './host-options.js';
import type { Opened } from './opened.js';
import type { StartStops } from './stops.js';
import { SampledLog } from '../logging/sampled-log.js';
import { macauDay } from '../config/macau-time.js';

/** The table rebuilt from its journal, and what it needs before any device opens. */
export interface TableRuntime {
  tilts: TiltManager;
  /** One credit rule for every acceptor, seated or remote. */
  credits: CreditRule;
  /** The seated stations' acceptors, made but not started. */
  billAcceptors: BillAcceptors;
  /** The stations' ticket printers, made but not started. */
  printers: Printers;
  /** Tickets in at the stations' acceptors. */
  ticketsIn: TicketIn;
  /** The notes each station's acceptor returned at its credit limit, for its screen. */
  limitNotes: CreditLimitNotes;
  /** The validation authority (the upstream's or the casino system's, guarded), or null without one. */
  authority: TicketAuthority | null;
  /** The casino system's side of it (`tickets.authority: sas`), which the stations' SAS links answer from. */
  sasTickets: SasAuthority | null;
  timers: Timers;
  /** The table's parameters now: the configuration with its journalled changes (and a test's timings). */
  paramsNow: () => TableParams;
  game: OpenedTable;
  /** The table: the running game's runtime, which a rule set switched between shoes replaces (`ruleSwitch`). */
  table: SwitchingTable;
  /** The game rebuilt under a new rule set at a shoe change (issue 49 item 6). */
  ruleSwitch: RuleSwitch;
  recovery: RecoveryReport;
}

/**
 * Faults restored, the credit rule and the seated acceptors made, then the table recovered from
 * its journal (before any device opens) and its configuration checked against its game. The
 * faults and the table are in `stops` as each is made: a check that refuses after the table is
 * rebuilt (a bet limited that the game does not have, limits that break its rules, the rule set's
 * entry refused by the ledger) leaves no runtime listening to the ledger or holding its
 * checkpoints (tests/host/start-table-runtime-failure.test.ts).
 */
export function openTableRuntime(
  options: HostOptions,
  { config, ledger, log, manifest, floorClock }: Pick<Opened, 'config' | 'ledger' | 'log' | 'manifest'> & Partial<Pick<Opened, 'floorClock'>>,
  stops: StartStops,
): TableRuntime {
  // Faults outlive a restart: the journal's open ones are current again before any device speaks.
  const tilts = new TiltManager({ ledger, log });
  stops.add('faults', 'the faults', () => tilts.close());
  tilts.restore();
  // One credit rule for every acceptor, seated or remote: the host decides each credit.
  const limitNotes = new CreditLimitNotes();
  const credits = tableCreditRule({
    config,
    ledger,
    log,
    fault: (station, say) => tilts.raise('bill-cheat', { station, say }),
    atCreditLimit: (station) => limitNotes.returned(station),
  });
  const bySas = config.tickets.authority === 'sas' ? sasTicketAuthority(ledger, log, config.tickets.machineId, unbelievedSasLines(config)) : null;
  const authority = bySas ? bySas.authority : ticketAuthority(options, config, ledger, log, floorClock);
  const ticketsIn = new TicketIn({ config, ledger, log, authority, faults: tilts });
  const billAcceptors = new BillAcceptors({
    config,
    ledger,
    log,
    credits,
    tickets: ticketsIn,
    onEvent: (station, e) => onBillAcceptorEvent(tilts, station, e),
  });
  const printers = new Printers({ config, log, faults: tilts, sampledLog: new SampledLog(log) });
  const timers = options.timers ?? realTimers;
  // Test only: round timers shorter than the configuration's minimums (which are for people).
  const paramsNow = () => ({ ...tableParams(config), ...(options.timings ? { timings: { ...options.timings } } : {}) });
  // The rule profile and options changed in service mode or from the back office take effect at a start: the game is built under them.
  const restarted = restoreRestartChanges(ledger, config, log);
  if (restarted > 0) log.info({ restarted }, 'journalled rule options in effect');
  // The authorisation on record (issue 51): a live table opens only under a reference for its whole
  // rule set; a demonstration table (every device simulated) opens without one and says so.
  const rules = ruleRecordOf(config);
  const refused = liveOpenRefusal(rules, rules.reference ? digestsOfReference(ledger, rules.reference) : [], macauDay(Date.now()));
  if (refused) throw new Error(refused);
  if (rules.demonstration) log.warn({ digest: rules.digest, reference: rules.reference }, 'a demonstration table: every device simulated, no live play');
  else log.info({ digest: rules.digest, reference: rules.reference, effective: rules.effective }, 'rule set and its authorisation on record');
  const params = paramsNow();
  // Recovery before any device opens: the ledger verified, the table folded from its journal.
  const groupCommit = options.groupCommit === undefined ? GROUP_COMMIT : options.groupCommit;
  const game = openTableGame(config, (g) => openTable(g, { ledger, log, timers, params, program: manifest.hash, ...(groupCommit ? { groupCommit } : {}) }));
  const table = new SwitchingTable(game.table);
  stops.add('rounds', 'the table', () => table.stop());
  const recovery = game.report;
  const ruleSwitch = gameSwitch({ ledger, log, timers, table, params: paramsNow, program: manifest.hash, ...(groupCommit ? { groupCommit } : {}) });
  const unknownBets = unknownBetTypes(config, table.game.rules.bets);
  if (unknownBets.length > 0)
    throw new Error(
      `the table configuration limits bets this ${config.game} table does not have: ${unknownBets.join(', ')} (bets: ${table.game.rules.bets.join(', ')})`,
    );
  const broken = limitProblems(table.game.rules.limitRules, config);
  if (broken.length > 0) throw new Error(`the table configuration breaks the rules of ${config.game} ${config.profile}: ${broken.join('; ')}`);
  if (!recovery.ledgerVerified) tilts.raise('ledger-integrity', { detail: recovery.problems.slice(0, 5).join('; ') });
  // Journalled only on a journal that verified: an entry appended before the check would extend a
  // tampered chain, and a witness would see it as the rewrite of an entry it signed.
  else ledger.append({ type: 'rules.record', payload: recordPayload(rules, 'open') });
  return {
    tilts,
    credits,
    billAcceptors,
    printers,
    ticketsIn,
    limitNotes,
    authority,
    sasTickets: bySas?.sas ?? null,
    timers,
    paramsNow,
    game,
    table,
    ruleSwitch,
    recovery,
  };
}
