import { SystemTicketNumber, TICKET_REFUSALS, type RequestId, type TicketRefusal, type TicketTerms } from '../../terms/ticket-terms.js';
import { parseValidationNumber } from '../../terms/validation-number.js';
import type { AuthorityAck, RedeemAnswer, RedeemRequest, TicketAt, TicketAuthority } from './authority.js';

// The guard every validation authority answers the table host through (docs/tito.md, "The
// authority's interface"): the upstream's client today, the casino system over SAS tomorrow. It
// holds the rules that keep a ticket paid at most once whatever the authority does — answers
// late, never, twice, or with something other than was asked:
// - one answer per attempt: the first believed; the same request id asked again is refused
//   (`offline`) without a word to the authority, so the host cannot act on two answers;
// - no answer within the deadline, or `offline` from the implementation, is `offline`, and the
//   attempt is cancelled at once (the authority then refuses its late approval) and again if an
//   approval lands after all;
// - an answer is believed only for this request and this ticket, in the table's currency, for a
//   positive whole amount within the table's limit; any other is `offline`, and cancelled;
// - a number the scheme could not have made is refused (`unknown`) without asking anyone.
// It never throws: a failure is an answer (`offline`, `{ ok: false }`).

export type GuardEvent =
  | { readonly kind: 'late'; readonly requestId: RequestId; readonly answer: RedeemAnswer['kind'] | 'failed' }
  | { readonly kind: 'disbelieved'; readonly requestId: RequestId; readonly why: string }
  | { readonly kind: 'asked-again'; readonly requestId: RequestId }
  | { readonly kind: 'cancel-failed'; readonly requestId: RequestId; readonly detail: string };

export interface GuardOptions {
  /** A redemption not answered within this is `offline` (default 4 s: a player waits at the acceptor). */
  readonly deadlineMs?: number;
  /** Any other call abandoned after this (default 5 s). */
  readonly wordDeadlineMs?: number;
  /** What the host should log: late answers, answers not believed, an attempt asked twice, a cancel that failed. */
  readonly onEvent?: (e: GuardEvent) => void;
  /** Attempts remembered (the oldest forgotten past it); default 100 000. */
  readonly remember?: number;
  /**
   * The authority is a casino system that numbers tickets itself too (SAS system validation,
   * docs/sas.md): a number with its own system id (not 00) is its to decide, not `unknown` here.
   */
  readonly systemNumbers?: boolean;
}

const NO_ANSWER = Symbol('no answer');
type Settled<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly detail: string };

function settle<T>(p: () => Promise<T>): Promise<Settled<T>> {
  try {
    return p().then(
      (value) => ({ ok: true as const, value }),
      (e: unknown) => ({ ok: false as const, detail: e instanceof Error ? e.message : String(e) }),
    );
  } catch (e) {
    return Promise.resolve({ ok: false as const, detail: e instanceof Error ? e.message : String(e) });
  }
}

