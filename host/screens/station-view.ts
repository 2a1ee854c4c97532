import { isDemonstration } from '../config/authorisation.js';
import {
  jsonEqual,
  type Language,
  type StationOwnState,
  type StationRecallRound,
  type StationState,
  type StationTicket,
  type StationTransfers,
} from '../../protocol/index.js';
import type { StationBettingView } from '../../engine/table/views.js';
import { isRemote, seatOf } from '../../engine/table/state.js';
import { stationKey, type SharedVersions } from './station-reads.js';
import type { ViewSources } from './table-view.js';
import type { StationGate } from '../floor/station-gates.js';

/** What a station's own part shows besides the table's state: its recall and its tickets (each the same array while it stands). */
export interface StationExtras {
  /** The station's recall: its own part says only how many rounds and which version (the list is asked for apart). */
  readonly recall: StationRecallRound[];
  readonly recallVersion: number;
  /** The oldest of its last rounds its recall leaves out to fit its one message (recall.ts `fitRecall`); 0: none. */
  readonly recallOmitted?: number;
  /** Its own last tickets out and in (the same array while they stand); none: not sent. */
  readonly tickets: StationTicket[];
}

/**
 * The fields of a station's own part that every station of the table shows alike: the
 * configuration's game and currency, the parameters' limits, the pay table and presentation of the
 * game, the progressive's chip. Worked out once per change of the table (`stationTablePart`).
 */
export type StationTablePart = Pick<StationOwnState, TableField>;
type TableField = 'game' | 'currency' | 'limits' | 'payTable' | 'presentation' | 'jackpot' | 'demonstration';

/**
 * The fields of a station's own part it may share with other stations, named once: the table's
 * (`StationTablePart`) and its betting part, which a station with nothing on the table shares with
 * every such station offered the same spots (engine/table/views.ts `IdleBettings`). Their keys in
 * the order the own part has them (`ownPartOf`), so what changed in them is what changed in the
 * part when nothing else did (host/screens/own-patches.ts `between`).
 */
export type SharedOwnFields = Pick<StationOwnState, TableField | 'betting'>;

/** The fields of a station's own part that are its own: its station and seat, language, credit, decision, floor notices, recall count, transfers, tickets. */
export type StationOwnFields = Omit<StationOwnState, TableField | 'betting' | 'kind'>;

/** The table's part of every station's own part, as it stands now (`payTable`: the hub's one copy of the game's). */
export function stationTablePart(src: ViewSources, payTable: StationState['payTable']): StationTablePart {
  const { config: c, table } = src;
  const p = table.reads.progressive();
  return {
    game: c.game,
    currency: c.currency,
    limits: table.state.params.limits,
    payTable,
    presentation: table.game.presentation,
    ...(p ? { jackpot: { stake: p.stake, stopped: (table.state.faults.jackpotStopped ?? null) !== null } } : {}),
    ...(isDemonstration(c) ? { demonstration: true as const } : {}),
  };
}

/** Whether two table parts show the same (each field the same value, or the same as JSON: the jackpot's is made anew). */
export function sameTablePart(a: StationTablePart, b: StationTablePart): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && (Reflect.get(a, k) === Reflect.get(b, k) || jsonEqual(Reflect.get(a, k), Reflect.get(b, k))));
}

/** The shared fields of a station's own part (`SharedOwnFields`), in the order the part has them. */
export function sharedOwnFields(table: StationTablePart, betting: StationBettingView): SharedOwnFields {
  return {
    game: table.game,
    currency: table.currency,
    limits: table.limits,
    betting,
    payTable: table.payTable,
    presentation: table.presentation,
    ...(table.jackpot ? { jackpot: table.jackpot } : {}),
    ...(table.demonstration ? { demonstration: true as const } : {}),
  };
}

/**
 * A station's own part from its own fields and its shared ones: the one place the part's fields
 * and their order are written (a screen is sent these bytes, whether the part was built whole or
 * made from its last one with the shared fields as they stand now).
 */
