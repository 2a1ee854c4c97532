import type { SeatStakes, StadiumStakes } from './game.js';
import { available, creditOf } from './queries.js';
import { currencyOf, hasStation, isRemote, seatOf, spotLimits, stationAt, type Chips, type InPlay, type TableState, type Unplayed } from './state.js';
import { seatNextRound } from './seat-change.js';
import type { Turn } from './turn.js';
import {
  isBehind,
  isOnSeat,
  isOwn,
  sameSpot,
  spotSeat,
  STADIUM_SEAT,
  STREAK_BETS,
  type BetId,
  type LineBet,
  type RefusalReason,
  type Spot,
} from './vocabulary.js';
import { advance } from './dealing.js';

// The betting window: chips on spots (still credit), then the close, where what plays is
// journalled as bets and the round starts. Bets behind another station's seat follow Macau 2009
// Art. 20 (同門搭注) and Portugal rules 15–16: the game holds the bettors and says who decides.

/** A new round's betting window, with its countdown. */
export function openBetting<S, R>(t: Turn<S, R>): void {
  // The round before kept its seats to its end: the configuration's new ones apply from this window.
  seatNextRound(t);
  const roundNo = t.state.roundNo + 1;
  t.set({
    phase: 'betting',
    roundNo,
    // The clock and a serial the journal keeps: unique even if the clock steps back (NTP).
    roundId: `${t.tableId}-${t.at.toString(36)}-${roundNo.toString(36)}`,
    round: null,
    cards: [],
    decisions: [],
    placed: [],
    unplayed: [],
    results: null,
    held: [],
  });
  // A new window: the stations kept out are the ones the faults in force keep out now.
  const { keptOut: _last, ...state } = t.state;
  void _last;
  t.state = state;
  keepOut(t);
  t.schedule('betting', t.state.params.timings.bettingMs);
}

/**
 * Adds to the window's kept-out stations those the faults keep from betting now: a disabled
 * station, every station while new bets are stopped. Only while betting is open; a station once
 * kept out stays so for the whole window, whether or not it bets after the fault clears.
 */
export function keepOut<S, R>(t: Turn<S, R>): void {
  const s = t.state;
  if (s.phase !== 'betting') return;
  const now = s.faults.newBetsStopped ? s.params.stations.map((x) => x.station) : s.faults.disabled;
  const was = s.keptOut ?? [];
  const added = now.filter((x) => !was.includes(x));
  if (added.length > 0) t.set({ keptOut: [...was, ...added].sort((a, b) => a - b) });
}

/** The behind spots a station is offered: every other seat a station controls, if the game has them. */
export function behindSpots(s: TableState<unknown, unknown>, maxBettorsPerSeat: number | undefined, station: number): Spot[] {
  if (maxBettorsPerSeat === undefined || maxBettorsPerSeat < 2) return [];
  return otherSeats(s, station).map((seat) => ({ bet: 'behind', seat }));
}

/** The additional bets on other seats' hands a station is offered (Art. 13 1)-3)), within the seat's bettor count. */
export function otherSeatSpots(
  s: TableState<unknown, unknown>,
  bets: readonly BetId[] | undefined,
  maxBettorsPerSeat: number | undefined,
  station: number,
): Spot[] {
  if (!bets?.length || maxBettorsPerSeat === undefined || maxBettorsPerSeat < 2) return [];
  return otherSeats(s, station).flatMap((seat) => bets.map((bet) => ({ bet, seat })));
}

function otherSeats(s: TableState<unknown, unknown>, station: number): number[] {
  const own = seatOf(s.params, station);
  return s.params.stations
    .map((x) => x.seat)
    .filter((seat) => seat !== own)
    .sort((a, b) => a - b);
}

/** The additional bets as the one-bet rule counts them: the streak's levels are one bet (Art. 13 5)(2) iv)). */
function additionalKind(bet: BetId): string {
  return STREAK_BETS.includes(bet) ? 'streak' : bet;
}

