import type { TableId, TransferEntry, TransferId } from '../../terms/transfer-terms.js';
import type { Outbound, TransferAlarm } from './effects.js';
import type { TransferJournal } from './journal.js';
import type { SettleRefusal, SettleTransfer, StartRefusal } from './sender.js';
import { fold, type StationHomes, type TransferState } from './state.js';
import { step, type TransferEvent } from './step.js';

/**
 * Alarms journalled per link a minute (`ALARM_WINDOW_MS`: a flood of lies stays small); the rest
 * are summed up at the first tick after the minute in one more, naming each reason left out and
 * how often (so a lie sent after 20 frames of junk still reaches the upstream, issue 50, within a
 * minute and the upstream's next reconciliation). Before, the budget started again at every
 * tick, so a link lying on every tick journalled 21 alarms a second for as long as it lied.
 */
export const ALARM_BUDGET = 20;
export const ALARM_WINDOW_MS = 60_000;

/**
 * Refusals at the credit limit journalled per link a minute (`ALARM_WINDOW_MS`). Such a refusal is
 * the station's state here, not the link's lie, so it is not counted against the link's allowance
 * of refusals (receiver.ts); but each is a journal row, so a flood of offers at a full station (a
 * hostile table's 1-unit moves) must stay small. Past the budget an offer at the limit is the
 * `credit-limit` alarm only (within the alarm budget), neither journalled nor answered: nothing is
 * spent, and the honest sender, unanswered, asks again on its tick and is answered in the next
 * minute, well before it recalls (60 s unanswered). A player's presses of Move at a full station
 * are far fewer.
 */
export const AT_LIMIT_BUDGET = 20;

/** Per link: when its minute began (its first alarm), alarms journalled since, and those past the budget (each reason's count, the last one). */
interface Budget {
  since: number;
  journalled: number;
  suppressed: number;
  reasons: Map<TransferAlarm['reason'], number>;
  last: TransferAlarm | null;
}

export interface TransferHostOptions {
  readonly self: TableId;
  readonly currency: string;
  /** The table's stations and their homes: the only stations a transfer may name here. */
  readonly homes: StationHomes;
  readonly journal: TransferJournal;
  /** Hands a message to the link of `to` (it may be lost: the next tick asks again). */
  readonly send: (out: Outbound) => void;
  readonly alarm: (a: TransferAlarm) => void;
  /** The wall clock (ms since the epoch): the day a refusal at the credit limit is counted in. Date.now when absent. */
  readonly now?: () => number;
  /**
   * The clock of the alarm budgets' minutes (ms, only moving forward): `now` when a test gives one
   * and no `monotonic`, else `performance.now`. On the wall clock a step back held a minute open for
   * the step's length, every alarm past its budget unjournalled meanwhile.
   */
  readonly monotonic?: () => number;
  /** The most a station's credit here may hold (the table's `creditLimit`, read at each offer); absent, no limit. */
  readonly creditLimit?: () => number;
  /** Whether a station is under the casino system's AFT game lock now (read at each offer and refusal: an offer to it, and the reversal of a move out of it, wait); absent, none is. */
  readonly locked?: (station: number) => boolean;
}

/**
 * A host's transfers over its journal: started from what the journal folds to; every event
 * stepped, its entries and its alarms appended (one transaction), and only then its messages sent.
 * An append the journal refuses leaves the state as it was and sends nothing.
 */
export class TransferHost {
  private current: TransferState;
  private readonly budget = new Map<TableId, Budget>();
  /** Per link: when its minute of refusals at the credit limit began, and how many were journalled since. */
  private readonly atLimit = new Map<TableId, { since: number; journalled: number }>();

  constructor(private readonly o: TransferHostOptions) {
    this.current = fold(o.self, o.currency, o.homes, o.journal.entries());
  }

  get state(): TransferState {
    return this.current;
  }

  /**
   * The stations' homes changed (a peer enrolled or removed in service mode): from now on, as a
   * start with the new files would fold them. Transfers already journalled keep their terms.
   */
  rehome(homes: StationHomes): void {
    this.current = { ...this.current, homes };
  }

  /** Moves `amount` of the station's credit to the table `to`; a refusal journals nothing. */
  start(station: number, to: TableId, amount: number): { refused?: StartRefusal } {
    return this.on({ kind: 'start', station, to, amount, available: this.o.journal.credit(station) });
  }

  recall(id: TransferId): void {
    this.on({ kind: 'recall', id });
  }

  /** Two people close an open transfer no answer will close (service mode); a refusal journals nothing. */
  settle(s: SettleTransfer): { refused?: SettleRefusal } {
    const r = this.on({ kind: 'settle', ...s, ...(this.o.locked ? { locked: this.o.locked } : {}) });
    return r.settleRefused ? { refused: r.settleRefused } : {};
  }

  tick(): void {
    const now = this.elapsed();
    for (const [link, b] of this.budget) if (now - b.since >= ALARM_WINDOW_MS) this.sumUp(link, b);
    this.on({ kind: 'tick' });
  }

  /** Sums up every link's budget now, whatever is left of its minute: the host is stopping, and a count held back would be lost. */
  sumUpAll(): void {
    for (const [link, b] of this.budget) this.sumUp(link, b);
  }

  private now(): number {
    return this.o.now?.() ?? Date.now();
  }

