import type { HandView } from './game.js';
import type { DecisionAction } from './vocabulary.js';

/** A decision as a seat's screen is asked it: the seat and hand, the legal actions, what a timeout takes. */
export interface DecisionAsked {
  readonly seat: number;
  readonly hand?: number;
  readonly legal: readonly DecisionAction[];
  readonly default: DecisionAction;
}

/** A hand as the screens see it (hidden cards `XX`). */
export type HandSeen = Pick<HandView, 'owner' | 'seat' | 'hand' | 'cards'>;

/**
 * How a simulated player decides at a game (engine/games.ts `decisionAdvisor`): the game's own
 * policy, so the host's autoplay names no game and no game's action.
 */
export interface DecisionAdvisor {
  choose(decision: DecisionAsked, hands: readonly HandSeen[]): DecisionAction;
}

/** A seeded chance the host passes in (true with probability `p`): the advisor draws nothing itself. */
export type Chance = (p: number) => boolean;