export function placeBet<S, R>(t: Turn<S, R>, station: number, spot: Spot, amount: number): void {
  const s = t.state;
  if (s.faults.halted) return t.refuse(`the table is halted: ${s.faults.halted}`, 'table-halted');
  if (s.faults.newBetsStopped) return t.refuse(`new bets are stopped: ${s.faults.newBetsStopped}`, 'bets-stopped');
  if (s.faults.disabled.includes(station)) return t.refuse(`station ${station} is disabled by a fault`, 'station-disabled');
  if (spot.bet === 'jackpot' && s.faults.jackpotStopped) return t.refuse(`jackpot bets are stopped: ${s.faults.jackpotStopped}`, 'bets-stopped');
  if (s.phase !== 'betting' || s.hold || s.needsShuffle) return t.refuse('betting is closed', 'betting-closed');
  if (!hasStation(s.params, station)) return t.refuse(`no station ${station} at this table`, 'not-a-station');
  const remote = isRemote(s.params, station);
  if (remote && t.game.rules.remote === null) return t.refuse(`no remote stations at ${t.game.kind}`, 'not-a-station');
  if (isBehind(spot)) {
    const refused = behindRefusal(t, station, spot.seat);
    if (refused) return t.refuse(refused.detail, refused.refusal);
  } else if (isOnSeat(spot)) {
    const offered = t.game.rules.onOtherSeats;
    if (!t.game.rules.bets.includes(spot.bet)) return t.refuse(`no "${spot.bet}" bet at this table`, 'unknown-bet');
    if (!offered?.bets.includes(spot.bet)) return t.refuse(`a ${spot.bet} bet is placed on the station's own seat only`, 'not-on-other-seat');
    const refused = behindRefusal(t, station, spot.seat);
    if (refused) return t.refuse(refused.detail, refused.refusal);
  } else if (remote && t.game.rules.remote === 'behind') {
    const rule = t.game.rules.behind?.rule;
    return t.refuse(`a remote station bets behind a seat at ${t.game.kind}${rule ? ` (${rule})` : ''}`, 'behind-only');
  } else if (!t.game.rules.bets.includes(spot.bet)) return t.refuse(`no "${spot.bet}" bet at this table`, 'unknown-bet');
  else if (STREAK_BETS.includes(spot.bet)) {
    // Art. 13 5)(2) v): the streak bets stay as placed until every one of them is decided.
    const seat = seatOf(s.params, station);
    const open = seat === undefined ? undefined : t.game.screens.streaks?.(s.shoe).find((x) => x.seat === seat);
    if (open) return t.refuse(`seat ${seat} has winning-streak bets still open (${t.game.profile} art.13 5)(2) v))`, 'streak-open');
  }
  const one = t.game.rules.limitRules.oneAdditionalBet;
  if (one && !isBehind(spot) && one.bets.includes(spot.bet)) {
    // One additional bet per player, wherever it is placed (its own seat or another seat's hand).
    const kind = additionalKind(spot.bet);
    const other = s.chips.find(
      (c) =>
        c.station === station &&
        !isBehind(c.spot) &&
        one.bets.includes(c.spot.bet) &&
        (additionalKind(c.spot.bet) !== kind || spotSeat(c.spot) !== spotSeat(spot)),
    );
    if (other) return t.refuse(`one additional bet per player: ${spotName(other.spot)} is already placed (${one.rule})`, 'one-additional-bet');
  }
  const { min, max } = spotLimits(s.params, spot);
  const multiples = t.game.rules.limitRules.multiplesOfMinimum;
  if (multiples && min > 0 && amount % min !== 0) return t.refuse(`a bet is the minimum of ${min} or a multiple of it (${multiples})`, 'not-a-multiple');
  const onSpot = (s.chips.find((c) => c.station === station && sameSpot(c.spot, spot))?.amount ?? 0) + amount;
  // A one-chip bet (Portugal rule 47) names its rule: its limits are the chip (withChipLimits).
  const chip = t.game.rules.limitRules.oneChip;
  const oneChip = chip && !isBehind(spot) && spot.bet === chip.bet ? ` (one chip of ${chip.amount}, ${chip.rule})` : '';
  // Refused here, not taken and then left unplayed when betting closes: the player sees why at once.
  if (onSpot < min) return t.refuse(`under the minimum of ${min} on ${spotName(spot)}${oneChip}`, 'under-min');
  if (onSpot > max) return t.refuse(`over the maximum of ${max} on ${spotName(spot)}${oneChip}`, 'over-max');
  const roundMax = s.params.roundMax;
  if (roundMax !== undefined && s.chips.reduce((sum, c) => sum + c.amount, 0) + amount > roundMax) {
    const rule = t.game.rules.limitRules.roundMaxRule;
    return t.refuse(`over the table's maximum of ${roundMax} for the round${rule ? ` (${rule})` : ''}`, 'over-round-max');
  }
  if (amount > available(s, station)) return t.refuse(`not enough credit for ${amount}`, 'over-credit');
  const i = s.chips.findIndex((c) => c.station === station && sameSpot(c.spot, spot));
  const chips = i < 0 ? [...s.chips, { station, spot, amount }] : s.chips.map((c, j) => (j === i ? { ...c, amount: onSpot } : c));
  t.set({ chips });
}