  private elapsed(): number {
    return this.o.monotonic?.() ?? this.o.now?.() ?? performance.now();
  }

  receive(link: TableId, message: unknown): void {
    const limit = this.o.creditLimit?.();
    const { journal } = this.o;
    const credit = (station: number): number => journal.credit(station);
    // An offer is measured against what the station holds or is owed here, not its meter alone: a
    // note told to stack, a ticket approved, a move out in flight are credited whatever the meter
    // then says (docs/sas.md, "The station credit limit").
    const held = (station: number): number => journal.held?.(station) ?? credit(station);
    this.on({
      kind: 'receive',
      link,
      message,
      credit,
      ...(limit !== undefined ? { creditLimit: limit, held } : {}),
      ...(this.atLimitSpent(link) ? { atLimitBudgetSpent: true } : {}),
      ...(this.o.locked ? { locked: this.o.locked } : {}),
      now: this.now(),
    });
  }

  /** Whether the link's refusals at the credit limit this minute are spent. */
  private atLimitSpent(link: TableId): boolean {
    const a = this.atLimit.get(link);
    if (a && this.elapsed() - a.since >= ALARM_WINDOW_MS) this.atLimit.delete(link);
    return (this.atLimit.get(link)?.journalled ?? 0) >= AT_LIMIT_BUDGET;
  }

  private countAtLimit(r: { journal: readonly TransferEntry[] }): void {
    for (const e of r.journal) {
      if (e.type !== 'transfer.refuse' || e.payload.reason !== 'credit-limit') continue;
      const link = e.payload.id.origin;
      const a = this.atLimit.get(link) ?? { since: this.elapsed(), journalled: 0 };
      a.journalled++;
      this.atLimit.set(link, a);
    }
  }

  private on(event: TransferEvent): { refused?: StartRefusal; settleRefused?: SettleRefusal } {
    const r = step(this.current, event);
    const alarms = this.budgeted(r.alarms);
    // The step's alarms in its own transaction: a refused alarm refuses the step, which the peer
    // asks again. Before, the step stood and the refused alarm threw past its sends, and the
    // alarm was never journalled (the repeat was answered from the journal, with no alarm).
    this.o.journal.append([...r.journal, ...alarms.entries]);
    alarms.count();
    this.current = r.state;
    this.countAtLimit(r);
    for (const a of r.alarms) this.o.alarm(a);
    for (const s of r.send) this.o.send(s);
    return { ...(r.refused ? { refused: r.refused } : {}), ...(r.settleRefused ? { settleRefused: r.settleRefused } : {}) };
  }

  /**
   * Which of a step's alarms are journalled (security events, docs/security.md), within each
   * link's budget; `count` takes them from the budget once the step's transaction is journalled.
   * A minute over with no tick since (a stopped timer) is summed up first, in a transaction of its own.
   */
  private budgeted(alarms: readonly TransferAlarm[]): { entries: TransferEntry[]; count: () => void } {
    const now = this.elapsed();
    const entries: TransferEntry[] = [];
    const counts: (() => void)[] = [];
    const planned = new Map<TableId, number>();
    for (const a of alarms) {
      // Already in the step's journal (the alarm that marks a transfer disputed): outside any budget.
      if (a.journalled) continue;
      const before = this.budget.get(a.link);
      if (before && now - before.since >= ALARM_WINDOW_MS) this.sumUp(a.link, before);
      const used = (this.budget.get(a.link)?.journalled ?? 0) + (planned.get(a.link) ?? 0);
      const journalled = used < ALARM_BUDGET;
      if (journalled) {
        planned.set(a.link, (planned.get(a.link) ?? 0) + 1);
        entries.push({
          type: 'transfer.alarm',
          payload: { link: a.link, reason: a.reason, ...(a.id ? { id: a.id } : {}), detail: a.detail.slice(0, 500) },
        });
      }
      counts.push(() => this.countAlarm(a, journalled, now));
    }
    return { entries, count: () => counts.forEach((c) => c()) };
  }

  /** An alarm journalled, or left out past the link's budget (summed up after its minute). */
  private countAlarm(a: TransferAlarm, journalled: boolean, now: number): void {
    const b = this.budget.get(a.link) ?? { since: now, journalled: 0, suppressed: 0, reasons: new Map(), last: null };
    this.budget.set(a.link, b);
    if (journalled) {
      b.journalled++;
      return;
    }
    b.suppressed++;
    b.reasons.set(a.reason, (b.reasons.get(a.reason) ?? 0) + 1);
    b.last = a;
  }

  /**
   * The link's minute is over and its budget starts again; what it left out in the minute is
   * journalled as one alarm, whether or not the peer says anything more: the last reason left out
   * (its id), the count, and every reason with its count in the detail (at most 14 reasons: it fits).
   */
  private sumUp(link: TableId, b: Budget): void {
    const last = b.last;
    if (b.suppressed > 0 && last) {
      const counts = [...b.reasons].map(([reason, n]) => `${reason} ${n}`).join(', ');
      const detail = `${b.suppressed} more alarms at this link past the budget of ${ALARM_BUDGET} a minute: ${counts}`;
      this.o.journal.append([
        {
          type: 'transfer.alarm',
          payload: { link, reason: last.reason, ...(last.id ? { id: last.id } : {}), detail: detail.slice(0, 500), suppressed: b.suppressed },
        },
      ]);
    }
    this.budget.delete(link);
  }
}
