import type { BaccaratCoup } from './baccarat/table-game.js';
import { baccaratTableGame } from './baccarat/table-game.js';
import type { ShoeSession } from './baccarat/shoe-session.js';
import { blackjackTableGame, type BlackjackTableRound, type BlackjackTableShoe } from './blackjack/table-game.js';
import type { GameDefinition } from './table/game.js';
import type { GameKind } from './table/vocabulary.js';
import type { WarCoup } from './war/coup.js';
import { warTableGame, type WarTableShoe } from './war/table-game.js';

/** Any one of the games, with its own state types. */
export type AnyTableGame =
  GameDefinition<BlackjackTableShoe, BlackjackTableRound> | GameDefinition<ShoeSession, BaccaratCoup> | GameDefinition<WarTableShoe, WarCoup>;

/**
 * The definition of a game under a rule profile (and, for blackjack, the table's authorised
 * options): the one place the engine lists its games.
 */
export function tableGame(kind: GameKind, profile: string, options: Readonly<Record<string, unknown>> = {}): AnyTableGame {
  switch (kind) {
    case 'blackjack':
      return blackjackTableGame(profile, options);
    case 'baccarat':
      return baccaratTableGame(profile);
    case 'war':
      return warTableGame(profile);
  }
}

/** Runs `open` with the game's definition, keeping its state types (for code generic over the game). */
export function withTableGame<T>(
  kind: GameKind,
  profile: string,
  options: Readonly<Record<string, unknown>>,
  open: <S, R>(game: GameDefinition<S, R>) => T,
): T {
  switch (kind) {
    case 'blackjack':
      return open(blackjackTableGame(profile, options));
    case 'baccarat':
      return open(baccaratTableGame(profile));
    case 'war':
      return open(warTableGame(profile));
  }
}
