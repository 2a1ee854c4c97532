import { emptyIdMap, getById, setById, valuesOf, type IdMap } from './id-map.js';
import { keyOf, type TableId, type Transfer, type TransferEntry, type TransferId, type TransferRefusal } from '../../terms/transfer-terms.js';

// A host's side of every transfer it sent or received, as plain data, and the one function that
// moves it: `apply` of a journalled entry. The live state is only ever the fold of the journal,
// so a host killed at any instant and started again from its journal is exactly where it was.

/** A transfer this host debited. `offering`/`recalling` are open (asked again on every tick, unless disputed). */
export interface Outgoing {
  readonly transfer: Transfer;
  readonly phase: 'offering' | 'recalling' | 'completed' | 'reversed';
  /**
   * The terms the receiver said it took the open transfer on, other than the debit's: the
   * `terms-mismatch` alarm journalled with them (`claimed`) is the mark. Its credit stays in
   * flight for a person to settle (no host guesses who has it), it is asked about no more, and
   * the same lie again journals nothing. The receiver's "taken" on the debit's own terms, or its
   * "never took it", still closes it as any open transfer.
   */
  readonly disputed?: Transfer;
  /** Reversed on the receiver's `credit-limit`: the station's screen says why its credit came back. */
  readonly creditLimit?: true;
}

/** A transfer id another host named to this one: taken (credited) or refused for ever. */
export type Incoming =
  | { readonly kind: 'taken'; readonly transfer: Transfer }
  /** `offered`: the terms of the offer refused (none for a recall's refusal); `day`: the day it was refused on (`refusalDayOf`). */
  | { readonly kind: 'refused'; readonly id: TransferId; readonly reason: TransferRefusal; readonly offered?: Transfer; readonly day?: string };

/**
 * Each station this table has, and its home table (where its bill acceptor and credit belong:
 * this table's id, or a peer's). Only these stations' credit may arrive here, and only from
 * their home, or home from a table this one sent it to. Built from the table's configuration
 * and its peers' (`host/peers/host-transfers.ts`); never from what a peer says.
 */
export type StationHomes = Readonly<Record<number, TableId>>;

export interface TransferState {
  readonly self: TableId;
  /** The table's currency: a transfer in another is refused. */
  readonly currency: string;
  readonly homes: StationHomes;
  /**
   * The (station, table) pairs this host ever debited a station's credit for (a `transfer.out`),
   * keyed by `sentKey`: a peer may send a station homed here home only from a table it went to.
   */
  readonly sentTo: Readonly<Record<string, true>>;
  /** The highest serial this host issued (ids are never reused, across restarts too). */
  readonly lastSerial: number;
  readonly outgoing: IdMap<Outgoing>;
  readonly incoming: IdMap<Incoming>;
  /**
   * Per offering table (an id's origin, the only link that may name it here): the ids of its this
   * host took and refused. A link may have only so many refused a day beyond those taken
   * (receiver.ts, `SPARE_REFUSALS`): a refusal is a durable entry that spends the id for ever.
   * Refusals at the credit limit are counted apart, per day (`atLimit`, `AT_LIMIT_SPARE`).
   */
  readonly decided: Readonly<Record<string, Decided>>;
}

/**
 * How many ids of one origin this host took (`transfer.in`), refused on one day (`transfer.refuse`,
 * but at the credit limit: `refusedDay`), and the link's refusals at the credit limit of one day
 * (`atLimitDay`).
 */
export interface Decided {
  readonly taken: number;
  /**
   * Refusals but at the credit limit journalled on `refusedDay` (the day each is stamped with;
   * absent: stamped with none, by a build before the days or a step given no time, which count as
   * one day of their own). A refusal of another day starts the count again (receiver.ts
   * `SPARE_REFUSALS` says why).
   */
  readonly refused: number;
  readonly refusedDay?: string;
  /**
   * Refusals at the credit limit journalled on `atLimitDay` (the day each is stamped with, `day`;
   * absent: refusals stamped with none, journalled by a build before the days or by a step given no
   * time, which count as one day of their own). A refusal of another day starts the count again.
   */
  readonly atLimit: number;
  readonly atLimitDay?: string;
  /** Ids taken from the link since the first refusal at the limit of `atLimitDay` (each allows one more that day). */
  readonly takenOnDay: number;
  /** A refusal at the limit of `atLimitDay` reached `AT_LIMIT_NEAR` of the bound: the technician was told (receiver.ts). */
  readonly warned?: true;
}

