import type { PayLine } from './pay-line.js';
import type { BetId, PayItem } from './vocabulary.js';

/**
 * One bet as its game's catalogue states it, once: its spot (the id, worded `bet.<id>`), whether
 * it is one of the game's main bets or an additional bet, its pay-table lines (each worded
 * `help.item.<item>` and quoting the rule its settlement cites) and, in each game's own entry
 * type, how it is offered, limited, settled, voided and analysed. Everything else — the spots a
 * table offers, which wins are celebrated, the one-additional-bet rule, the help, the round's
 * void, the simulator and the exact calculators — reads the catalogue (docs/architecture.md,
 * "Adding a bet type").
 *
 * `P` is what the game resolves its pay table from (blackjack's rules, baccarat's profile).
 */
export interface BetEntry<P> {
  readonly id: BetId;
  /**
   * `main`: a bet of the game itself (blackjack's main bet, banker, player, war's bet);
   * `additional`: an additional bet (Macau 2009 Art. 13, baccarat's pairs): its wins are
   * celebrated, and a "one additional bet" rule counts it.
   */
  readonly kind: 'main' | 'additional';
  /** Whether the table offers the spot under these rules (an option of the profile). */
  offered(rules: P): boolean;
  /** The help's pay-table lines of the bet under these rules, in display order. */
  payLines(rules: P): readonly PayLine[];
}

/** The spots of a catalogue the rules offer, in the catalogue's spot order. */
export function offeredBets<P>(catalogue: readonly BetEntry<P>[], rules: P): BetId[] {
  return catalogue.filter((b) => b.offered(rules)).map((b) => b.id);
}

/** The additional bets of a catalogue (offered or not): what a win celebrates, what "one additional bet" counts. */
export function additionalBets<P>(catalogue: readonly BetEntry<P>[]): BetId[] {
  return catalogue.filter((b) => b.kind === 'additional').map((b) => b.id);
}

/** The catalogue entry of a bet id, or undefined where the game has no such bet. */
export function entryOf<P, E extends BetEntry<P>>(catalogue: readonly E[], id: string): E | undefined {
  return catalogue.find((b) => b.id === id);
}

/** The catalogue keys a bet is worded by: its spot's name and its help lines' items. */
export function betWords<P>(entry: BetEntry<P>, rules: P): { readonly name: `bet.${BetId}`; readonly items: readonly `help.item.${PayItem}`[] } {
  return { name: `bet.${entry.id}`, items: entry.payLines(rules).map((l) => `help.item.${l.item}` as const) };
}
