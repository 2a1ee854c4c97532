import type { GameDefinition } from '../../engine/table/game.js';
import type { TableState } from '../../engine/table/state.js';
import { projectRound, projectStadium, type RoundViewData, type StadiumView } from '../../engine/table/views.js';
import { memoOnReads } from './memo-on-reads.js';

/** The table's shared views, each built again only when a field of the state it read was replaced. */
export interface TableViews<S, R> {
  round(state: TableState<S, R>): RoundViewData;
  stadium(state: TableState<S, R>): StadiumView | null;
}

export function tableViews<S, R>(game: GameDefinition<S, R>): TableViews<S, R> {
  return {
    round: memoOnReads((s: TableState<S, R>) => projectRound(s, game)),
    stadium: memoOnReads((s: TableState<S, R>) => projectStadium(s, game)),
  };
}
