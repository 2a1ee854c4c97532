import { withTableGame } from '../../engine/games.js';
import type { GameDefinition } from '../../engine/table/game.js';
import { tableOptions, type TableConfig } from '../config/table-config.js';

/** Runs `open` with the configured game's definition; its state types stay inside what `open` builds. */
export function openTableGame<T>(config: TableConfig, open: <S, R>(game: GameDefinition<S, R>) => T): T {
  return withTableGame(config.game, config.profile, tableOptions(config), open);
}
