import type { Logger } from 'pino';
import type { Effect, JournalRecord } from '../../engine/table/effects.js';
import type { GameDefinition, Outcome } from '../../engine/table/game.js';
import { journalledInput, type TableInput } from '../../engine/table/inputs.js';
import type { Countdowns, LiveTable, NamedCommands, ShoeFeed, SupervisorCommands, TableReads } from './live-table.js';
import { commandInput, type StationCommand } from './station-command.js';
import type { FaultGates, TableParams, TableState } from '../../engine/table/state.js';
import { step } from '../../engine/table/step.js';
import { entryCredits, type JournalEntry, type Ledger, type NewEntry } from '../../ledger/index.js';
import { CommandBatch, type GroupCommit } from './command-batch.js';
import { TableReadModel } from './table-reads.js';
import type { Timers } from './timers.js';

export interface TableRuntimeDeps<S, R> {
  game: GameDefinition<S, R>;
  ledger: Ledger;
  log: Logger;
  timers: Timers;
  /** Station commands share durable commits within this window (absent: `submit` commits each at once). */
  groupCommit?: GroupCommit;
}

export type { Countdowns, GameFacts, HoldState, LiveTable, NamedCommands, ShoeFeed, SupervisorCommands, TableReads } from './live-table.js';
export type { StationCommand } from './station-command.js';

/**
 * The acts of people at the table (service mode's two-person acts, a dealing error reported, a
 * jackpot level reset): a write the journal refuses is their answer, refused, and does not hold
 * the table.
 */
const PERSONS_ACTS: ReadonlySet<TableInput['kind']> = new Set(['void', 'correct', 'enter-card', 'dealing-error', 'jackpot-reset']);

/**
 * The shell around the table's state machine. Each input is stepped; what the step journals is
 * written with the input in one ledger transaction before anything else happens; then the
 * countdown and the shoe's gate are set as the step asked, its log lines written, and whoever
 * listens is told. A write the ledger refuses changes nothing but to put the table on hold
 * (itself journalled if the ledger still takes that); a person's act is refused to them instead.
 * A person's act may carry its own record (`also`), written in the step's transaction.
 *
 * The ledger's entries that others write (a note credited, a cash-out) reach the table as
 * `credit` inputs: the state plays against the credit the ledger holds, and a fold of the
 * journal derives the same inputs from the same entries.
 */
export class TableRuntime<S, R> implements LiveTable {
  private current: TableState<S, R>;
  private countdown: unknown = null;
  private writing = false;
  private stopped = false;
  private readonly listeners = new Set<() => void>();
  private readonly unlisten: () => void;
  private readonly unprovide: () => void;
  /**
   * The journal's seq the state is the fold of (every entry up to it folded, none after), or -1
   * when that is not known (not yet, or a write the runtime did not hear in order). Only a state
   * standing at the head goes into a checkpoint (ledger/checkpoint.ts).
   */
  private standsAt = -1;
  /** The projections, of the state as it stands once the commands waiting for their group commit are committed. */
  readonly reads: TableReads;
  /**
   * The ledger hold the journal refused too (`refused`): held in memory only, with the entries its
   * step wrote. The next write at it (a person's void or correction, a card the shoe read during
   * it) journals it first, in that write's own transaction (`late`), so the journal never resolves
   * or records at a hold it does not hold (a false record, and a journal whose fold refuses it). A
   * restart before any such write opens unheld, as nothing of the refused input happened
   * (ledger-hold-restart.test.ts).
   */
  private unjournalledHold: { input: Extract<TableInput, { kind: 'journal-refused' }>; journal: readonly JournalRecord[] } | null = null;
  /** Station commands waiting for their group commit (null: each is committed as it comes). */
  private readonly batch: CommandBatch | null;

