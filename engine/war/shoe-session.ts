/**
 * The shoe around «Desafio ao Casino» coups, for the live table: with a manual shoe (Art. 2 n.1)
 * the cut card sits about twelve cards from the end; when the shoe reports it, the coup in
 * progress is finished and the cards are reshuffled before the next one. With the automatic
 * shuffler-dealer (Art. 2 n.2) there is no cut card: the machine deals every coup.
 */
import type { WarProfile } from './profiles.js';

export interface WarShoe {
  readonly shuffling: WarProfile['shuffling'];
  readonly cutCardOut: boolean;
  /** Coups dealt from this shoe. */
  readonly coups: number;
}

export function newWarShoe(profile: Pick<WarProfile, 'shuffling'>): WarShoe {
  return { shuffling: profile.shuffling, cutCardOut: false, coups: 0 };
}

/** The reading shoe reports the cut card (ignored with the automatic shuffler, which has none). */
export function warCutCardOut(s: WarShoe): WarShoe {
  return s.shuffling === 'shoe' ? { ...s, cutCardOut: true } : s;
}

/** After a coup has settled: deal the next coup from this shoe, or shuffle a new one. */
export function warAfterCoup(s: WarShoe): { shoe: WarShoe; next: 'deal' | 'shuffle' } {
  if (s.cutCardOut) return { shoe: { ...s, cutCardOut: false, coups: 0 }, next: 'shuffle' };
  return { shoe: { ...s, coups: s.coups + 1 }, next: 'deal' };
}
