import type { Card, CardCode } from '../../engine/cards/card.js';
import type { CorrectionRule, CoupSummary, GameDefinition, Outcome, ProgressiveView } from '../../engine/table/game.js';
import type { TableInput } from '../../engine/table/inputs.js';
import type { DealerCue } from '../../engine/table/queries.js';
import type { FaultGates, HeldRead, TableParams, TableState, TimerKind } from '../../engine/table/state.js';
import type { TableExtras } from '../../engine/games.js';
import type { RoundViewData, StadiumView, StationBettingView, StationInputs, StationTableView } from '../../engine/table/views.js';
import type { Correction, DecisionAction, HoldReason, Spot, Uncorrectable } from '../../engine/table/vocabulary.js';
import type { NewEntry } from '../../ledger/index.js';

import type { StationCommand } from './station-command.js';

export type { StationCommand } from './station-command.js';

/** The hold in force, with the reads that left the shoe since it began (service mode, tests). */
export interface HoldState {
  reason: HoldReason;
  shoeSequence: number | null;
  readsDuringHold: HeldRead[];
  /** The card that caused it, when one was read. */
  card: string | null;
  /** The corrections the game's text has for it, each with its article (or the article that forbids it). */
  corrections: CorrectionRule[];
}

/** What the host reads of the game a table plays: its facts, none of its rules' functions. */
export type GameFacts = Pick<GameDefinition<unknown, unknown>, 'kind' | 'profile' | 'decks' | 'rules' | 'presentation'>;

/** What the shoe (its driver, the simulator) tells the table. */
export interface ShoeFeed {
  /** `burnt`: the shoe says the dealer burnt the card (its burn mode); the table holds if it waits for another card. */
  onCard(card: Card, sequence?: number, burnt?: boolean): void;
  onAnomaly(reason: 'unreadable' | 'wrong-deck', card: string | null, sequence?: number): void;
  onCutCard(sequence?: number): void;
  /**
   * A new shoe: the device's report of its loading, or a supervisor's declaration, which carries
   * its `service.action` record as `also` (journalled in the step's transaction, as
   * SupervisorCommands'): refused by the journal, the declaration is refused, the table as it was.
   */
  onNewShoe(sequence?: number, also?: readonly NewEntry[]): Outcome;
}

/**
 * What two people at the table (a supervisor and a witness) may do to a round: service mode's hold
 * and void screens. Each takes `also`, the entries that record the act beside the table's own (service
 * mode's `service.action`: who authorised what), journalled in the step's transaction after its
 * entries: the step and its record are written together or not at all. Refused by the journal, the
 * act is refused (`act.why` `not-journalled`) and the table is as it was, not held.
 */
export interface SupervisorCommands {
  enterCard(card: Card, supervisor: string, witness: string, also?: readonly NewEntry[]): Outcome;
  /** The last resort: every bet of the round returned; `uncorrectable` says why no correction was possible. */
  voidRound(reason: string, authorisedBy: string[], uncorrectable?: Uncorrectable, also?: readonly NewEntry[]): Outcome;
  /** A supervisor stops the round for a dealing error seen at the table. */
  reportDealingError(by: string, also?: readonly NewEntry[]): Outcome;
  /** Two people correct the dealing error the table holds for, as its text orders. */
  correct(correction: Correction, supervisor: string, witness: string, also?: readonly NewEntry[]): Outcome;
}

/**
 * A station's commands by name, committed at once (the test kit's, the simulators'); a screen's
 * go through `submit` and the group commit. Both map a command to its input in one place (station-command.ts).
 */
export interface NamedCommands {
  placeBet(station: number, spot: Spot, amount: number): Outcome;
  clearBets(station: number): Outcome;
  decide(station: number, action: DecisionAction, amount?: number): Outcome;
}

/** What the screens, the service pages and the devices read of the table: projections of its state, nothing changed. */
export interface TableReads {
  view(): RoundViewData;
  tableExtras(seats: number): TableExtras;
  /** The current shoe's coups (what its roads are laid out from: the station screens lay them out themselves), or undefined for a game without roads. */
  coups(): readonly CoupSummary[] | undefined;
  station(station: number): StationTableView;
  /** The betting part `station` has for a station with nothing on the table (host/screens/station-reads.ts `isIdle`), without projecting the rest: the same object. */
  idleBetting(station: number): StationBettingView;
  /** Each station's own inputs, grouped once per state (the view hub compares them per station). */
  stationInputs(): StationInputs;
  /** The remote stations' totals per spot, for the table display (null: no remote stations). */
  stadium(): StadiumView | null;
  /** The progressive jackpot's pools (Portugal rules 38–50), null where the table plays none. */
  progressive(): ProgressiveView | null;
  cue(): DealerCue | null;
  expectsCard(): boolean;
  hasBets(station: number): boolean;
  betweenRounds(): boolean;
  holdState(): HoldState | null;
  /** Simulated mode after a restart mid-round: the cards the engine's shoe still holds, or null. */
  cardsLeftInOldShoe(): CardCode[] | null;
}

/** Simulated mode's hold on the running countdown (tests, demos). */
export interface Countdowns {
  /**
   * The countdown running now ends at once, as if its time were up (a dealer's "no more bets").
   * Only a countdown of the kind named, so a call that arrives late never ends the next one.
   * False when no such countdown runs.
   */
  end(kind: TimerKind): boolean;
  /**
   * The running countdown of this kind does not end by itself (its timer is not kept; nothing is
   * journalled, and the screens still count down) until `end`. So a test on a slow machine is
   * never overtaken by a window it is still looking at.
   */
  freeze(kind: TimerKind): boolean;
}

/**
 * The table as the rest of the host sees it: inputs in, state and projections out. No game
 * rule lives behind it; every one is in the engine's state machine (engine/table/step.ts). The
 * shoe's feed, the supervisors' commands, the named commands and the countdowns are objects of
 * their own it hands out (issue 53: no hub of 45 members).
 */
export interface LiveTable {
  readonly state: TableState<unknown, unknown>;
  readonly game: GameFacts;
  readonly shoe: ShoeFeed;
  readonly supervisor: SupervisorCommands;
  readonly commands: NamedCommands;
  readonly countdowns: Countdowns;
  /** The projections: the round, the stations, the table display, the dealer's cue, the hold (table-reads.ts). */
  readonly reads: TableReads;
  /**
   * Feeds one input; the outcome says whether it was taken (a command may be refused). `also`: a
   * person's record of the act, journalled in the step's own transaction (SupervisorCommands).
   */
  input(input: TableInput, also?: readonly NewEntry[]): Outcome;
  /**
   * A station's command, committed with the others arriving within the group-commit window in
   * one durable transaction (group commit); settles once that commit returned, never before.
   * Without group commit (or once stopped) it is committed now and its outcome returned at once.
   */
  submit(command: StationCommand): Outcome | Promise<Outcome>;
  setFaults(gates: FaultGates): void;
  configure(params: TableParams): void;
  onChange(listener: () => void): () => void;
  stop(): void;
}