  constructor(
    private readonly d: TableRuntimeDeps<S, R>,
    state: TableState<S, R>,
  ) {
    this.current = state;
    this.reads = new TableReadModel(d.game, () => this.state);
    this.batch = d.groupCommit ? new CommandBatch(d.groupCommit, d.timers, (inputs) => this.commitTogether(inputs)) : null;
    this.unlisten = d.ledger.onAppended((entries) => this.othersWrote(entries));
    this.unprovide = d.ledger.checkpoints.provideTable(() =>
      this.standsAt >= 0 && !this.writing && this.standsAt === d.ledger.headOf().seq
        ? { seq: this.standsAt, identity: d.game.identity, state: this.current }
        : null,
    );
  }

  /** Start-up's checkpointing (openTable's `resume`): the state stands at the head, and a checkpoint with it now. */
  readonly checkpoints = {
    /**
     * The state is now the fold of the whole journal (recovery verified and folded it, and the
     * runtime journalled or heard everything since): from here on it may go into checkpoints.
     */
    standsAtHead: (): void => {
      this.standsAt = this.d.ledger.headOf().seq;
    },
    /** A checkpoint now, with this state if it stands at the head (start-up); null when none was written. */
    now: (): number | null => {
      const head = this.d.ledger.headOf().seq;
      try {
        return this.d.ledger.checkpoints.write(this.standsAt === head ? { seq: head, identity: this.d.game.identity, state: this.current } : null);
      } catch (e) {
        this.d.log.warn({ err: e }, 'no checkpoint written: the next start verifies from the previous one');
        return null;
      }
    },
  };

  /** A checkpoint when one is due, with this state if it stands at the head; never a failure of the table's. */
  private checkpoint(): void {
    try {
      this.d.ledger.checkpoints.writeIfDue();
    } catch (e) {
      this.d.log.warn({ err: e }, 'no checkpoint written: the next start verifies from the previous one');
    }
  }

  get state(): TableState<S, R> {
    this.settle();
    return this.current;
  }

  /**
   * Commits the station commands waiting for their group commit: whatever reads the table or
   * feeds it next (a card, a timer, a credit, a cash-out's check) sees them as they came first.
   */
  private settle(): void {
    if (this.batch?.pending()) this.batch.flush();
  }

  get game(): GameDefinition<S, R> {
    return this.d.game;
  }

  /** Starts the countdown the state holds (after recovery). */
  start(): void {
    this.setCountdown(this.current.countdown);
  }

