import { emptyIdMap, getById, setById, valuesOf, type IdMap } from './id-map.js';
import { keyOf, type TableId, type Transfer, type TransferEntry, type TransferId, type TransferRefusal } from '../../ledger/transfer-terms.js';

// A host's side of every transfer it sent or received, as plain data, and the one function that
// moves it: `apply` of a journalled entry. The live state is only ever the fold of the journal,
// so a host killed at any instant and started again from its journal is exactly where it was.

/** A transfer this host debited. `offering`/`recalling` are open (asked again on every tick). */
export interface Outgoing {
  readonly transfer: Transfer;
  readonly phase: 'offering' | 'recalling' | 'completed' | 'reversed';
}

/** A transfer id another host named to this one: taken (credited) or refused for ever. */
export type Incoming =
  { readonly kind: 'taken'; readonly transfer: Transfer } | { readonly kind: 'refused'; readonly id: TransferId; readonly reason: TransferRefusal };

export interface TransferState {
  readonly self: TableId;
  /** The table's currency: a transfer in another is refused. */
  readonly currency: string;
  /** The highest serial this host issued (ids are never reused, across restarts too). */
  readonly lastSerial: number;
  readonly outgoing: IdMap<Outgoing>;
  readonly incoming: IdMap<Incoming>;
}

export function initialState(self: TableId, currency: string): TransferState {
  return { self, currency, lastSerial: 0, outgoing: emptyIdMap(), incoming: emptyIdMap() };
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
  return { ...state, incoming: setById(state.incoming, id, i) };
}

/** The state after one journalled entry. Throws `TransferJournalError` for an entry this code could not have written. */
export function apply(state: TransferState, entry: TransferEntry): TransferState {
  switch (entry.type) {
    case 'transfer.out': {
      const t = entry.payload.transfer;
      if (t.from !== state.self || t.id.origin !== state.self) throw new TransferJournalError(`transfer.out ${keyOf(t.id)} is not from ${state.self}`);
      if (t.id.serial <= state.lastSerial) throw new TransferJournalError(`transfer.out ${keyOf(t.id)}: serial reused`);
      return { ...withOutgoing(state, { transfer: t, phase: 'offering' }), lastSerial: t.id.serial };
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
      return withOutgoing(state, { ...o, phase: 'reversed' });
    }
    case 'transfer.in':
      return withIncoming(state, entry.payload.transfer.id, { kind: 'taken', transfer: entry.payload.transfer });
    case 'transfer.refuse':
      return withIncoming(state, entry.payload.id, { kind: 'refused', id: entry.payload.id, reason: entry.payload.reason });
    case 'transfer.alarm':
      return state;
  }
}

/** The state a journal folds to (a start, or a restart after a kill). */
export function fold(self: TableId, currency: string, journal: Iterable<TransferEntry>): TransferState {
  let s = initialState(self, currency);
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