/**
 * How many refusals at the credit limit a link may have journalled here a day beyond the ids this
 * host took from it that day (receiver.ts, `refusedAtLimit`, says why). Here so that the fold and
 * the receiver hold the same bound.
 */
export const AT_LIMIT_SPARE = 1_000;

/** The share of the day's bound at which a technician is told that an honest link is saturated (once a day, folded: a restart says it no more). */
export const AT_LIMIT_NEAR = 0.8;

/** The link's bound on refusals at the limit for the day `d` counts, and the count at which the technician is told. */
export function atLimitBound(d: Decided): { bound: number; near: number } {
  const bound = AT_LIMIT_SPARE + d.takenOnDay;
  return { bound, near: Math.ceil(bound * AT_LIMIT_NEAR) };
}

/**
 * The day a refusal is counted in: the UTC date of the host's clock (`now`, ms), taken as an
 * argument so the step stays pure (the fold reads the day stamped on the entry).
 */
export function refusalDayOf(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

/** The link's count of refusals at the limit as it stands on `day`: another day's counts nothing. */
export function atLimitOn(d: Decided, day: string | undefined): Decided {
  if (d.atLimitDay === day) return d;
  const { atLimitDay: _day, warned: _warned, ...rest } = d;
  return { ...rest, atLimit: 0, takenOnDay: 0, ...(day === undefined ? {} : { atLimitDay: day }) };
}

/** The link's count of the other refusals as it stands on `day`: another day's counts nothing. */
export function refusedOn(d: Decided, day: string | undefined): Decided {
  if (d.refusedDay === day) return d;
  const { refusedDay: _day, ...rest } = d;
  return { ...rest, refused: 0, ...(day === undefined ? {} : { refusedDay: day }) };
}

export function initialState(self: TableId, currency: string, homes: StationHomes): TransferState {
  return { self, currency, homes, sentTo: {}, lastSerial: 0, outgoing: emptyIdMap(), incoming: emptyIdMap(), decided: {} };
}

/** How many ids of the origin `link` this host took and refused. */
export function decidedFrom(state: TransferState, link: TableId): Decided {
  return Object.hasOwn(state.decided, link) ? (state.decided[link] ?? NONE_DECIDED) : NONE_DECIDED;
}

const NONE_DECIDED: Decided = { taken: 0, refused: 0, atLimit: 0, takenOnDay: 0 };

/** The key of a (station, table) pair in `sentTo`: only ever built, never read back. */
export function sentKey(station: number, to: TableId): string {
  return JSON.stringify([station, to]);
}

/** The station's home table, or undefined when this table has no such station. */
export function homeOf(state: TransferState, station: number): TableId | undefined {
  return Object.hasOwn(state.homes, station) ? state.homes[station] : undefined;
}

/** A journal that is not one this code wrote: an entry that closes what was never opened, an id taken twice. */
export class TransferJournalError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TransferJournalError';
  }
}

function outgoing(state: TransferState, id: TransferId, open: boolean): Outgoing {
  const o = getById(state.outgoing, id);
  if (!o) throw new TransferJournalError(`no transfer.out for ${keyOf(id)}`);
  if (open && (o.phase === 'completed' || o.phase === 'reversed')) throw new TransferJournalError(`${keyOf(id)} is already ${o.phase}`);
  return o;
}

function withOutgoing(state: TransferState, o: Outgoing): TransferState {
  return { ...state, outgoing: setById(state.outgoing, o.transfer.id, o) };
}

function withIncoming(state: TransferState, id: TransferId, i: Incoming): TransferState {
  const before = getById(state.incoming, id);
  if (before) throw new TransferJournalError(`${keyOf(id)} is already ${before.kind}`);
  return { ...state, incoming: setById(state.incoming, id, i), decided: { ...state.decided, [id.origin]: counted(decidedFrom(state, id.origin), i) } };
}

/**
 * The link's counts after one more id decided. A refusal at the credit limit is the station's state
 * here, not the link's doing: not counted against the link's allowance of refusals but apart, per
 * the day it is stamped with (receiver.ts, `refusedAtLimit`).
 */
