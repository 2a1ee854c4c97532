import { withChipLimits } from './limits.js';
import { endMovedStreaks } from './seat-streaks.js';
import type { TableParams } from './state.js';
import type { Turn } from './turn.js';

type Seating = TableParams['stations'];

function sameSeating(a: Seating, b: Seating): boolean {
  if (a.length !== b.length) return false;
  const key = (s: Seating) =>
    s
      .map((x) => `${x.station}@${x.seat}`)
      .sort()
      .join(',');
  return key(a) === key(b);
}

/**
 * The table's parameters as a start gives them (a changed configuration file). A round in play
 * keeps the seats it was dealt with until it ends: its bets were debited from the stations that
 * sat there and are kept by seat, so under a new seating its decisions would be asked of, and its
 * returns paid to, a station that never staked them (the ledger refuses such a settlement and the
 * table would stand on hold). The player who bet plays the round out and is paid; the new seats
 * apply from the next betting window (`seatsNext`, the house's reading: docs/table-host.md). The
 * rest of the configuration applies now, as it always has.
 */
export function configure<S, R>(t: Turn<S, R>, params: TableParams): void {
  const before = t.state.params;
  const next = withChipLimits(params, t.game.rules.limitRules);
  if (t.state.phase === 'dealing' && !sameSeating(before.stations, next.stations)) {
    t.set({ params: { ...next, stations: before.stations }, seatsNext: next.stations });
    t.log('warn', 'the configuration seats stations anew with a round in play: the round keeps its seats, the new ones apply from the next round', {
      roundId: t.state.roundId,
      seats: next.stations.map((s) => [s.station, s.seat]),
    });
    return;
  }
  // Nothing in play (or the round's own seats again): a seating waiting for the next round is superseded.
  dropSeatsNext(t);
  t.set({ params: next });
  endMovedStreaks(t, before);
}

/** The round that kept its seats has ended: the seating the configuration gave since applies, before the next window opens. */
export function seatNextRound<S, R>(t: Turn<S, R>): void {
  const next = t.state.seatsNext;
  if (next === undefined) return;
  const before = t.state.params;
  dropSeatsNext(t);
  t.set({ params: { ...before, stations: next } });
  endMovedStreaks(t, before);
}

function dropSeatsNext<S, R>(t: Turn<S, R>): void {
  if (t.state.seatsNext === undefined) return;
  const { seatsNext: _next, ...state } = t.state;
  void _next;
  t.state = state;
}

/**
 * What the technician is told of a seating waiting for the round in play (service mode's Status
 * and Holds pages, /healthz): each station the waiting seating seats elsewhere than the round
 * does, or newly, with its seat. Null when nothing waits.
 */
export function seatsWaiting(state: { params: { stations: Seating }; seatsNext?: Seating }): { station: number; seat: number }[] | null {
  if (state.seatsNext === undefined) return null;
  const now = new Map(state.params.stations.map((s) => [s.station, s.seat]));
  return state.seatsNext.filter((s) => now.get(s.station) !== s.seat).map((s) => ({ station: s.station, seat: s.seat }));
}
