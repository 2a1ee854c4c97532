import type { AuthorityAck, RedeemAnswer, RedeemRequest, TicketAt, TicketAuthority } from '../../../host/tickets/authority.js';
import type { JournalEntry } from '../../../ledger/index.js';
import { isTicketEntryType, parseTicketEntry, type RequestId, type TicketTerms } from '../../../terms/ticket-terms.js';
import { ASSIGNED_MACHINE_ID_MIN } from '../../../terms/validation-number.js';

// The validation authority of the simulated floor: an in-memory model of the upstream's register
// (upstream/tickets.ts; docs/tito.md, "The upstream as the authority"), as fake-upstream.ts models
// the ledger's ingest. Each decision is taken whole at once, as the upstream's one conditional
// UPDATE under the row lock: printed → pending for one attempt of one table; the same attempt
// asked again is answered as before; a cancel is a tombstone that refuses the attempt's late
// approval; a pending redemption is resolved by the redeeming table's journal when it syncs
// (stacked: redeemed; returned: printed again), never by a timer. The simulation's faults on the
// link are applied around it (the world holds answers back, drops them, delivers requests twice).

type State = 'issued' | 'printed' | 'pending' | 'redeemed' | 'voided';

export interface RegisteredTicket {
  readonly issuer: string;
  readonly amount: number;
  readonly currency: string;
  state: State;
  /** The attempt that holds it (pending) or paid it (redeemed). */
  by: { table: string; requestId: string } | null;
}

/** How one call to the authority goes on the link. */
export type AuthorityFault =
  /** Answered at once. */
  | 'ok'
  /** Decided now, the answer held back until the world delivers it (after the host's deadline). */
  | 'late'
  /** Decided now, the answer never comes. */
  | 'never'
  /** The request never arrives: nothing decided, no answer. */
  | 'lost'
  /** Decided now, the answer lost on the way back (an error reaches the host). */
  | 'error'
  /** The request is delivered twice (a retry by a proxy): the second is a replay of the first. */
  | 'twice';

export const AUTHORITY_FAULTS: readonly AuthorityFault[] = ['ok', 'late', 'never', 'lost', 'error', 'twice'];

export class AuthorityModel {
  readonly tickets = new Map<string, RegisteredTicket>();
  private readonly attempts = new Map<string, { answer: RedeemAnswer | null; cancelled: boolean }>();
  /** What a table's journal said that the register could not take (an upstream's `ticket-disagreement` alarm). */
  readonly alarms: string[] = [];
  private readonly synced = new Map<string, number>();
  /** Each table's validation id, as the upstream gives them. */
  private readonly machineIds = new Map<string, number>();

  /**
   * `approve-pending`: a flawed authority that approves a ticket another attempt holds (the bug
   * the upstream's conditional UPDATE exists to prevent), so the harness can show it finds one.
   */
  constructor(private readonly flaw: 'approve-pending' | null = null) {}

  // --- the decisions -------------------------------------------------------------------------

  issue(issuer: string, t: TicketTerms): void {
    if (!this.tickets.has(t.validation)) this.tickets.set(t.validation, { issuer, amount: t.amount, currency: t.currency, state: 'issued', by: null });
  }

  /** Printed, from the table that issued it; false when the register cannot take it (not known yet, or voided). */
  printed(issuer: string, validation: string): boolean {
    const t = this.tickets.get(validation);
    if (!t || t.issuer !== issuer || t.state === 'voided') return false;
    if (t.state === 'issued') t.state = 'printed';
    return true;
  }

  /** Voided, from the table that issued it; false when the register cannot take it (not known yet, or printed). */
  voided(issuer: string, validation: string): boolean {
    const t = this.tickets.get(validation);
    if (!t || t.issuer !== issuer || (t.state !== 'issued' && t.state !== 'voided')) return false;
    t.state = 'voided';
    return true;
  }

  redeem(table: string, q: RedeemRequest): RedeemAnswer {
    const key = `${table}/${q.requestId}`;
    const seen = this.attempts.get(key);
    const refused = (reason: Extract<RedeemAnswer, { kind: 'refused' }>['reason']): RedeemAnswer => ({ kind: 'refused', requestId: q.requestId, reason });
    if (seen?.cancelled) return refused('offline');
    if (seen?.answer) return seen.answer;
    const t = this.tickets.get(q.validation);
    let answer: RedeemAnswer;
    if (!t || t.state === 'issued') answer = refused('unknown');
    else if (t.state === 'voided') answer = refused('voided');
    else if (t.state === 'redeemed') answer = refused('already-paid');
    else if (t.state === 'pending' && this.flaw !== 'approve-pending') answer = refused('pending-elsewhere');
    else if (t.currency !== q.currency) answer = refused('other-currency');
    else if (t.amount > q.limit) answer = refused('over-limit');
    else {
      t.state = 'pending';
      t.by = { table, requestId: q.requestId };
      answer = { kind: 'approved', requestId: q.requestId, validation: q.validation, amount: t.amount, currency: t.currency };
    }
    this.attempts.set(key, { answer, cancelled: false });
    return answer;
  }

  confirm(table: string, requestId: string, validation: string): boolean {
    const t = this.tickets.get(validation);
    if (t?.by?.table !== table || t.by.requestId !== requestId) return false;
    if (t.state === 'pending') t.state = 'redeemed';
    return t.state === 'redeemed';
  }

