import { stationAt, type TableParams } from './state.js';
import type { Turn } from './turn.js';

/**
 * A configuration that gives a seat with an open winning streak (Macau 2009 Art. 13 5)) to another
 * station, or to none (the stations' seats changed across a restart). The stake was paid from the
 * credit of the station that sat there and is held under it (ledger `held:<n>`), while the game
 * keeps the streak by seat: left so, the new station would play on a streak it never paid for and
 * the next settlement would name it for a stake it does not hold, while the station that paid could
 * never cash out unasked. The player who paid no longer plays that seat and chose nothing, so the
 * streak ends and its stake goes back to the credit that paid it, journalled with the configuration
 * (`held.return`, the house's reading: docs/rules/blackjack.md). Between rounds only: a round in
 * play keeps its seats' streaks (the game ends none then).
 */
export function endMovedStreaks<S, R>(t: Turn<S, R>, before: TableParams): void {
  const { shoe, screens } = t.game;
  if (!shoe.endStreaks || !screens.streaks) return;
  const after = t.state.params;
  const paidBy = new Map<number, number>();
  for (const { seat } of screens.streaks(t.state.shoe)) {
    const station = stationAt(before, seat);
    // A seat whose station stays keeps its streak; one that had none names nobody to give the stake back to.
    if (station !== undefined && station !== stationAt(after, seat)) paidBy.set(seat, station);
  }
  if (paidBy.size === 0) return;
  const r = shoe.endStreaks(t.state.shoe, [...paidBy.keys()]);
  if (r.ended.length === 0) return;
  t.set({ shoe: r.shoe });
  for (const { seat, amount } of r.ended) {
    const station = paidBy.get(seat);
    if (station === undefined || amount <= 0) continue;
    const now = stationAt(after, seat);
    const reason =
      `seat ${seat} is ${now === undefined ? 'no station' : `station ${now}`}'s now: the winning streak station ${station} ` +
      `bet on it ends and its held stakes go back to that credit (${r.rule})`;
    t.write({ type: 'held.return', txId: `${t.state.roundId}:seat-change:${station}`, payload: { tableId: t.tableId, station, amount, reason } });
    t.credit(station, amount);
    t.log('warn', 'a seat with an open winning streak was given to another station: its held stake is returned', { seat, station, to: now ?? null, amount });
  }
}