export function clearBets<S, R>(t: Turn<S, R>, station: number): void {
  if (t.state.phase !== 'betting') return t.refuse('betting is closed', 'betting-closed');
  if (!t.state.chips.some((c) => c.station === station)) return;
  t.set({ chips: t.state.chips.filter((c) => c.station !== station) });
}

export function spotName(spot: Spot): string {
  if (isBehind(spot)) return `behind seat ${spot.seat}`;
  return isOnSeat(spot) ? `${spot.bet} on seat ${spot.seat}` : spot.bet;
}

/**
 * Why a station may not bet behind `seat` now, or null. Refused outright: a game without bets
 * behind, the station's own seat, a seat nobody controls, and a seat whose bettors are already
 * as many as the table allows (Art. 20 n.1 2)'s three, or the house's number where the text
 * names none: the detail says which, `BehindRule.cap`).
 */
function behindRefusal<S, R>(t: Turn<S, R>, station: number, seat: number): { detail: string; refusal: RefusalReason } | null {
  const rule = t.game.rules.behind;
  const s = t.state;
  const no = (detail: string, refusal: RefusalReason = 'behind-not-allowed') => ({ detail, refusal });
  if (!rule || rule.maxBettorsPerSeat < 2) return no(`no bets behind at ${t.game.kind} under ${t.game.profile}`);
  if (seatOf(s.params, station) === seat) return no('a station bets on its own seat directly');
  if (stationAt(s.params, seat) === undefined) return no(`seat ${seat} has no station`, 'behind-seat-empty');
  // A station counts once among a seat's bettors, whether it bets behind it, on its hand's additional bets, or both.
  const here = (c: Chips) => spotSeat(c.spot) === seat;
  const others = new Set(s.chips.filter((c) => c.station !== station && here(c)).map((c) => c.station)).size;
  const mine = s.chips.some((c) => c.station === station && here(c));
  if (!mine && others + 1 >= rule.maxBettorsPerSeat)
    return no(`seat ${seat} already has ${others + 1} bettors, the most allowed (${rule.cap})`, 'behind-seat-full');
  return null;
}

/** What plays when betting closes, per station, with what it journals. */
interface Closed {
  stations: { station: number; lines: { seat: number; bet: LineBet; amount: number }[]; inPlay: InPlay[] }[];
  seats: SeatStakes[];
  /** The remote stations' own bets on the stadium box, by station number. */
  stadium: StadiumStakes[];
  unplayed: Unplayed[];
}

/** A station's own bets when betting closes: on its seat, or on the stadium box. */
type OwnBets = { seat: number; bets: Partial<Record<BetId, number>>; chips: Chips[] };

/**
 * Each station's chips sorted when betting closes: its own bets (on its seat, or the stadium box)
 * and those it wants behind a seat or on another seat's hand; what cannot play is dropped (`drop`).
 */
