import { PAYLOADS } from './entries.js';
import { unresolvedEscrows } from './floor-queries.js';
import type { EntryBody, JournalEntry, Ledger } from './ledger.js';
import { ticketsApprovedOpen } from './ticket-queries.js';
import { transfersOutInFlight } from './transfer-queries.js';

// The notes a station's acceptor was told to stack and that are not credited yet: from the host's
// "stack" (its `bill.escrow`, journalled before STACK is sent) to the credit point (`bill.credit`)
// or a return (`bill.return`). Such a note is the station's from the moment of that answer: past
// the unit's point of no return it is in the cashbox and is credited whatever the credit then
// makes (host/devices/credit-rule/verdict.ts), so whatever measures the station credit limit
// counts it (docs/sas.md, "The station credit limit").
//
// Kept in memory beside the ledger, per instance: read once from the journal (a restart with a
// note on its way finds it there), then followed entry by entry as this instance commits them
// (`onAppended`, called after the commit and before the append returns, so no reader ever sees a
// note both credited and on its way, or neither). O(1) a question: listing the open escrows from
// the journal at every question grew with the journal (3.7 ms at 20,000 notes).

interface OnTheirWay {
  /** Escrow seq → the note's station and amount (minor units). */
  readonly bySeq: Map<number, { station: number; amount: number }>;
  /** Station → the sum of its notes on their way. */
  readonly byStation: Map<number, number>;
}

const followed = new WeakMap<Ledger, OnTheirWay>();

function add(w: OnTheirWay, seq: number, station: number, amount: number): void {
  if (w.bySeq.has(seq)) return;
  w.bySeq.set(seq, { station, amount });
  w.byStation.set(station, (w.byStation.get(station) ?? 0) + amount);
}

function resolve(w: OnTheirWay, seq: number): void {
  const note = w.bySeq.get(seq);
  if (!note) return;
  w.bySeq.delete(seq);
  const left = (w.byStation.get(note.station) ?? 0) - note.amount;
  if (left > 0) w.byStation.set(note.station, left);
  else w.byStation.delete(note.station);
}

function follow(w: OnTheirWay, entries: readonly JournalEntry[]): void {
  for (const e of entries) {
    if (e.type === 'bill.escrow') {
      const p = PAYLOADS['bill.escrow'].parse((JSON.parse(e.body) as EntryBody).payload);
      add(w, e.seq, p.station, p.denomination);
    } else if (e.type === 'bill.credit' || e.type === 'bill.return') {
      // The ledger refused any credit or return whose escrowSeq is not an unresolved escrow of the same note (ledger/derive.ts).
      const p = PAYLOADS[e.type].parse((JSON.parse(e.body) as EntryBody).payload);
      if (p.escrowSeq !== undefined) resolve(w, p.escrowSeq);
    }
  }
}

function onTheirWay(ledger: Ledger): OnTheirWay {
  let w = followed.get(ledger);
  if (w) return w;
  w = { bySeq: new Map(), byStation: new Map() };
  const mine = w;
  // Subscribed and read in one synchronous step: no commit falls between the two.
  ledger.onAppended((entries) => follow(mine, entries));
  for (const e of unresolvedEscrows(ledger)) add(w, e.seq, e.station, e.denomination);
  followed.set(ledger, w);
  return w;
}

/**
 * The notes at `station` the host answered "stack" to and that are neither credited nor returned
 * (minor units). The first question of a ledger instance reads them from its journal once; every
 * later one is a map lookup. Another process's appends are not followed (the host alone journals notes).
 */
export function notesOnTheirWay(ledger: Ledger, station: number): number {
  return onTheirWay(ledger).byStation.get(station) ?? 0;
}

/**
 * What a station holds or has been promised, the measure of the station credit limit: its credit,
 * the notes on their way to its cashbox, and what may yet be credited to it whatever its meter says
 * then: every ticket the authority approved there and no end settles yet (the acceptor stacks it,
 * or a person settles one held when it jammed: each is credited at that point), and its credit
 * debited for a move to another table not yet completed (the receiver's refusal reverses it,
 * always: it is the player's money).
 */
export function creditHeld(ledger: Ledger, station: number): number {
  return ledger.credit(station) + notesOnTheirWay(ledger, station) + ticketsApprovedOpen(ledger, station) + transfersOutInFlight(ledger, station);
}