  stop(): void {
    this.batch?.close('the table stopped before the command was journalled');
    this.stopped = true;
    this.unlisten();
    this.unprovide();
    if (this.countdown !== null) this.d.timers.clearTimeout(this.countdown);
    this.countdown = null;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  input(input: TableInput, also: readonly NewEntry[] = []): Outcome {
    // Stopped, it hears nothing of the ledger (notes, transfers, another writer): what it would
    // step is stale. A switch whose next game failed to build leaves it the table's (switching-table.ts).
    if (this.stopped) return { ok: false, reason: 'the table is stopped: it takes nothing until it is started again', refusal: 'table-halted' };
    this.settle();
    return this.inputNow(input, also);
  }

  /** One input, stepped and journalled now (the station commands waiting for their group commit stay waiting). */
  private inputNow(input: TableInput, also: readonly NewEntry[] = []): Outcome {
    const before = this.current;
    const r = step(before, input, this.d.game);
    if (r.refused) {
      this.runEffects(r.effects);
      return r.refused;
    }
    const changed = r.state !== before;
    if (input.kind !== 'credit' && (changed || also.length > 0)) {
      try {
        this.journalMany(changed ? [{ input, journal: r.journal }] : [], also);
      } catch (e) {
        this.d.log.error({ err: e, input: input.kind }, 'the ledger refused what the table was to journal: nothing of it happened');
        const reason = `could not be journalled: ${e instanceof Error ? e.message : String(e)}`;
        // A person's act is answered as refused to the person standing there, and nothing of it
        // happened at the table: no hold for it (the table's own next write holds it if the
        // journal still refuses). Anything else the table did by itself, so it holds.
        // An input carrying a person's record (`also`: a new shoe a supervisor declares) is theirs too.
        if (PERSONS_ACTS.has(input.kind) || also.length > 0) return { ok: false, reason, act: { why: 'not-journalled' } };
        this.refused(input, e);
        return { ok: false, reason };
      }
    }
    if (!changed) {
      this.runEffects(r.effects);
      this.followUp(r.effects);
      return { ok: true };
    }
    this.apply(r.state, r.effects);
    if (input.kind !== 'credit') this.checkpoint();
    this.followUp(r.effects);
    return { ok: true };
  }

  /**
   * The hold held in memory only, as the journal takes it now: its own step's entries, and an input
   * that says when it began and that it is journalled late (docs/table-host.md, "A ledger hold the
   * journal refuses"). Nothing played since it began (nothing plays while it holds), so a fold puts
   * the same hold back at this point.
   */
  private late(): { input: TableInput; journal: readonly JournalRecord[] }[] {
    const held = this.unjournalledHold;
    if (!held || this.current.hold === null) return [];
    const now = new Date(this.d.timers.now()).toISOString();
    const began = new Date(held.input.at).toISOString();
    const reason = `journalled late (${now}): the journal refused this hold's own entry when it began (${began}); ${held.input.reason}`;
    return [{ input: { ...held.input, reason: reason.slice(0, 2000) }, journal: held.journal }];
  }

  /** The ledger refused a step's entries: the table holds, journalled if the ledger takes that much. */
  private refused(input: TableInput, e: unknown): void {
    const at = 'at' in input ? input.at : this.d.timers.now();
    const hold = { kind: 'journal-refused' as const, at, reason: (e instanceof Error ? e.message : String(e)).slice(0, 2000) };
    const r = step(this.current, hold, this.d.game);
    if (r.state === this.current) return this.runEffects(r.effects);
    try {
      this.journal(hold, r.journal);
    } catch (again) {
      // Held in memory only (the safe side: nothing plays). A restart folds the journal without it,
      // but its own resume is a write refused the same way while the fault lasts, and holds again
      // (docs/table-host.md, "A ledger hold the journal refuses"; ledger-hold-restart.test.ts).
      this.d.log.error({ err: again }, 'the hold could not be journalled either');
      this.unjournalledHold = { input: hold, journal: r.journal };
    }
    this.apply(r.state, r.effects);
  }

  /**
   * Station commands stepped in order and journalled in one durable transaction (group commit):
   * each with its own `table.input` entry and records, as if each had come alone. A command that
   * asks for a follow-up (the last decision settling a round) closes the group: the follow-up
   * comes right after it, as it would alone, and the commands behind it form the next group. A
   * commit the ledger refuses is taken again command by command, so only the one it refuses
   * fails (and holds the table, as alone).
   */
  private commitTogether(inputs: readonly TableInput[]): Outcome[] {
    const outcomes: Outcome[] = [];
    let i = 0;
    while (i < inputs.length) {
      const before = this.current;
      let state = before;
      const group: { input: TableInput; journal: readonly JournalRecord[] }[] = [];
      const effects: Effect[] = [];
      const start = i;
      for (; i < inputs.length; i++) {
        const input = inputs[i] as TableInput;
        const r = step(state, input, this.d.game);
        effects.push(...r.effects);
        if (r.refused) {
          outcomes.push(r.refused);
          continue;
        }
        outcomes.push({ ok: true });
        if (r.state !== state) {
          group.push({ input, journal: r.journal });
          state = r.state;
        }
        if (r.effects.some((e) => e.type === 'next')) {
          i++;
          break;
        }
      }
      if (group.length > 0) {
        try {
          this.journalMany(group);
        } catch (e) {
          this.d.log.warn({ err: e, commands: group.length }, 'a group commit was refused: its commands are journalled one by one');
          outcomes.length = start;
          for (const input of inputs.slice(start, i)) outcomes.push(this.input(input));
          continue;
        }
        this.apply(state, effects);
        this.checkpoint();
      } else this.runEffects(effects);
      this.followUp(effects);
    }
    return outcomes;
  }

  private journal(input: TableInput, records: readonly JournalRecord[]): void {
    this.journalMany([{ input, journal: records }]);
  }

  /**
   * Each input with its records, then `also` (a person's record of the act: not the table's, so
   * after the records the fold checks, where the fold reads it as any other entry), in one
   * durable transaction.
   */
  private journalMany(steps: readonly { input: TableInput; journal: readonly JournalRecord[] }[], also: readonly NewEntry[] = []): void {
    // Whatever is written at a hold the journal never had (a person's void, a card the shoe read
    // during it) journals that hold first, in the same transaction: else the fold meets a write
    // from a held table with no hold before it (a review of 2 December: a read during it, then the
    // fold refused the journal).
    const late = this.late();
    const entries: NewEntry[] = [
      ...[...late, ...steps].flatMap(({ input, journal: records }) => [
        { type: 'table.input' as const, payload: { input: journalledInput(input), effects: records.length } },
        ...records,
      ]),
      ...also,
    ];
    const before = this.d.ledger.headOf().seq;
    this.writing = true;
    try {
      const written = this.d.ledger.appendMany(entries).filter((r) => r.status === 'appended').length;
      // Entries others wrote meanwhile (a listener appending) went unheard: the state no longer
      // stands at a known seq.
      const head = this.d.ledger.headOf().seq;
      this.standsAt = this.standsAt === before && head === before + written ? head : -1;
      if (late.length > 0) this.unjournalledHold = null;
    } finally {
      this.writing = false;
    }
  }

  private apply(state: TableState<S, R>, effects: readonly Effect[]): void {
    this.current = state;
    this.runEffects(effects);
    for (const l of [...this.listeners]) {
      try {
        l();
      } catch (e) {
        this.d.log.error({ err: e }, 'a listener of the table failed');
      }
    }
  }

  /** The input a step asked for next (a complete round's settlement): its own step and transaction. */
  private followUp(effects: readonly Effect[]): void {
    for (const e of effects) if (e.type === 'next' && !this.stopped) this.input({ kind: e.input, at: this.d.timers.now() });
  }

  private runEffects(effects: readonly Effect[]): void {
    for (const e of effects) {
      if (e.type === 'countdown') this.setCountdown(e.countdown);
      else if (e.type === 'log') this.d.log[e.line.level](e.line.data ?? {}, e.line.msg);
      // The shoe's gate follows `expectsCard()`, which the shoe reads on every change.
    }
  }

  private setCountdown(c: TableState<S, R>['countdown']): void {
    if (this.countdown !== null) this.d.timers.clearTimeout(this.countdown);
    this.countdown = null;
    if (!c || this.stopped) return;
    const ms = Math.max(0, c.endsAt - this.d.timers.now());
    this.countdown = this.d.timers.setTimeout(() => {
      this.countdown = null;
      this.input({ kind: 'timer', at: this.d.timers.now(), countdown: c.id });
    }, ms);
  }

  readonly countdowns: Countdowns = {
    end: (kind) => {
      const c = this.current.countdown;
      if (!c || c.kind !== kind || this.stopped) return false;
      if (this.countdown !== null) this.d.timers.clearTimeout(this.countdown);
      this.countdown = null;
      this.input({ kind: 'timer', at: this.d.timers.now(), countdown: c.id });
      return true;
    },
    freeze: (kind) => {
      const c = this.current.countdown;
      if (!c || c.kind !== kind || this.stopped) return false;
      if (this.countdown !== null) this.d.timers.clearTimeout(this.countdown);
      this.countdown = null;
      return true;
    },
  };

  /** Entries someone else wrote: the credits they moved are the table's to know. */
  private othersWrote(entries: readonly JournalEntry[]): void {
    if (this.writing || this.stopped) return;
    for (const e of entries) {
      // Before the station commands still waiting for their commit: they are stepped against the
      // credit the ledger holds now (a cash-out's cancel, a note's credit), not the one they saw.
      for (const [station, balance] of entryCredits(e)) this.inputNow({ kind: 'credit', station, balance });
      this.standsAt = this.standsAt === e.seq - 1 ? e.seq : -1;
    }
    this.checkpoint();
  }

  /* ─────────────── inputs, named ─────────────── */

  private now(): number {
    return this.d.timers.now();
  }

  readonly commands: NamedCommands = {
    placeBet: (station, spot, amount) => this.input(commandInput({ kind: 'place-bet', station, spot, amount }, this.now())),
    clearBets: (station) => this.input(commandInput({ kind: 'clear-bets', station }, this.now())),
    decide: (station, action, amount) => this.input(commandInput({ kind: 'decide', station, action, ...(amount !== undefined ? { amount } : {}) }, this.now())),
  };

  submit(c: StationCommand): Outcome | Promise<Outcome> {
    const input = commandInput(c, this.now());
    if (!this.batch || this.stopped) return this.input(input);
    return this.batch.submit(input);
  }

  /**
   * The shoe's feed. A read that comes while the table is on hold and cannot be journalled is
   * not taken: the error reaches the shoe's driver, which withholds the acknowledgement, so the
   * shoe delivers it again. (A plain object: the benches wrap its `onCard` to time it.)
   */
  readonly shoe: ShoeFeed = {
    onCard: (card, sequence, burnt) => {
      const held = this.current.hold !== null;
      const r = this.input({ kind: 'card', at: this.now(), card, ...(sequence !== undefined ? { sequence } : {}), ...(burnt ? { burn: true as const } : {}) });
      if (!r.ok && held) throw new Error(r.reason);
    },
    onAnomaly: (reason, card, sequence) => {
      const held = this.current.hold !== null;
      const r = this.input({
        kind: 'anomaly',
        at: this.now(),
        reason,
        ...(card ? { card: card.slice(0, 8) } : {}),
        ...(sequence !== undefined ? { sequence } : {}),
      });
      if (!r.ok && held) throw new Error(r.reason);
    },
    onCutCard: (sequence) => void this.input({ kind: 'cut-card', at: this.now(), ...(sequence !== undefined ? { sequence } : {}) }),
    onNewShoe: (sequence, also) => this.input({ kind: 'shoe-loaded', at: this.now(), ...(sequence !== undefined ? { sequence } : {}) }, also),
  };

  readonly supervisor: SupervisorCommands = {
    enterCard: (card, supervisor, witness, also) => this.input({ kind: 'enter-card', at: this.now(), card, supervisor, witness }, also),
    voidRound: (reason, authorisedBy, uncorrectable, also) =>
      this.input(
        {
          kind: 'void',
          at: this.now(),
          reason: reason.slice(0, 2000) || 'void',
          authorisedBy: authorisedBy.slice(0, 4),
          ...(uncorrectable ? { uncorrectable } : {}),
        },
        also,
      ),
    reportDealingError: (by, also) => this.input({ kind: 'dealing-error', at: this.now(), by: by.slice(0, 128) }, also),
    correct: (correction, supervisor, witness, also) =>
      this.input({ kind: 'correct', at: this.now(), correction, supervisor: supervisor.slice(0, 128), witness: witness.slice(0, 128) }, also),
  };

  setFaults(gates: FaultGates): void {
    // The jackpot's gate travels only on a table where it ever closed (older journals have no such field).
    const jackpot = gates.jackpotStopped ?? null;
    const withJackpot = jackpot !== null || (this.current.faults.jackpotStopped ?? null) !== null;
    this.input({
      kind: 'faults',
      at: this.now(),
      halted: gates.halted,
      newBetsStopped: gates.newBetsStopped,
      disabled: [...gates.disabled],
      ...(withJackpot ? { jackpotStopped: jackpot } : {}),
    });
  }

  configure(params: TableParams): void {
    this.input({ kind: 'configure', at: this.now(), params });
  }
}
