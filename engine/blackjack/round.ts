import { cardCode, type Card, type CardCode } from '../cards/card.js';
import { handTotal } from './hand.js';
import { openRoundState, stepRound } from './round-step.js';
import type { Action, RoundEvent, RoundSetup, RoundState, StakeView } from './round-types.js';

export * from './round-types.js';

/**
 * One round of blackjack as data and functions. A round is a `RoundState` (plain data: its setup,
 * what happened, and what follows from it); each move below takes one and returns the next, or
 * throws a `RoundError` naming what the procedure refuses, leaving the state it was given as it
 * was. `expected` says what must happen next (which card for whom, or which decision with its
 * legal actions). Each move is one `stepRound` (round-step.ts) from the state it is given, never a
 * replay of the moves before it; the procedure itself: round-procedure.ts.
 */

/** A round opened on these bets (validated: a bet its catalogue or rules do not have is refused). */
export function openRound(setup: RoundSetup): RoundState {
  return openRoundState(setup);
}

/** A round rebuilt from its setup and events, e.g. from the journal after a restart. */
export function replayRound(setup: RoundSetup, log: readonly RoundEvent[]): RoundState {
  return log.reduce(stepRound, openRoundState(setup));
}

const next = stepRound;

/** The next card read from the shoe, placed where the procedure says it goes (`r.expected.target`). */
export function dealCard(r: RoundState, card: Card): RoundState {
  return next(r, { card });
}

/** A decision of the seat (or bettor) the round is waiting on. */
export function decideRound(r: RoundState, action: Action): RoundState {
  return next(r, { action });
}

/**
 * A card that must not count: exposed when it should not be (Art. 5 n.1 1)), drawn by the
 * dealer unduly and shown (Art. 6 1); rule 19), the dealer's second card turned while dealt
 * (rule 17). It leaves the shoe and goes to the discards; the round expects the same card as before.
 */
export function discardCard(r: RoundState, card: Card, why: string): RoundState {
  return next(r, { discard: card, why });
}

/**
 * Portugal rule 18: a card drawn against what the player asked, while still unseen, goes to the
 * next player who asks for a card (a hit or a double), or else to the dealer's next draw; a card
 * nobody takes is discarded at the end of the round.
 */
export function holdUnseen(r: RoundState, card: Card): RoundState {
  return next(r, { held: card });
}

/**
 * A supervisor voids the round: every bet of the round is returned. Lines already written are
 * replaced by returns; streak markers stay where they were. Voiding twice is once. Only an error in
 * dealing that cannot be rectified (`dealingError`) is Macau Art. 5 n.1 2)'s («Na impossibilidade
 * de rectificação do erro, são canceladas todas as cartas»): any other reason, and any reason under
 * Portugal (no rule voids a round), is the house's reading and its lines cite no article.
 */
export function voidRound(r: RoundState, why: string, dealingError = false): RoundState {
  return r.voided ? r : next(r, { void: why, ...(dealingError ? { dealingError: true as const } : {}) });
}

/** Every stake on a seat's hands now: a host charges each bettor behind the stake a double or split of theirs follows (Art. 20). */
export function stakesOf(r: RoundState, seat: number): readonly StakeView[] {
  return r.stakes.filter((s) => s.seat === seat);
}

/** The dealer's cards and total. */
export function dealerView(r: RoundState): { cards: CardCode[]; total: number; soft: boolean } {
  const t = handTotal(r.dealer);
  return { cards: r.dealer.map(cardCode), total: t.total, soft: t.soft };
}
