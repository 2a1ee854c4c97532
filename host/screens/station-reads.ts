import { bettingOpen } from '../../engine/table/queries.js';
import type { TableState } from '../../engine/table/state.js';
import type { StationInputs } from '../../engine/table/views.js';
import { sameDeps } from './same-deps.js';

/**
 * How a station's own part reads a field of the table's state: `whole` (every station sees the
 * same), `own` (each station its share: its credit, its entries of the list), `deciding` (only while a
 * decision is due from it: the round in play and the shoe move with every card, and a station reads
 * them to offer a decision; besides, each has an own share a station reads at any time, `ALWAYS`).
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
  // The game's shoe: read to know which decision is due and what it offers (at any time, the seat's streak marker: `ALWAYS`).
  ['shoe', 'deciding'],
];

/**
 * The own shares of the deciding fields a station reads at any time, as `StationInputs` holds them
 * by station: the round's, its bets not followed (the same entries while they stand, compared
 * entry by entry); the shoe's, its seat's winning-streak marker, which the round's last card
 * moves before its settlement (made anew each state, compared by content).
 */
type AlwaysShare = Extract<keyof StationInputs, 'notFollowed' | 'streaks'>;
const ALWAYS: Partial<Record<Field, AlwaysShare>> = { round: 'notFollowed', shoe: 'streaks' };

/** A station's share of an `ALWAYS` field, as its key compares it. */
function alwaysShare(own: StationInputs, share: AlwaysShare, station: number): unknown {
  if (share === 'notFollowed') return own.notFollowed.get(station);
  const streak = own.streaks.get(station);
  return streak ? JSON.stringify(streak) : undefined;
}

/** Every station's share of an `ALWAYS` field, as the stations' key compares it. */
function everyShare(own: StationInputs, share: AlwaysShare): unknown {
  return share === 'notFollowed' ? [...own.notFollowed.values()].flat() : JSON.stringify([...own.streaks]);
}

/** Everything of the table's state any station's own part is read from (compared by identity, arrays element by element). */
export function stationsKey(s: TableState<unknown, unknown>, own: StationInputs): unknown[] {
  const deciding = own.deciders.size > 0;
  // Loops, not callbacks, in what runs at every change: a closure made at every call is a new
  // function to V8, optimised again and again over a long run (issue 52).
  const key: unknown[] = [];
  for (const [field, share] of STATION_READS) {
    if (share !== 'deciding') {
      key.push(s[field]);
      continue;
    }
    key.push(deciding ? s[field] : null);
    // The field's own share read at any time (`ALWAYS`): every station's.
    const always = ALWAYS[field];
    if (always) key.push(everyShare(own, always));
  }
  return key;
}

type State = TableState<unknown, unknown>;
type SharedField = Exclude<Field, OwnField>;
// The declaration split once by share: each change compares the shared fields once for every station.
const WHOLE: readonly SharedField[] = STATION_READS.flatMap((r) => (r[1] === 'whole' ? [r[0]] : []));
const DECIDING: readonly SharedField[] = STATION_READS.flatMap((r) => (r[1] === 'deciding' ? [r[0]] : []));
const OWN: readonly OwnField[] = STATION_READS.flatMap((r) => (r[1] === 'own' ? [r[0]] : []));
/** The own fields read as a station's entries of a list (the credits are a number a station). */
const LISTS = OWN.filter((f): f is Exclude<OwnField, 'credits'> => f !== 'credits');
/** The `ALWAYS` shares of the deciding fields declared (each is then read at any time). */
const ALWAYS_READ: readonly AlwaysShare[] = DECIDING.flatMap((f) => ALWAYS[f] ?? []);