function within<T>(p: Promise<T>, ms: number): Promise<T | typeof NO_ANSWER> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<typeof NO_ANSWER>((resolve) => {
    timer = setTimeout(() => resolve(NO_ANSWER), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** Why an answer is not believed for this request, or null. */
export function disbelief(q: RedeemRequest, a: RedeemAnswer): string | null {
  if (a.requestId !== q.requestId) return `answers request ${a.requestId}, not ${q.requestId}`;
  if (a.kind === 'refused') return (TICKET_REFUSALS as readonly string[]).includes(a.reason) ? null : `an unknown reason ${String(a.reason)}`;
  if (a.validation !== q.validation) return `approves ticket ${a.validation}, not ${q.validation}`;
  if (a.currency !== q.currency) return `approves in ${a.currency}, the table plays in ${q.currency}`;
  if (!Number.isSafeInteger(a.amount) || a.amount <= 0) return `approves an amount of ${a.amount}`;
  if (a.amount > q.limit) return `approves ${a.amount}, above the limit asked (${q.limit})`;
  return null;
}

export function guardAuthority(inner: TicketAuthority, o: GuardOptions = {}): TicketAuthority {
  const deadline = o.deadlineMs ?? 4000;
  const wordDeadline = o.wordDeadlineMs ?? 5000;
  const cap = o.remember ?? 100_000;
  const asked = new Set<RequestId>();
  const event = (e: GuardEvent) => o.onEvent?.(e);

  const word = async (call: () => Promise<AuthorityAck>): Promise<AuthorityAck> => {
    const r = await within(settle(call), wordDeadline);
    if (r === NO_ANSWER) return { ok: false, reason: 'offline', detail: `no answer within ${wordDeadline} ms` };
    return r.ok ? r.value : { ok: false, reason: 'offline', detail: r.detail };
  };
  const cancelQuietly = (q: RedeemRequest) =>
    void word(() => inner.cancel(q.requestId, q)).then((r) => {
      if (!r.ok) event({ kind: 'cancel-failed', requestId: q.requestId, detail: r.detail });
    });

  const redeem = async (q: RedeemRequest): Promise<RedeemAnswer> => {
    const refused = (reason: TicketRefusal): RedeemAnswer => ({ kind: 'refused', requestId: q.requestId, reason });
    if (asked.has(q.requestId)) {
      event({ kind: 'asked-again', requestId: q.requestId });
      return refused('offline');
    }
    asked.add(q.requestId);
    if (asked.size > cap) asked.delete(asked.values().next().value ?? q.requestId);
    if (!parseValidationNumber(q.validation).ok && !(o.systemNumbers && SystemTicketNumber.safeParse(q.validation).success)) return refused('unknown');
    const answer = settle(() => inner.redeem(q));
    const first = await within(answer, deadline);
    if (first === NO_ANSWER) {
      // The ticket goes back now; the attempt is cancelled now (a tombstone), and again if it was approved after all.
      cancelQuietly(q);
      void answer.then((late) => {
        event({ kind: 'late', requestId: q.requestId, answer: late.ok ? late.value.kind : 'failed' });
        if (late.ok && late.value.kind === 'approved') cancelQuietly(q);
      });
      return refused('offline');
    }
    if (!first.ok) {
      cancelQuietly(q);
      return refused('offline');
    }
    const why = disbelief(q, first.value);
    if (why !== null) {
      event({ kind: 'disbelieved', requestId: q.requestId, why });
      cancelQuietly(q);
      return refused('offline');
    }
    // `offline` from the implementation itself (its request went out, its answer did not come back
    // or was not one): the authority may have approved all the same, so the attempt is cancelled.
    if (first.value.kind === 'refused' && first.value.reason === 'offline') cancelQuietly(q);
    return first.value;
  };

  return {
    async machineId(proposed?: number) {
      const r = await within(
        settle(() => inner.machineId(proposed)),
        wordDeadline,
      );
      if (r === NO_ANSWER) return { ok: false, detail: `no answer within ${wordDeadline} ms` };
      if (!r.ok) return { ok: false, detail: r.detail };
      const v = r.value;
      return v.ok && (!Number.isInteger(v.machineId) || v.machineId < 1 || v.machineId > 0xffffff)
        ? { ok: false, detail: `machine id ${v.machineId} out of range` }
        : v;
    },
    registerIssue: (terms: TicketTerms) => word(() => inner.registerIssue(terms)),
    registerPrinted: (t: TicketAt) => word(() => inner.registerPrinted(t)),
    registerVoid: (t: TicketAt) => word(() => inner.registerVoid(t)),
    redeem,
    confirm: (requestId: RequestId, t: TicketAt) => word(() => inner.confirm(requestId, t)),
    cancel: (requestId: RequestId, t: TicketAt) => word(() => inner.cancel(requestId, t)),
  };
}
