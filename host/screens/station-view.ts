import { isDemonstration } from '../config/authorisation.js';
import type { Language, StationOwnState, StationRecallRound, StationState, StationTicket, StationTransfers } from '../../protocol/index.js';
import { isRemote } from '../../engine/table/state.js';
import { stationKey, type SharedVersions } from './station-reads.js';
import type { ViewSources } from './table-view.js';
import type { StationGate } from '../floor/station-gates.js';

/** What a station's own part shows besides the table's state: its recall and the table's pay table (each the same array while it stands). */
export interface StationExtras {
  /** The station's recall: its own part says only how many rounds and which version (the list is asked for apart). */
  readonly recall: StationRecallRound[];
  readonly recallVersion: number;
  readonly payTable: StationState['payTable'];
  /** Its own last tickets out and in (the same array while they stand); none: not sent. */
  readonly tickets: StationTicket[];
}

/** A station's own part of its view (the public parts, the round and the panel, are sent apart). */
export function stationOwnView(src: ViewSources, station: number, language: Language, extras: StationExtras): StationOwnState {
  const { config: c, table, floor } = src;
  const transfers = remoteTransfers(src, station);
  const cfg = c.stations.find((s) => s.station === station);
  if (!cfg && !isRemote(table.state.params, station)) throw new Error(`no station ${station} at this table`);
  const own = table.reads.station(station);
  const p = table.reads.progressive();
  const jackpot = p ? { stake: p.stake, stopped: (table.state.faults.jackpotStopped ?? null) !== null } : null;
  // A fault or a pending handpay closes this station's betting even while the table's is open.
  const open = own.betting.open && !floor?.refuse(station, 'place-bet');
  return {
    kind: 'station',
    station,
    ...(cfg ? { seat: cfg.seat } : {}),
    game: c.game,
    currency: c.currency,
    limits: table.state.params.limits,
    language,
    credit: own.credit,
    // The projection's own object when the floor closes nothing (an idle station's is every idle station's: encoded once).
    betting: open === own.betting.open ? own.betting : { ...own.betting, open },
    decision: own.decision,
    ...(floor ? { tilts: floor.notices(station), cashout: floor.cashout(station) } : {}),
    recalled: { rounds: extras.recall.length, version: extras.recallVersion },
    payTable: extras.payTable,
    presentation: table.game.presentation,
    ...(jackpot ? { jackpot: { stake: jackpot.stake, stopped: jackpot.stopped } } : {}),
    ...(isDemonstration(c) ? { demonstration: true as const } : {}),
    ...(transfers ? { transfers } : {}),
    ...(extras.tickets.length > 0 ? { tickets: extras.tickets } : {}),
  };
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
  return [
    language,
    ...stationKey(table.state, table.reads.stationInputs(), station, shared),
    // The same array while the floor has not spoken (compared by identity), else compared element by element.
    reads.floorWord,
    reads.recall,
    reads.tickets,
    JSON.stringify(remoteTransfers(src, station)),
  ];
}
