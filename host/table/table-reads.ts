import type { CardCode } from '../../engine/cards/card.js';
import { tableExtras, type TableExtras } from '../../engine/games.js';
import type { CoupSummary, GameDefinition, ProgressiveView } from '../../engine/table/game.js';
import { betweenRounds, cueOf, expectsCard, hasBets, type DealerCue } from '../../engine/table/queries.js';
import type { TableState } from '../../engine/table/state.js';
import {
  idleStationBetting,
  stationInputs,
  stationProjector,
  tableExtrasInputs,
  TABLE_EXTRAS_BY_CONTENT,
  type RoundViewData,
  type StadiumView,
  type StationInputs,
  type IdleBettings,
  type SpotView,
  type StationBettingView,
  type StationTableView,
  type TableExtrasInputs,
} from '../../engine/table/views.js';
import { cardsLeftInOldShoe, holdStateOf } from './hold-state.js';
import type { HoldState, TableReads } from './live-table.js';
import { memoOnInputs } from './memo-on-inputs.js';
import { tableViews, type TableViews } from './table-views.js';

/**
 * The table's read side (issue 53): every projection the screens, the service pages and the
 * devices read, each of the state as it stands once the commands waiting for their group commit
 * are committed (`current` settles them), the costly ones memoised. The runtime owns one and
 * hands it out as `reads`; nothing here changes the table.
 */
export class TableReadModel<S, R> implements TableReads {
  /** The round and stadium views, each built again only when a field of the state it read was replaced (table-views.ts). */
  private readonly views: TableViews<S, R>;
  /** The table display's own parts, memoised on what they are declared to read (engine/table/views.ts `TableExtrasInputs`). */
  private readonly extras: (inputs: TableExtrasInputs) => TableExtras;
  private inputs: { of: TableState<S, R>; inputs: StationInputs } | null = null;
  /** Every station's own part of the state now, with what they share worked out once for the state (engine/table/views.ts). */
  private projector: { of: TableState<S, R>; project: (station: number) => StationTableView } | null = null;
  /** The spots each kind of station is offered, and the idle stations' betting part, kept while the table's parameters and game stand (the same objects, so encoded once). */
  private spots: { params: TableState<S, R>['params']; game: GameDefinition<S, R>; spots: Map<string, SpotView[]>; idle: IdleBettings } | null = null;

  constructor(
    private readonly game: GameDefinition<S, R>,
    private readonly current: () => TableState<S, R>,
  ) {
    this.views = tableViews(game);
    this.extras = memoOnInputs((i: TableExtrasInputs) => tableExtras(i, game), TABLE_EXTRAS_BY_CONTENT);
  }

  /**
   * The public round, built again only when what it shows changed: a chip on a spot, a credit or
   * a fault gate leaves it (and every view that holds it) as it was.
   */
  view(): RoundViewData {
    return this.views.round(this.current());
  }

  /** The table display's parts, built again only when one of their declared inputs moved (the roads are the costly part). */
  tableExtras(seats: number): TableExtras {
    return this.extras(tableExtrasInputs(this.current(), this.game, seats));
  }

  /** The current shoe's coups (baccarat: what its roads are laid out from), the same array until a coup is added; undefined for a game without roads. */
  coups(): readonly CoupSummary[] | undefined {
    return this.game.screens.coups?.(this.current().shoe);
  }

  station(station: number): StationTableView {
    const s = this.current();
    if (this.projector?.of !== s) {
      const spots = this.spotsOf(s);
      this.projector = { of: s, project: stationProjector(s, this.game, this.stationInputs(), spots.spots, spots.idle) };
    }
    return this.projector.project(station);
  }

  /** The betting part `station(station)` has for a station with nothing on the table (`isIdle`), without projecting the rest. */
  idleBetting(station: number): StationBettingView {
    const s = this.current();
    const spots = this.spotsOf(s);
    return idleStationBetting(s, this.game, station, spots.spots, spots.idle);
  }

  /** The spots and idle betting parts kept while the table's parameters and game stand. */
  private spotsOf(s: TableState<S, R>): { spots: Map<string, SpotView[]>; idle: IdleBettings } {
    if (this.spots?.params !== s.params || this.spots.game !== this.game) this.spots = { params: s.params, game: this.game, spots: new Map(), idle: new Map() };
    return this.spots;
  }

  progressive(): ProgressiveView | null {
    const s = this.current();
    return this.game.screens.progressive?.(s.shoe, s.round) ?? null;
  }

  stationInputs(): StationInputs {
    const s = this.current();
    if (this.inputs?.of === s) return this.inputs.inputs;
    const inputs = stationInputs(s, this.game);
    this.inputs = { of: s, inputs };
    return inputs;
  }

  stadium(): StadiumView | null {
    return this.views.stadium(this.current());
  }

  cue(): DealerCue | null {
    return cueOf(this.current(), this.game);
  }

  expectsCard(): boolean {
    return expectsCard(this.current(), this.game);
  }

  hasBets(station: number): boolean {
    return hasBets(this.current(), station);
  }

  betweenRounds(): boolean {
    return betweenRounds(this.current());
  }

  holdState(): HoldState | null {
    return holdStateOf(this.current(), this.game);
  }

  cardsLeftInOldShoe(): CardCode[] | null {
    return cardsLeftInOldShoe(this.current(), this.game);
  }
}
