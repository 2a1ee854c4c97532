import type { TableState } from '../../engine/table/state.js';
import type { StationInputs } from '../../engine/table/views.js';

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

/** What one station's own part is read from of the table's state. */
export function stationKey(s: TableState<unknown, unknown>, own: StationInputs, station: number): unknown[] {
  const decides = own.deciders.has(station);
  return STATION_READS.flatMap((read) => {
    if (read[1] === 'own') return [ownShare(s, own, read[0], station)];
    const [field, share] = read;
    if (share === 'whole') return [s[field]];
    const always = field === 'round' ? [own.notFollowed.get(station)] : [];
    return [decides ? s[field] : null, ...always];
  });
}

/** A station's share of a field it reads as its own: its credit, or its entries of the field's list. */
function ownShare(s: TableState<unknown, unknown>, own: StationInputs, field: OwnField, station: number): unknown {
  return field === 'credits' ? s.credits[station] : own[field].get(station);
}
