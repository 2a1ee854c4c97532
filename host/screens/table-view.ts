import type { Language, StationTransfers, TableState as TableView } from '../../protocol/index.js';
import { isDemonstration } from '../config/authorisation.js';
import type { ProgressiveView } from '../../engine/table/game.js';
import type { TableState } from '../../engine/table/state.js';
import type { TableExtras } from '../../engine/games.js';
import type { RoundViewData, StadiumView } from '../../engine/table/views.js';
import type { TableConfig } from '../config/table-config.js';
import type { StationGate } from '../floor/station-gates.js';
import type { LiveTable } from '../table/runtime.js';

/** What the table display's and the stations' views are projected from. */
export interface ViewSources {
  readonly config: TableConfig;
  readonly table: LiveTable;
  /** The faults and handpays, once attached. */
  readonly floor: StationGate | null;
  /** The transfers with peer tables, once attached: a remote station's own view lists its own. */
  readonly transfers?: { transfersOf(station: number): StationTransfers } | null;
}

type Floor = NonNullable<ViewSources['floor']>;

/**
 * Everything the table display's view is built from, declared once: `tableView` takes this record
 * and the table's fixed configuration, nothing else, and the hub's memo compares exactly these
 * fields (host/table/memo-on-inputs.ts), those the sources make anew on each read by content.
 */
export interface TableViewInputs {
  readonly language: Language;
  readonly round: RoundViewData;
  readonly limits: TableState<unknown, unknown>['params']['limits'];
  readonly extras: TableExtras;
  readonly stadium: StadiumView | null;
  /** The table's own faults (absent before the floor is attached). */
  readonly tilts: ReturnType<Floor['notices']> | undefined;
  readonly progressive: ProgressiveView | null;
  readonly lastHit: TableState<unknown, unknown>['lastJackpotHit'];
  readonly jackpotStopped: boolean;
}

/** The fields of `TableViewInputs` made anew on each read: compared by content, the rest by identity. */
export const TABLE_VIEW_BY_CONTENT = ['tilts', 'progressive'] as const satisfies readonly (keyof TableViewInputs)[];

export function tableViewInputs({ config, table, floor }: ViewSources, language: Language): TableViewInputs {
  const s = table.state;
  return {
    language,
    round: table.reads.view(),
    limits: s.params.limits,
    extras: table.reads.tableExtras(config.seats),
    stadium: table.reads.stadium(),
    tilts: floor ? floor.notices(null) : undefined,
    progressive: table.reads.progressive(),
    lastHit: s.lastJackpotHit,
    jackpotStopped: (s.faults.jackpotStopped ?? null) !== null,
  };
}

/** The table display's view: the table's state as the felt-side screen shows it. */
export function tableView(c: TableConfig, i: TableViewInputs): TableView {
  const { extras, stadium } = i;
  return {
    kind: 'table',
    tableId: c.tableId,
    game: c.game,
    profile: c.profile,
    currency: c.currency,
    limits: i.limits,
    language: i.language,
    seats: extras.seats,
    round: i.round,
    ...(i.tilts ? { tilts: i.tilts } : {}),
    bets: extras.bets,
    presentation: extras.presentation,
    ...(extras.lastRound ? { lastRound: true } : {}),
    ...(extras.roads ? { roads: extras.roads } : {}),
    ...(extras.history ? { history: extras.history } : {}),
    ...(extras.streaks ? { streaks: extras.streaks.map((x) => ({ seat: x.seat, wins: x.wins, open: x.open.map((o) => ({ ...o })) })) } : {}),
    ...(stadium ? { stadium } : {}),
    ...(isDemonstration(c) ? { demonstration: true as const } : {}),
    ...jackpotView(i.progressive, i.lastHit, i.jackpotStopped),
  };
}

/** The progressive's pools, its last award and its gate (nothing where the table plays none). */
export function jackpotView(p: ProgressiveView | null, hit: TableViewInputs['lastHit'], stopped: boolean): Pick<TableView, 'jackpot'> {
  if (!p) return {};
  return {
    jackpot: {
      reference: p.reference,
      stake: p.stake,
      levels: p.levels.map((l) => ({ level: l.level, pool: l.pool })),
      ...(hit ? { lastHit: { roundId: hit.roundId, seat: hit.seat, combination: hit.combination, level: hit.level, amount: hit.amount } } : {}),
      stopped,
    },
  };
}