function counted(d: Decided, i: Incoming): Decided {
  if (i.kind === 'taken') return { ...d, taken: d.taken + 1, takenOnDay: d.takenOnDay + 1 };
  if (i.reason !== 'credit-limit') {
    const on = refusedOn(d, i.day);
    return { ...on, refused: on.refused + 1 };
  }
  const on = atLimitOn(d, i.day);
  const next = { ...on, atLimit: on.atLimit + 1 };
  return next.atLimit >= atLimitBound(next).near ? { ...next, warned: true } : next;
}

/** The state after one journalled entry. Throws `TransferJournalError` for an entry this code could not have written. */
export function apply(state: TransferState, entry: TransferEntry): TransferState {
  switch (entry.type) {
    case 'transfer.out': {
      const t = entry.payload.transfer;
      if (t.from !== state.self || t.id.origin !== state.self) throw new TransferJournalError(`transfer.out ${keyOf(t.id)} is not from ${state.self}`);
      if (t.id.serial <= state.lastSerial) throw new TransferJournalError(`transfer.out ${keyOf(t.id)}: serial reused`);
      const k = sentKey(t.station, t.to);
      // Copied only for a pair not seen before (a station's first move to a table), so a step stays cheap.
      const sentTo = state.sentTo[k] ? state.sentTo : { ...state.sentTo, [k]: true as const };
      return { ...withOutgoing(state, { transfer: t, phase: 'offering' }), sentTo, lastSerial: t.id.serial };
    }
    case 'transfer.recall': {
      const o = outgoing(state, entry.payload.id, true);
      return withOutgoing(state, { ...o, phase: 'recalling' });
    }
    case 'transfer.complete': {
      const o = outgoing(state, entry.payload.transfer.id, true);
      return withOutgoing(state, { ...o, phase: 'completed' });
    }
    case 'transfer.reverse': {
      const o = outgoing(state, entry.payload.transfer.id, true);
      return withOutgoing(state, { ...o, phase: 'reversed', ...(entry.payload.reason === 'credit-limit' ? { creditLimit: true as const } : {}) });
    }
    case 'transfer.in':
      return withIncoming(state, entry.payload.transfer.id, { kind: 'taken', transfer: entry.payload.transfer });
    case 'transfer.refuse':
      return withIncoming(state, entry.payload.id, {
        kind: 'refused',
        id: entry.payload.id,
        reason: entry.payload.reason,
        ...(entry.payload.offered ? { offered: entry.payload.offered } : {}),
        ...(entry.payload.day !== undefined ? { day: entry.payload.day } : {}),
      });
    case 'transfer.alarm':
      return disputed(state, entry.payload);
  }
}

/**
 * A journalled `terms-mismatch` with the terms claimed, about an open transfer of this host's and
 * from its receiver's link, marks it disputed (the first only). Any other alarm changes nothing,
 * and so does one this code would not have journalled (an alarm is never a reason to refuse a journal).
 */
function disputed(state: TransferState, a: Extract<TransferEntry, { type: 'transfer.alarm' }>['payload']): TransferState {
  if (a.reason !== 'terms-mismatch' || !a.id || !a.claimed) return state;
  const o = getById(state.outgoing, a.id);
  if (!o || o.disputed || o.transfer.to !== a.link || o.phase === 'completed' || o.phase === 'reversed') return state;
  return withOutgoing(state, { ...o, disputed: a.claimed });
}

/** The state a journal folds to (a start, or a restart after a kill). */
export function fold(self: TableId, currency: string, homes: StationHomes, journal: Iterable<TransferEntry>): TransferState {
  let s = initialState(self, currency, homes);
  for (const e of journal) s = apply(s, e);
  return s;
}

/** A transfer this host debited, by id. */
export function outgoingOf(state: TransferState, id: TransferId): Outgoing | undefined {
  return getById(state.outgoing, id);
}

/** What this host decided for an id another named to it. */
export function incomingOf(state: TransferState, id: TransferId): Incoming | undefined {
  return getById(state.incoming, id);
}

/** Every transfer this host debited, in the order of their serials. */
export function outgoingTransfers(state: TransferState): Outgoing[] {
  return valuesOf(state.outgoing).sort((a, b) => a.transfer.id.serial - b.transfer.id.serial);
}

/** Every id this host decided (taken or refused), in no particular order. */
export function incomingDecisions(state: TransferState): Incoming[] {
  return valuesOf(state.incoming);
}
