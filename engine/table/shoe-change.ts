import type { Turn } from './turn.js';

// A new shoe: applied at once between rounds, or when the round that was dealt when it came ends.

/** The new shoe in play: the inventory empty, the shoe counted, the change journalled. */
export function applyNewShoe<S, R>(t: Turn<S, R>, sequence?: number): void {
  t.set({ out: {}, shoeDeferred: false, shoe: t.game.shoe.newShoe(t.state.shoe), shoeNo: t.state.shoeNo + 1 });
  t.write({ type: 'shoe.change', payload: { tableId: t.tableId, event: 'loaded', ...(sequence !== undefined ? { sequence } : {}) } });
}

/** A round ended while a new shoe waited: it is applied now. */
export function applyDeferredShoe<S, R>(t: Turn<S, R>): void {
  if (t.state.shoeDeferred) applyNewShoe(t);
}
