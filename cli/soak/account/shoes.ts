// The shoes of a soak, from the journal: each shoe finished and replaced in play (followed by a
// round closed on the new shoe), and each time the table went on hold for a misread.
import type { EntryType, Payload } from '../../../ledger/index.js';

/**
 * Since the last shoe loaded: the cut card out (`cut`), a round closed with no start after it
 * (`played`); and whether that load was a change still waiting for a round on the new shoe (`loaded`).
 */
export interface ShoeWatch {
  changes: number;
  cut: boolean;
  played: boolean;
  loaded: boolean;
  holds: number;
}

export function newShoeWatch(): ShoeWatch {
  return { changes: 0, cut: false, played: false, loaded: false, holds: 0 };
}

/** One journal entry's part in the shoes' story. */
export function watchShoes(shoes: ShoeWatch, type: EntryType, p: Record<string, unknown>): void {
  if (type === 'round.settle' || type === 'round.void') {
    if (shoes.loaded) shoes.changes++;
    shoes.loaded = false;
    shoes.played = true;
  }
  if (type === 'power.reset') shoes.played = false; // the next load is the restarted host's fresh shoe, unless the cut card came first
  if (type === 'shoe.change') {
    const event = (p as Payload<'shoe.change'>).event;
    if (event === 'cut-card') shoes.cut = true;
    if (event === 'loaded') {
      shoes.loaded = shoes.loaded || shoes.cut || shoes.played;
      shoes.cut = false;
      shoes.played = false;
    }
  }
  if (type === 'misread') {
    const m = p as Payload<'misread'>;
    if (m.resolution === 'pending' && m.duringHold !== true) shoes.holds++;
  }
}