function sortChips<S, R>(
  t: Turn<S, R>,
  stations: readonly number[],
  byStation: ReadonlyMap<number, Chips[]>,
  drop: (c: Chips, reason: RefusalReason) => void,
): { own: Map<number, OwnBets>; wantsBehind: Map<number, Chips[]> } {
  const s = t.state;
  const own = new Map<number, OwnBets>();
  const wantsBehind = new Map<number, Chips[]>();
  for (const station of stations) {
    const chips = byStation.get(station) ?? [];
    if (chips.reduce((a, c) => a + c.amount, 0) > creditOf(s, station)) {
      // The credit fell under the chips on the spots since they were placed: nothing plays.
      for (const c of chips) drop(c, 'over-credit');
      continue;
    }
    // A remote station's own bets play on the stadium box (placeBet let them on only where the game has one).
    const seat = isRemote(s.params, station) ? STADIUM_SEAT : seatOf(s.params, station);
    const mine: Chips[] = [];
    const behind: Chips[] = [];
    for (const c of chips) {
      if (c.amount < spotLimits(s.params, c.spot).min) drop(c, 'under-min');
      else if (isOwn(c.spot)) mine.push(c);
      else behind.push(c);
    }
    const initial = t.game.rules.initialBet;
    // Art. 13: an additional bet "para além da aposta inicial": on another seat's hand too, it
    // plays only beside an initial bet of the station's own (its seat's, or one behind a seat).
    const hasInitial = initial !== null && (mine.some((c) => c.spot.bet === initial.bet) || behind.some((c) => isBehind(c.spot)));
    wantsBehind.set(
      station,
      behind.filter((c) => {
        if (!isOnSeat(c.spot) || hasInitial || initial?.rule == null) return true;
        drop(c, 'needs-initial-bet');
        return false;
      }),
    );
    if (seat !== undefined && seat !== STADIUM_SEAT && initial && mine.length > 0 && !mine.some((c) => c.spot.bet === initial.bet)) {
      // Additional bets stand beside the seat's initial bet; alone, they stay credit.
      for (const c of mine) drop(c, 'needs-initial-bet');
      continue;
    }
    if (seat !== undefined && mine.length > 0) {
      const bets: Partial<Record<BetId, number>> = {};
      for (const c of mine) if (isOwn(c.spot)) bets[c.spot.bet] = c.amount;
      own.set(station, { seat, bets, chips: mine });
    }
  }
  return { own, wantsBehind };
}

/**
 * What plays when betting closes. A spot under its minimum does not play (placement refuses one;
 * limits changed while betting was open can leave one); a bet behind plays
 * only on a seat whose own station bet its main bet, within the seat's bettor count and — the
 * seat's bets together — the main bet's maximum (Portugal rule 15; the engine holds the same).
 * Nothing that does not play has moved: its chips stay credit, and the station is told.
 */
function closeBets<S, R>(t: Turn<S, R>): Closed {
  const s = t.state;
  const unplayed: Unplayed[] = [];
  const drop = (c: Chips, reason: RefusalReason) => unplayed.push({ ...c, min: spotLimits(s.params, c.spot).min, reason });
  // Each station's chips, in the order they were placed: one pass, not one filter per station (a stadium has hundreds).
  const byStation = new Map<number, Chips[]>();
  for (const c of s.chips) byStation.set(c.station, [...(byStation.get(c.station) ?? []), c]);
  const stations = [...byStation.keys()].sort((a, b) => a - b);
  const { own, wantsBehind } = sortChips(t, stations, byStation, drop);
  const bySeat = new Map<number, SeatStakes>();
  const stadium: StadiumStakes[] = [];
  for (const [station, o] of own) {
    if (o.seat === STADIUM_SEAT) stadium.push({ station, bets: o.bets });
    else bySeat.set(o.seat, { seat: o.seat, bets: o.bets, behind: [] });
  }
  const rule = t.game.rules.behind;
  const mainMax = spotLimits(s.params, { bet: 'main' }).max;
  const out: Closed['stations'] = [];
  for (const station of stations) {
    const lines: Closed['stations'][number]['lines'] = [];
    const inPlay: InPlay[] = [];
    const o = own.get(station);
    if (o) {
      for (const c of o.chips) {
        lines.push({ seat: o.seat, bet: c.spot.bet, amount: c.amount });
        inPlay.push({ station, bet: c.spot.bet, amount: c.amount });
      }
    }
    // Bets behind first, then the additional bets on other seats' hands, so a station's bet on a
    // seat joins its own entry there.
    const wanted = wantsBehind.get(station) ?? [];
    for (const c of [...wanted.filter((x) => isBehind(x.spot)), ...wanted.filter((x) => isOnSeat(x.spot))]) {
      const target = spotSeat(c.spot);
      if (target === undefined) continue;
      const holder = bySeat.get(target);
      const already = holder?.behind ?? [];
      const mineThere = already.find((b) => b.station === station);
      const others = already.filter((b) => b.station !== station);
      const main = isBehind(c.spot) ? c.amount : 0;
      const together = (holder?.bets.main ?? 0) + already.reduce((a, b) => a + b.main, 0) + main;
      if (!holder?.bets.main) drop(c, 'behind-seat-empty');
      else if (!rule) drop(c, 'behind-not-allowed');
      else if (!mineThere && others.length + 2 > rule.maxBettorsPerSeat) drop(c, 'behind-seat-full');
      else if (together > mainMax) drop(c, 'over-max');
      else {
        const entry = mineThere ?? { station, main: 0 };
        const next = isBehind(c.spot) ? { ...entry, main: c.amount } : { ...entry, sides: { ...entry.sides, [c.spot.bet]: c.amount } };
        bySeat.set(target, { ...holder, behind: mineThere ? already.map((b) => (b === mineThere ? next : b)) : [...already, next] });
        const bet: LineBet = isBehind(c.spot) ? 'behind' : c.spot.bet;
        lines.push({ seat: target, bet, amount: c.amount });
        inPlay.push({ station, bet, seat: target, amount: c.amount });
      }
    }
    if (lines.length > 0) out.push({ station, lines, inPlay });
  }
  // Seats in the order their stations bet (by station number), as the round deals them.
  const seats = [...own.values()].map((o) => bySeat.get(o.seat)).filter((x): x is SeatStakes => x !== undefined);
  return { stations: out, seats, stadium, unplayed };
}

