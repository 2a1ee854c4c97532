import { cardCode, type Card } from '../cards/card.js';
import type { CardCue, CorrectionRule, DecisionDue, GameDefinition, Pending } from './game.js';
import { stationAt, type TableState } from './state.js';

// Read-only questions about a table state. Pure: the screens' projections, the shell and the
// step functions all ask the same ones.

/** What the dealer must do next, shown on the table display. */
export type DealerCue =
  CardCue | { readonly kind: 'decision'; readonly seat: number } | { readonly kind: 'shuffle' } | { readonly kind: 'jackpot-unpaid'; readonly seat: number };

export function pendingOf<S, R>(s: TableState<S, R>, game: GameDefinition<S, R>): Pending | null {
  return s.round !== null && s.phase === 'dealing' ? game.round.pending(s.shoe, s.round) : null;
}

export function cueOf<S, R>(s: TableState<S, R>, game: GameDefinition<S, R>): DealerCue | null {
  if (s.hold) return null;
  // Portugal rule 49: the winner's cards stay on the table until the jackpot is paid.
  if (s.jackpotUnpaid && s.phase === 'results') return { kind: 'jackpot-unpaid', seat: s.jackpotUnpaid.seat };
  if (s.needsShuffle) return { kind: 'shuffle' };
  if (s.phase === 'dealing' && s.round !== null) {
    const p = game.round.pending(s.shoe, s.round);
    if (p.kind === 'card') return p.cue;
    if (p.kind === 'decision') return { kind: 'decision', seat: p.seat };
    return null;
  }
  return game.shoe.shoeCue(s.shoe);
}

/**
 * Whether the table expects a card from the shoe now (the dealer is cued for one). Otherwise —
 * betting, a decision, results, a hold, a halt, a shuffle due — the shoe's gate stays locked
 * where the device has one.
 */
export function expectsCard<S, R>(s: TableState<S, R>, game: GameDefinition<S, R>): boolean {
  return !s.hold && !s.faults.halted && cueOf(s, game)?.kind === 'card';
}

export function creditOf(s: TableState<unknown, unknown>, station: number): number {
  return s.credits[station] ?? 0;
}

/** Credit a station may still bet: its meter less what is on its spots. */
export function available(s: TableState<unknown, unknown>, station: number): number {
  return availableWith(
    s,
    station,
    s.chips.filter((c) => c.station === station),
  );
}

/** `available` from the station's own chips, already picked out (a stadium's projection groups them once a state). */
export function availableWith(s: TableState<unknown, unknown>, station: number, ownChips: readonly { readonly amount: number }[]): number {
  let onSpots = 0;
  for (const c of ownChips) onSpots += c.amount;
  return creditOf(s, station) - onSpots;
}

/**
 * The stations a pending decision is due from: the seat's, or a bettor behind's (Art. 20); on the
 * stadium box, every remote station that has still to decide for its own bet.
 */
export function deciderStations(s: TableState<unknown, unknown>, p: DecisionDue): readonly number[] {
  if (p.decider.kind === 'stadium') return p.decider.stations.map((x) => x.station);
  const station = p.decider.kind === 'behind' ? p.decider.station : stationAt(s.params, p.seat);
  return station !== undefined ? [station] : [];
}

/** Whether `station` is one the pending decision is due from. */
export function decidesNow(s: TableState<unknown, unknown>, p: DecisionDue, station: number): boolean {
  return p.decider.kind === 'stadium' ? p.decider.stations.some((x) => x.station === station) : deciderStations(s, p)[0] === station;
}

/** Whether betting is open to new chips at all (a station's own faults aside). */
export function bettingOpen(s: TableState<unknown, unknown>): boolean {
  return s.phase === 'betting' && !s.hold && !s.needsShuffle && !s.faults.newBetsStopped && !s.faults.halted;
}

/** Whether the station has chips on its spots or bets in the round in play (no cash-out then). */
export function hasBets(s: TableState<unknown, unknown>, station: number): boolean {
  if (s.chips.some((c) => c.station === station)) return true;
  return (s.phase === 'dealing' || s.hold !== null) && s.placed.some((p) => p.station === station);
}

/** No round in play and no chips on any spot: a configuration change may take effect. */
export function betweenRounds(s: TableState<unknown, unknown>): boolean {
  if (s.hold) return false;
  return s.phase === 'results' || (s.phase === 'betting' && s.chips.length === 0);
}

/** How many more copies of `card` the shoe may still hold. */
export function remaining(s: TableState<unknown, unknown>, decks: number, card: Card): number {
  return decks - (s.out[cardCode(card)] ?? 0);
}

/**
 * The corrections the game's text has for the hold in force: each with its article, or the article
 * that forbids it (the card stands). None: a void is the only resolution.
 */
export function correctionsFor<S, R>(s: TableState<S, R>, game: GameDefinition<S, R>): readonly CorrectionRule[] {
  const hold = s.hold;
  if (!hold) return [];
  return game.rules.corrections.filter((c) => c.holds.includes(hold.reason));
}