export function ownPartOf(own: StationOwnFields, shared: SharedOwnFields): StationOwnState {
  return {
    kind: 'station',
    station: own.station,
    ...(own.seat !== undefined ? { seat: own.seat } : {}),
    game: shared.game,
    currency: shared.currency,
    limits: shared.limits,
    language: own.language,
    credit: own.credit,
    betting: shared.betting,
    decision: own.decision,
    ...(own.tilts !== undefined ? { tilts: own.tilts } : {}),
    ...(own.cashout !== undefined ? { cashout: own.cashout } : {}),
    recalled: own.recalled,
    payTable: shared.payTable,
    presentation: shared.presentation,
    ...(shared.jackpot ? { jackpot: shared.jackpot } : {}),
    ...(shared.demonstration ? { demonstration: true as const } : {}),
    ...(own.transfers ? { transfers: own.transfers } : {}),
    ...(own.tickets ? { tickets: own.tickets } : {}),
  };
}

/** A station's betting part as its own part shows it: closed when the floor refuses its bets (a fault, a pending handpay), else the projection's own object. */
export function shownBetting(betting: StationBettingView, refused: boolean): StationBettingView {
  // The projection's own object when the floor closes nothing (an idle station's is every idle station's: encoded once).
  return refused && betting.open ? { ...betting, open: false } : betting;
}

/**
 * A station's own fields and its betting part as the table's projection and the floor have them now: its own part is
 * `ownPartOf` these and the table's part (`stationTablePart`), the public parts (the round and the panel) sent apart.
 */
export function stationOwnFields(
  src: ViewSources,
  station: number,
  language: Language,
  extras: StationExtras,
): { own: StationOwnFields; betting: StationBettingView } {
  const { config: c, table, floor } = src;
  const transfers = remoteTransfers(src, station);
  const cfg = c.stations.find((s) => s.station === station);
  if (!cfg && !isRemote(table.state.params, station)) throw new Error(`no station ${station} at this table`);
  const projected = table.reads.station(station);
  // The table's seat, not the file's: a round in play keeps the seats it was dealt with (engine/table/seat-change.ts).
  const seat = cfg ? (seatOf(table.state.params, station) ?? cfg.seat) : undefined;
  const own: StationOwnFields = {
    station,
    ...(seat !== undefined ? { seat } : {}),
    language,
    credit: projected.credit,
    decision: projected.decision,
    ...(floor ? { tilts: floor.notices(station), cashout: floor.cashout(station) } : {}),
    recalled: { rounds: extras.recall.length, version: extras.recallVersion, ...(extras.recallOmitted ? { omitted: extras.recallOmitted } : {}) },
    ...(transfers ? { transfers } : {}),
    ...(extras.tickets.length > 0 ? { tickets: extras.tickets } : {}),
  };
  // A fault or a pending handpay closes this station's betting even while the table's is open.
  return { own, betting: shownBetting(projected.betting, !!floor?.refuse(station, 'place-bet')) };
}

/** A remote station's transfers at a table with peers, once it has any (a seated station's credit never moves). */
function remoteTransfers({ table, transfers }: ViewSources, station: number): StationTransfers | null {
  if (!transfers || !isRemote(table.state.params, station)) return null;
  const t = transfers.transfersOf(station);
  return t.transfers.length > 0 ? t : null;
}

/**
 * What a station's own part reads of the floor (its notices, its cash-out, whether its bets are
 * refused), compared by content: faults and handpays come as new objects each time they are asked
 * for. It moves only when the floor says it changed (`StationGate.onChange`), so the hub keeps it
 * per station across changes of the table alone (`ViewHub`'s floor revision).
 */
export function stationFloorWord(floor: StationGate | null, station: number): readonly unknown[] {
  return [JSON.stringify(floor?.notices(station) ?? null), JSON.stringify(floor?.cashout(station) ?? null), floor?.refuse(station, 'place-bet')?.refusal];
}

/** What a station's own part is built from: its share of the table's state (station-reads.ts), the floor's word on it (`stationFloorWord`), its recall. */
export function stationViewDeps(
  src: ViewSources,
  station: number,
  language: Language,
  reads: { recall: StationRecallRound[]; tickets: StationTicket[]; floorWord: readonly unknown[] },
  shared: SharedVersions,
): unknown[] {
  const { table } = src;
  // Grouped by station once per state, the shared fields compared once per state: each station compares its own share and two versions.
  // The key first: its head is the shared fields' versions (`sameButIdleReads`).
  return [
    ...stationKey(table.state, table.reads.stationInputs(), station, shared),
    language,
    // The same array while the floor has not spoken (compared by identity), else compared element by element.
    reads.floorWord,
    reads.recall,
    reads.tickets,
    JSON.stringify(remoteTransfers(src, station)),
  ];
}
