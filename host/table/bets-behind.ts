import type { RefusalReason } from '../../protocol/index.js';
import { betLimits, type TableConfig } from '../config/table-config.js';
import type { BehindBet, LiveGame, Outcome } from './live-game.js';

// Bets behind another station's seat (Macau 2009 Art. 20 同門搭注; Portugal rules 15–16): the
// spots are `behind:<seat>`, the engine holds several bettors per seat and says who decides
// (the profile's Art. 20 option); each bettor's stake is charged to and paid at its own station.

const BEHIND = /^behind:([1-9])$/;

/** The seat a `behind:<seat>` spot names, or null for any other bet. */
export function behindSeat(bet: string): number | null {
  const m = BEHIND.exec(bet);
  return m ? Number(m[1]) : null;
}

/** The owner name the engine knows a station's bet behind by. */
export function behindOwner(station: number): string {
  return `station:${station}`;
}

/** The station of an owner name (`station:<n>`), or null for the seat's own bets. */
export function ownerStation(owner: string | undefined): number | null {
  const m = owner ? /^station:(\d{1,2})$/.exec(owner) : null;
  return m ? Number(m[1]) : null;
}

export interface TableSeats {
  config: TableConfig;
  game: LiveGame;
  seatOf: ReadonlyMap<number, number>;
  stationOf: ReadonlyMap<number, number>;
}

/** The behind spots a station is offered: every other seat a station controls, if the game has them. */
export function behindSpots(t: TableSeats, station: number): string[] {
  const rule = t.game.betsBehind;
  if (!rule || rule.maxBettorsPerSeat < 2) return [];
  const own = t.seatOf.get(station);
  return [...t.stationOf.keys()].filter((seat) => seat !== own).sort((a, b) => a - b).map((seat) => `behind:${seat}`);
}

/**
 * Why a station may not bet behind `seat` now, or null. Refused outright: a game without bets
 * behind, the station's own seat, a seat nobody controls, and a seat whose bettors are already
 * as many as the profile allows (Art. 20 n.1 (2): three).
 */
export function behindRefusal(t: TableSeats, station: number, seat: number, pending: ReadonlyMap<number, Readonly<Record<string, number>>>): Outcome | null {
  const no = (reason: string): Outcome => ({ ok: false, reason, refusal: 'behind-not-allowed' });
  const rule = t.game.betsBehind;
  if (!rule || rule.maxBettorsPerSeat < 2) return no(`no bets behind at ${t.game.game} under ${t.game.profile}`);
  if (t.seatOf.get(station) === seat) return no('a station bets on its own seat directly');
  if (!t.stationOf.has(seat)) return no(`seat ${seat} has no station`);
  const spot = `behind:${seat}`;
  const others = [...pending].filter(([s, bets]) => s !== station && (bets[spot] ?? 0) > 0).length;
  if ((pending.get(station)?.[spot] ?? 0) === 0 && others + 1 >= rule.maxBettorsPerSeat) {
    return no(`seat ${seat} already has ${others + 1} bettors, the most allowed (${rule.rule})`);
  }
  return null;
}

export interface Unplayed {
  bet: string;
  amount: number;
  min: number;
  reason: RefusalReason;
}

export interface ClosedBets {
  /** Per station: the lines to journal (own seat and behind seats) and its spots as shown. */
  stations: Map<number, { lines: { seat: number; bet: string; amount: number }[]; spots: Record<string, number> }>;
  /** Each seat's own bets, for the engine. */
  seats: Map<number, Record<string, number>>;
  /** The bets behind each seat that play, in the order placed (by station number). */
  behind: Map<number, BehindBet[]>;
  /** Spots that do not play, per station, with the reason the station is shown. */
  unplayed: Map<number, Unplayed[]>;
}

/**
 * What plays when betting closes. A spot under its minimum does not play; a bet behind plays
 * only on a seat whose own station bet its main bet, within the seat's bettor count and — the
 * seat's bets together — the main bet's maximum (Portugal rule 15; the engine holds the same).
 * Nothing that does not play has moved: its chips stay credit, and the station is told.
 */
export function closeBets(t: TableSeats, pending: ReadonlyMap<number, Readonly<Record<string, number>>>, creditOf: (station: number) => number): ClosedBets {
  const out: ClosedBets = { stations: new Map(), seats: new Map(), behind: new Map(), unplayed: new Map() };
  const drop = (station: number, bet: string, amount: number, reason: RefusalReason) =>
    out.unplayed.set(station, [...(out.unplayed.get(station) ?? []), { bet, amount, min: betLimits(t.config, bet).min, reason }]);
  const stations = [...pending.keys()].sort((a, b) => a - b);
  const wanted = new Map<number, { own: Record<string, number>; behind: [number, number][] }>();
  for (const station of stations) {
    const bets = pending.get(station) ?? {};
    const total = Object.values(bets).reduce((a, b) => a + b, 0);
    if (total > creditOf(station)) {
      // The credit fell under the chips on the spots since they were placed: nothing plays.
      for (const [bet, amount] of Object.entries(bets)) drop(station, bet, amount, 'over-credit');
      continue;
    }
    const own: Record<string, number> = {};
    const behind: [number, number][] = [];
    for (const [bet, amount] of Object.entries(bets)) {
      if (amount < betLimits(t.config, bet).min) {
        drop(station, bet, amount, 'under-min');
        continue;
      }
      const seat = behindSeat(bet);
      if (seat === null) own[bet] = amount;
      else behind.push([seat, amount]);
    }
    wanted.set(station, { own, behind });
    const seat = t.seatOf.get(station);
    if (seat !== undefined && Object.keys(own).length > 0) out.seats.set(seat, own);
  }
  const rule = t.game.betsBehind;
  for (const station of stations) {
    const w = wanted.get(station);
    if (!w) continue;
    const lines: { seat: number; bet: string; amount: number }[] = [];
    const spots: Record<string, number> = {};
    const seat = t.seatOf.get(station);
    if (seat !== undefined && out.seats.has(seat)) {
      for (const [bet, amount] of Object.entries(w.own)) {
        lines.push({ seat, bet, amount });
        spots[bet] = amount;
      }
    }
    for (const [target, amount] of w.behind) {
      const spot = `behind:${target}`;
      const holder = out.seats.get(target);
      const already = out.behind.get(target) ?? [];
      const together = (holder?.main ?? 0) + already.reduce((a, b) => a + b.main, 0) + amount;
      if (!holder?.main) drop(station, spot, amount, 'behind-seat-empty');
      else if (!rule || already.length + 2 > rule.maxBettorsPerSeat) drop(station, spot, amount, 'behind-not-allowed');
      else if (together > betLimits(t.config, 'main').max) drop(station, spot, amount, 'over-max');
      else {
        out.behind.set(target, [...already, { owner: behindOwner(station), main: amount }]);
        lines.push({ seat: target, bet: 'behind', amount });
        spots[spot] = amount;
      }
    }
    if (lines.length > 0) out.stations.set(station, { lines, spots });
  }
  return out;
}