/**
 * The betting countdown ran out. Shoe procedures come first (a shuffle, the shoe-start burns):
 * the window stays open until the shoe is ready. Then what plays is journalled, each station's
 * bets in one entry, all in the step's one transaction, and the round starts.
 */
export function closeBetting<S, R>(t: Turn<S, R>): void {
  if (t.state.needsShuffle || t.game.shoe.shoeCue(t.state.shoe)) {
    // Said in the log when bets wait on it: a window that seems to run twice as long is this, not
    // a stuck timer. An empty table waiting for its dealer's shuffle says nothing every window.
    if (t.state.chips.length > 0) t.log('info', 'betting stays open: the shoe comes first', { roundId: t.state.roundId, shuffle: t.state.needsShuffle });
    return t.schedule('betting', t.state.params.timings.bettingMs);
  }
  // Chips kept through a hold never play while new bets are stopped: they stay credit.
  if (t.state.faults.newBetsStopped) t.set({ chips: [] });
  if (t.state.faults.jackpotStopped) t.set({ chips: t.state.chips.filter((c) => c.spot.bet !== 'jackpot') });
  const closed = closeBets(t);
  if (closed.unplayed.length > 0) t.log('info', 'spots that do not play', { roundId: t.state.roundId, unplayed: closed.unplayed });
  const { roundId } = t.state;
  for (const st of closed.stations) {
    t.write({
      type: 'bet.place',
      txId: `${roundId}:bet:${st.station}`,
      payload: { station: st.station, roundId, tableId: t.tableId, bets: st.lines, ...currencyOf(t.state.params) },
    });
    t.credit(st.station, -st.lines.reduce((a, l) => a + l.amount, 0));
  }
  t.set({ chips: [], unplayed: closed.unplayed, placed: closed.stations.flatMap((x) => x.inPlay) });
  if (closed.seats.length === 0 && closed.stadium.length === 0) return openBetting(t);
  const kept = (t.state.keptOut ?? []).map((x) => seatOf(t.state.params, x)).filter((x): x is number => x !== undefined && x !== STADIUM_SEAT);
  const started = t.game.round.startRound(t.state.shoe, closed.seats, closed.stadium, kept);
  t.set({ shoe: started.shoe, round: started.round, phase: 'dealing' });
  t.log('info', 'bets closed', { roundId, seats: closed.seats.map((x) => x.seat), remote: closed.stadium.length });
  advance(t);
}