/**
 * What a station with nothing at the table reads of the `whole` fields: a station without a seat,
 * with no entry in any list it reads as its own (no chips, bets placed, unplayed, results or bets
 * not followed) and no decision due. Its own part is then its credit, its gate, the parameters'
 * spots and limits and whether betting is open: of the phase, the hold and the shuffle it reads
 * only that (`bettingOpen`), so a coup settling (dealing → results) leaves it as it was. At a
 * stadium most stations did not bet the coup: the settling card looks at the bettors alone.
 * `station-reads.test.ts` checks over played shoes that an idle station's own part is the same in
 * any two states these read alike.
 */
export const IDLE_READS: readonly (readonly [name: string, read: (s: State) => unknown])[] = [
  ['params', (s) => s.params],
  ['faults', (s) => s.faults],
  ['betting open', (s) => bettingOpen(s)],
];

/** A group of values read off the state, compared once per state: its version moves when one of them is another value. */
interface Group {
  readonly reads: readonly ((s: State) => unknown)[];
  values: unknown[];
  version: number;
}

const group = (reads: readonly ((s: State) => unknown)[]): Group => ({ reads, values: [], version: 0 });

/** Whether the group reads the same values off `s` as it holds. */
function readsAlike(g: Group, s: State): boolean {
  if (g.values.length !== g.reads.length) return false;
  let i = 0;
  for (const read of g.reads) if (read(s) !== g.values[i++]) return false;
  return true;
}

/** The versions of what the stations read alike, for one state (`SharedReads.at`). */
export interface SharedVersions {
  /** Every `whole` field: read by a station with anything at the table. */
  readonly whole: number;
  /** The `deciding` fields: read by a station a decision is due from. */
  readonly deciding: number;
  /** `IDLE_READS`: read by every station (it moves only when `whole` does). */
  readonly idle: number;
}

/**
 * The fields every station reads alike (`whole`, and `deciding` for the stations a decision is due
 * from), looked at once per state of the table, not once per station: each group has a version,
 * new when any of its fields is no longer the same value. A station's own deps hold the versions
 * (`stationKey`), so a station compares two numbers where it compared every shared field.
 */
export class SharedReads {
  private of: State | null = null;
  private readonly whole = group(WHOLE.map((f) => (s: State) => s[f]));
  private readonly deciding = group(DECIDING.map((f) => (s: State) => s[f]));
  private readonly idle = group(IDLE_READS.map(([, read]) => read));

  /** The versions for the state now (compared again only when the table's state is another). */
  at(s: State): SharedVersions {
    if (s !== this.of) {
      this.of = s;
      for (const g of [this.whole, this.deciding, this.idle]) {
        if (readsAlike(g, s)) continue;
        const values: unknown[] = [];
        for (const read of g.reads) values.push(read(s));
        g.values = values;
        g.version++;
      }
    }
    return { whole: this.whole.version, deciding: this.deciding.version, idle: this.idle.version };
  }
}

/** Whether a station reads only `IDLE_READS` of the shared fields: no seat, nothing of its own in any list, no decision due. */
export function isIdle(s: State, own: StationInputs, station: number): boolean {
  if (own.deciders.has(station) || own.notFollowed.has(station)) return false;
  for (const field of LISTS) if (own[field].has(station)) return false;
  for (const x of s.params.stations) if (x.station === station) return false;
  return true;
}

/**
 * What one station's own part is read from of the table's state: the shared fields' versions
 * (`shared`, from `SharedReads.at`: the idle reads' always, the whole fields' unless the station
 * is idle, the deciding fields' only while a decision is due from it), then its own share of each
 * `own` field and of the round and the shoe (its bets not followed, its seat's streak marker:
 * `ALWAYS`). Compared by identity, arrays element by element (`sameDeps`).
 */
export function stationKey(s: State, own: StationInputs, station: number, shared: SharedVersions): unknown[] {
  const decides = own.deciders.has(station);
  const key: unknown[] = [shared.idle, isIdle(s, own, station) ? null : shared.whole, decides ? shared.deciding : null];
  for (const field of OWN) key.push(ownShare(s, own, field, station));
  // The deciding fields' own shares, at any time (`ALWAYS`).
  for (const share of ALWAYS_READ) key.push(alwaysShare(own, share, station));
  return key;
}

