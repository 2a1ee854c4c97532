import type { JackpotView, Language, TableState as TableView } from '../../protocol/index.js';
import type { TableConfig } from '../config/table-config.js';
import type { StationGate } from '../floor/station-gates.js';
import type { LiveTable } from '../table/runtime.js';

/** What the table display's and the stations' views are projected from. */
export interface ViewSources {
  readonly config: TableConfig;
  readonly table: LiveTable;
  /** The faults and handpays, once attached. */
  readonly floor: StationGate | null;
}

/** The table display's view: the table's state as the felt-side screen shows it. */
export function tableView({ config: c, table, floor }: ViewSources, language: Language): TableView {
  const s = table.state;
  const extras = table.tableExtras(c.seats);
  const stadium = table.stadium();
  return {
    kind: 'table',
    tableId: c.tableId,
    game: c.game,
    profile: c.profile,
    currency: c.currency,
    limits: s.params.limits,
    language,
    seats: extras.seats,
    round: table.view(),
    ...(floor ? { tilts: floor.notices(null) } : {}),
    bets: extras.bets,
    presentation: extras.presentation,
    ...(extras.lastRound ? { lastRound: true } : {}),
    ...(extras.roads ? { roads: extras.roads } : {}),
    ...(extras.history ? { history: extras.history } : {}),
    ...(extras.streaks ? { streaks: extras.streaks.map((x) => ({ seat: x.seat, wins: x.wins, open: x.open.map((o) => ({ ...o })) })) } : {}),
    ...(stadium ? { stadium } : {}),
    ...jackpotView(table),
  };
}

/** The progressive's pools, its last award and its gate, for the table display (nothing where the table plays none). */
export function jackpotView(table: LiveTable): { jackpot?: JackpotView } {
  const p = table.progressive();
  if (!p) return {};
  const s = table.state;
  const hit = s.lastJackpotHit;
  return {
    jackpot: {
      reference: p.reference,
      stake: p.stake,
      levels: p.levels.map((l) => ({ level: l.level, pool: l.pool })),
      ...(hit ? { lastHit: { roundId: hit.roundId, seat: hit.seat, combination: hit.combination, level: hit.level, amount: hit.amount } } : {}),
      stopped: (s.faults.jackpotStopped ?? null) !== null,
    },
  };
}

/** What the table display's view is built from: the parts of the table's and the floor's state it shows. */
export function tableViewDeps({ table, floor }: ViewSources, language: Language): unknown[] {
  const s = table.state;
  // The shoe holds the progressive's pools (a reset, a round's chips); its gate is in the faults.
  return [
    table.view(),
    language,
    s.params,
    s.shoe,
    s.shoeNo,
    s.history,
    table.stadium(),
    JSON.stringify(floor?.notices(null) ?? null),
    s.lastJackpotHit,
    s.faults,
  ];
}