  cancel(table: string, requestId: string, validation: string): boolean {
    const key = `${table}/${requestId}`;
    this.attempts.set(key, { answer: this.attempts.get(key)?.answer ?? null, cancelled: true });
    const t = this.tickets.get(validation);
    if (t?.state === 'redeemed' && t.by?.table === table && t.by.requestId === requestId) return false;
    if (t?.state === 'pending' && t.by?.table === table && t.by.requestId === requestId) {
      t.state = 'printed';
      t.by = null;
    }
    return true;
  }

  /** A table's journal reaching the authority (its sync): every ticket entry applied once, in order. */
  ingest(table: string, entries: readonly JournalEntry[]): void {
    const from = this.synced.get(table) ?? 0;
    for (const e of entries) {
      if (e.seq <= from || !isTicketEntryType(e.type)) continue;
      const body: unknown = JSON.parse(e.body);
      const t = parseTicketEntry(e.type, body && typeof body === 'object' && 'payload' in body ? body.payload : undefined);
      if (!t) {
        this.alarms.push(`${table}: entry ${e.seq} unreadable`);
        continue;
      }
      if (t.type === 'ticket.issue') this.issue(table, t.payload);
      // A table's journal comes in order: its ticket is known by its issue, and ended once.
      else if (t.type === 'ticket.printed') {
        if (!this.printed(table, t.payload.validation)) this.alarms.push(`${table}: printed ${t.payload.validation}, not issued by it or voided`);
      } else if (t.type === 'ticket.void') {
        if (!this.voided(table, t.payload.validation)) this.alarms.push(`${table}: voided ${t.payload.validation}, not issued by it or printed`);
      } else if (t.type === 'ticket.redeem.stacked') {
        if (!this.confirm(table, t.payload.requestId, t.payload.validation))
          this.alarms.push(`${table}: stacked ${t.payload.validation} by attempt ${t.payload.requestId}, not approved for it`);
      } else if (t.type === 'ticket.redeem.returned') this.cancel(table, t.payload.requestId, t.payload.validation);
    }
    const last = entries.at(-1);
    if (last) this.synced.set(table, Math.max(from, last.seq));
  }

  /**
   * The upstream's rule (upstream/tickets.ts, machineIdOf): a table's id once given is its own; the
   * one proposed if no table holds it, else the next free one of the ids the upstream assigns.
   */
  private machineIdOf(table: string, proposed?: number): number {
    const had = this.machineIds.get(table);
    if (had !== undefined) return had;
    const taken = new Set(this.machineIds.values());
    const assigned = [...taken].filter((id) => id >= ASSIGNED_MACHINE_ID_MIN);
    const id = proposed !== undefined && !taken.has(proposed) ? proposed : Math.max(ASSIGNED_MACHINE_ID_MIN - 1, ...assigned) + 1;
    this.machineIds.set(table, id);
    return id;
  }

  // --- one table's client, with the link's faults --------------------------------------------

  /**
   * The authority as one table's host reaches it, each call through the link fault `fault()`
   * draws. A held answer is delivered by `release()`; a table's crash drops what was held for it.
   */
  clientFor(table: string, fault: (call: 'redeem' | 'word') => AuthorityFault, held: HeldAnswers): TicketAuthority {
    const ok: AuthorityAck = { ok: true };
    const word = (apply: () => boolean): Promise<AuthorityAck> => {
      const f = fault('word');
      if (f === 'lost' || f === 'never') return f === 'lost' ? Promise.resolve({ ok: false, reason: 'offline', detail: 'lost' }) : new Promise(() => undefined);
      const took = apply();
      if (f === 'error') return Promise.reject(new Error('the answer was lost'));
      return Promise.resolve(took ? ok : { ok: false, reason: 'refused', detail: 'refused' });
    };
    return {
      machineId: (proposed?: number) => Promise.resolve({ ok: true, machineId: this.machineIdOf(table, proposed) }),
      registerIssue: (terms) => word(() => (this.issue(table, terms), true)),
      registerPrinted: (t: TicketAt) => word(() => this.printed(table, t.validation)),
      registerVoid: (t: TicketAt) => word(() => this.voided(table, t.validation)),
      confirm: (id: RequestId, t: TicketAt) => word(() => this.confirm(table, id, t.validation)),
      cancel: (id: RequestId, t: TicketAt) => word(() => this.cancel(table, id, t.validation)),
      redeem: (q: RedeemRequest) => {
        const f = fault('redeem');
        if (f === 'lost') return new Promise(() => undefined);
        const answer = this.redeem(table, q);
        if (f === 'twice') this.redeem(table, q);
        if (f === 'never') return new Promise(() => undefined);
        if (f === 'error') return Promise.reject(new Error('the answer was lost'));
        if (f === 'late') return held.hold(table, answer);
        return Promise.resolve(answer);
      },
    };
  }
}

/** Answers held back on the link, per table: delivered late by the world, dropped when their table's host dies. */
export class HeldAnswers {
  private readonly held: { table: string; deliver: () => void }[] = [];

  hold(table: string, answer: RedeemAnswer): Promise<RedeemAnswer> {
    return new Promise((resolve) => this.held.push({ table, deliver: () => resolve(answer) }));
  }

  /** The oldest held answers delivered (late). */
  release(): number {
    const n = this.held.length;
    for (const h of this.held.splice(0)) h.deliver();
    return n;
  }

  /** The host of `table` died: what was on its way to it goes nowhere. */
  drop(table: string): void {
    for (let i = this.held.length - 1; i >= 0; i--) if (this.held[i]?.table === table) this.held.splice(i, 1);
  }
}