/**
 * Whether a station's deps (`stationKey` at their head, host/screens/station-view.ts
 * `stationViewDeps`) say it is idle (`isIdle`): the `whole` fields' version is not in its key.
 */
export function idleByKey(deps: readonly unknown[]): boolean {
  return deps[1] === null;
}

/**
 * Whether two deps of a station (each headed by its `stationKey`) are the same but for the idle
 * reads' version, their first entry: then what moved for it is only what `IDLE_READS` reads, the
 * shared fields of its part, and an idle station's next part is its last one with those as they stand.
 */
export function sameButIdleReads(a: readonly unknown[], b: readonly unknown[]): boolean {
  return sameDeps(a, b, 1);
}

/** A station's share of a field it reads as its own: its credit, or its entries of the field's list. */
function ownShare(s: State, own: StationInputs, field: OwnField, station: number): unknown {
  return field === 'credits' ? s.credits[station] : own[field].get(station);
}

/** What the stations' own parts were looked at against at one change: the state, its lists grouped by station, the shared fields' versions. */
export interface StationsLook {
  readonly state: State;
  readonly inputs: StationInputs;
  readonly shared: SharedVersions;
}

/**
 * The stations whose deps (`stationKey`) differ between two looks at the table's state, found
 * from what moved rather than by working out every station's key: null when a field every station
 * reads moved (`IDLE_READS`: each station is looked at), else the stations whose own share moved
 * (their credit, their entries of a list, their bets not followed, their seat's streak marker),
 * whose being due a decision changed, when the deciding fields moved every station a decision is
 * due from, and when another `whole` field moved (the phase: a coup settling) every station not
 * idle at either look. A list or the credits left the same object is not looked into. A bet at a
 * stadium moves one station's chips: one station, not a thousand keys; a settling card the
 * stations with bets in the coup.
 */
export function stationsMoved(before: StationsLook, now: StationsLook): Set<number> | null {
  if (before.shared.idle !== now.shared.idle) return null;
  const moved = new Set<number>();
  if (before.shared.whole !== now.shared.whole) for (const look of [before, now]) notIdle(look, moved);
  const was = before.inputs.deciders;
  const is = now.inputs.deciders;
  for (const station of is) if (!was.has(station) || before.shared.deciding !== now.shared.deciding) moved.add(station);
  for (const station of was) if (!is.has(station)) moved.add(station);
  for (const field of OWN) {
    if (before.state[field] === now.state[field]) continue;
    if (field === 'credits') movedCredits(before.state.credits, now.state.credits, moved);
    else movedEntries(before.inputs[field], now.inputs[field], moved);
  }
  for (const share of ALWAYS_READ) {
    if (share === 'notFollowed') movedEntries(before.inputs.notFollowed, now.inputs.notFollowed, moved);
    else movedShares(before.inputs, now.inputs, share, moved);
  }
  return moved;
}

/** Every station not idle at a look (`isIdle`): the seated ones, and those with an entry in a list or a decision due. */
function notIdle({ state, inputs }: StationsLook, into: Set<number>): void {
  for (const x of state.params.stations) into.add(x.station);
  for (const field of LISTS) for (const station of inputs[field].keys()) into.add(station);
  for (const station of inputs.notFollowed.keys()) into.add(station);
  for (const station of inputs.deciders) into.add(station);
}

/** The stations whose share of an `ALWAYS` field compares otherwise (by `alwaysShare`). */
function movedShares(a: StationInputs, b: StationInputs, share: AlwaysShare, moved: Set<number>): void {
  for (const station of new Set([...a[share].keys(), ...b[share].keys()]))
    if (!sameDeps([alwaysShare(a, share, station)], [alwaysShare(b, share, station)])) moved.add(station);
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
