import type { JournalRecord, LogLine } from './effects.js';
import type { ActRefusal } from './act-refusal.js';
import type { GameDefinition, Outcome } from './game.js';
import type { TableState, TimerKind } from './state.js';

/**
 * The work of one step: the state as it changes, what to journal and what to log. Each step
 * makes one and reads it back at the end, so the step functions can be written as a sequence of
 * small changes while `step` itself stays pure (nothing outside the turn is touched).
 */
export class Turn<S, R> {
  readonly journal: JournalRecord[] = [];
  readonly logs: LogLine[] = [];
  /** A command refused: nothing else of the turn counts. */
  refused: Extract<Outcome, { ok: false }> | null = null;
  /** The input the table needs next, at once (the settlement of a complete round). */
  next: 'settle' | null = null;

  constructor(
    public state: TableState<S, R>,
    readonly game: GameDefinition<S, R>,
    /** The shell's clock when the input happened. */
    readonly at: number,
  ) {}

  set(patch: Partial<TableState<S, R>>): void {
    this.state = { ...this.state, ...patch };
  }

  write(record: JournalRecord): void {
    this.journal.push(record);
  }

  log(level: LogLine['level'], msg: string, data?: Record<string, unknown>): void {
    this.logs.push({ level, msg, ...(data ? { data } : {}) });
  }

  refuse(reason: string, refusal?: Extract<Outcome, { ok: false }>['refusal']): void {
    this.refused = { ok: false, reason, ...(refusal ? { refusal } : {}) };
  }

  /** A supervisor's act refused: the English for the log, and why as facts (service mode says them by key). */
  refuseAct(reason: string, act: ActRefusal, refusal?: Extract<Outcome, { ok: false }>['refusal']): void {
    this.refused = { ok: false, reason, ...(refusal ? { refusal } : {}), act };
  }

  /** Starts a countdown of `kind` (replacing any other); none runs while the table is halted. */
  schedule(kind: TimerKind, ms: number): void {
    if (this.state.faults.halted) return this.set({ countdown: null });
    const id = this.state.countdowns + 1;
    this.set({ countdown: { id, kind, endsAt: this.at + ms }, countdowns: id });
  }

  stopCountdown(): void {
    if (this.state.countdown) this.set({ countdown: null });
  }

  /** A station's credit meter moves by `delta` (the ledger moves it by the same entry). */
  credit(station: number, delta: number): void {
    if (delta === 0) return;
    this.set({ credits: { ...this.state.credits, [station]: (this.state.credits[station] ?? 0) + delta } });
  }

  get tableId(): string {
    return this.state.params.tableId;
  }
}
