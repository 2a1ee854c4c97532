import type { TableState } from '../../engine/table/state.js';
import type { StationInputs } from '../../engine/table/views.js';
import { sameDeps } from './same-deps.js';

/**
 * How a station's own part reads a field of the table's state: `whole` (every station sees the
 * same), `own` (each station its share: its credit, its entries of the list), `deciding` (only while a
 * decision is due from it: the round in play moves with every card, and a station reads it to
 * offer a decision; its bets not followed are its own share of it at any time).
 */
type Field = keyof TableState<unknown, unknown>;
/** The fields a station reads as its own share, each with its way of taking it (`ownShare`). */
type OwnField = 'credits' | 'chips' | 'placed' | 'unplayed' | 'results';
type Read = readonly [Exclude<Field, OwnField>, 'whole' | 'deciding'] | readonly [OwnField, 'own'];

/**
 * What a station's own part reads of the table's state, declared once. The hub's two memo keys
 * follow from it: the stations' key (has anything any station reads moved? if not, none of
 * them is looked at) and each station's own deps. `station-reads.test.ts` checks that the
 * station's projection and its inputs read no field of the state missing here, so a field added
 * to the state and read by a station's view cannot be forgotten in the keys.
 */
export const STATION_READS: readonly Read[] = [
  ['params', 'whole'],
  ['credits', 'own'],
  ['chips', 'own'],
  ['placed', 'own'],
  ['unplayed', 'own'],
  ['results', 'own'],
  ['phase', 'whole'],
  ['hold', 'whole'],
  ['needsShuffle', 'whole'],
  ['faults', 'whole'],
  ['round', 'deciding'],
  ['countdown', 'deciding'],
  // The game's shoe: read to know which decision is due and what it offers.
  ['shoe', 'deciding'],
];

/** Everything of the table's state any station's own part is read from (compared by identity, arrays element by element). */
export function stationsKey(s: TableState<unknown, unknown>, own: StationInputs): unknown[] {
  const deciding = own.deciders.size > 0;
  return STATION_READS.flatMap(([field, share]) => {
    if (share !== 'deciding') return [s[field]];
    // The round's own share, at any time: every station's bets not followed (the same entries while they stand).
    const always = field === 'round' ? [[...own.notFollowed.values()].flat()] : [];
    return [deciding ? s[field] : null, ...always];
  });
}

type State = TableState<unknown, unknown>;
type SharedField = Exclude<Field, OwnField>;
// The declaration split once by share: each change compares the shared fields once for every station.
const WHOLE: readonly SharedField[] = STATION_READS.flatMap((r) => (r[1] === 'whole' ? [r[0]] : []));
const DECIDING: readonly SharedField[] = STATION_READS.flatMap((r) => (r[1] === 'deciding' ? [r[0]] : []));
const OWN: readonly OwnField[] = STATION_READS.flatMap((r) => (r[1] === 'own' ? [r[0]] : []));
/** Whether the round is read (its own share, every station's bets not followed, is then read at any time). */
const READS_ROUND = DECIDING.includes('round');

/**
 * The fields every station reads alike (`whole`, and `deciding` for the stations a decision is due
 * from), looked at once per state of the table, not once per station: each group has a version,
 * new when any of its fields is no longer the same value. A station's own deps hold the versions
 * (`stationKey`), so a station compares two numbers where it compared every shared field.
 */
export class SharedReads {
  private of: State | null = null;
  private readonly whole = { fields: WHOLE, values: [] as unknown[], version: 0 };
  private readonly deciding = { fields: DECIDING, values: [] as unknown[], version: 0 };

  /** The versions for the state now (compared again only when the table's state is another). */
  at(s: State): { whole: number; deciding: number } {
    if (s !== this.of) {
      this.of = s;
      for (const group of [this.whole, this.deciding]) {
        if (group.values.length === group.fields.length && group.fields.every((f, i) => s[f] === group.values[i])) continue;
        group.values = group.fields.map((f) => s[f]);
        group.version++;
      }
    }
    return { whole: this.whole.version, deciding: this.deciding.version };
  }
}

/**
 * What one station's own part is read from of the table's state: the shared fields' versions
 * (`shared`, from `SharedReads.at`; the deciding fields' only while a decision is due from the
 * station), then its own share of each `own` field and of the round (its bets not followed).
 * Compared by identity, arrays element by element (`sameDeps`).
 */
export function stationKey(s: State, own: StationInputs, station: number, shared: { whole: number; deciding: number }): unknown[] {
  const decides = own.deciders.has(station);
  const key: unknown[] = [shared.whole, decides ? shared.deciding : null];
  for (const field of OWN) key.push(ownShare(s, own, field, station));
  // The round's own share, at any time (stationsKey's `always`).
  if (READS_ROUND) key.push(own.notFollowed.get(station));
  return key;
}

/** A station's share of a field it reads as its own: its credit, or its entries of the field's list. */
function ownShare(s: State, own: StationInputs, field: OwnField, station: number): unknown {
  return field === 'credits' ? s.credits[station] : own[field].get(station);
}

/** What the stations' own parts were looked at against at one change: the state, its lists grouped by station, the shared fields' versions. */
export interface StationsLook {
  readonly state: State;
  readonly inputs: StationInputs;
  readonly shared: { readonly whole: number; readonly deciding: number };
}

/**
 * The stations whose deps (`stationKey`) differ between two looks at the table's state, found
 * from what moved rather than by working out every station's key: null when a field every station
 * reads moved (`whole`: each station is looked at), else the stations whose own share moved (their
 * credit, their entries of a list, their bets not followed), whose being due a decision changed,
 * and, when the deciding fields moved, every station a decision is due from. A list or the
 * credits left the same object is not looked into. A bet at a stadium moves one station's chips:
 * one station, not a thousand keys.
 */
export function stationsMoved(before: StationsLook, now: StationsLook): Set<number> | null {
  if (before.shared.whole !== now.shared.whole) return null;
  const moved = new Set<number>();
  const was = before.inputs.deciders;
  const is = now.inputs.deciders;
  for (const station of is) if (!was.has(station) || before.shared.deciding !== now.shared.deciding) moved.add(station);
  for (const station of was) if (!is.has(station)) moved.add(station);
  for (const field of OWN) {
    if (before.state[field] === now.state[field]) continue;
    if (field === 'credits') movedCredits(before.state.credits, now.state.credits, moved);
    else movedEntries(before.inputs[field], now.inputs[field], moved);
  }
  if (READS_ROUND) movedEntries(before.inputs.notFollowed, now.inputs.notFollowed, moved);
  return moved;
}

/** The stations whose credit is another number (absent and 0 are told apart, as the key tells them). */
function movedCredits(a: State['credits'], b: State['credits'], moved: Set<number>): void {
  for (const k of Object.keys(a)) if (a[Number(k)] !== b[Number(k)]) moved.add(Number(k));
  for (const k of Object.keys(b)) if (!(k in a)) moved.add(Number(k));
}

/** The stations whose entries differ, compared as a station's key compares them (the same entries in the same order: `sameDeps`). */
function movedEntries(a: ReadonlyMap<number, readonly unknown[]>, b: ReadonlyMap<number, readonly unknown[]>, moved: Set<number>): void {
  for (const [station, xs] of a) if (!sameDeps([xs], [b.get(station)])) moved.add(station);
  for (const station of b.keys()) if (!a.has(station)) moved.add(station);
}
