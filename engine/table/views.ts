import { behindSpots, otherSeatSpots } from './betting.js';
import { publicLines, type ResultLineView } from './public-lines.js';
import type { CoupSummary, GameDefinition, HandView, NotFollowed, Presentation, SeatStreak } from './game.js';
import { availableWith, bettingOpen, cueOf, deciderStations, pendingOf, type DealerCue } from './queries.js';
import {
  isRemote,
  seatOf,
  spotLimits,
  stationAt,
  type Chips,
  type HistoryItem,
  type InPlay,
  type SettledLine,
  type TableState,
  type Unplayed,
} from './state.js';
import {
  isBehind,
  isOnSeat,
  sameSpot,
  STADIUM_SEAT,
  type BetId,
  type DecisionAction,
  type HoldReason,
  type LineBet,
  type Prize,
  type RefusalReason,
  type Spot,
} from './vocabulary.js';

// What each screen sees of the table, as pure projections of its state (boardgame.io's
// `playerView` is the model): the public round every screen shows, the table display's extras,
// and a station's own betting panel and decision. Nothing here reads anything but its arguments.

export type { ResultLineView } from './public-lines.js';

export interface RoundViewData {
  readonly roundId: string;
  readonly phase: 'betting' | 'dealing' | 'results' | 'hold';
  /** The host's wall-clock time (ms) when the current countdown ends. */
  readonly endsAt: number | null;
  readonly cue: DealerCue | null;
  readonly hands: HandView[];
  readonly results: ResultLineView[] | null;
  readonly hold: HoldReason | null;
}

/**
 * The public state of the round: what anyone standing at the table can see. The remote stations'
 * own lines (the stadium box) are not in it: there may be hundreds, each station gets its own in
 * its own view, and the table display shows the stadium's totals (`projectStadium`).
 */
export function projectRound<S, R>(s: TableState<S, R>, game: GameDefinition<S, R>): RoundViewData {
  return {
    roundId: s.roundId,
    phase: s.hold ? 'hold' : s.phase,
    endsAt: s.countdown?.endsAt ?? null,
    cue: cueOf(s, game),
    hands: s.round !== null ? game.screens.hands(s.shoe, s.round) : [],
    // Past PUBLIC_LINES the bets behind summed (public-lines.ts): a round of very many split hands stays one message.
    results: s.results ? publicLines(resultLines(s, game)) : null,
    hold: s.hold?.reason ?? null,
  };
}

/** The round's settlement lines as the public round shows them: the remote stations' own left out. */
function resultLines<S, R>(s: TableState<S, R>, game: GameDefinition<S, R>): ResultLineView[] {
  return (s.results ?? []).flatMap(({ station, choices, ...l }) => {
    if (l.seat === STADIUM_SEAT) return [];
    const prize = game.screens.prizeOf(l);
    return [
      {
        ...l,
        ...(choices ? { choices: [...choices] } : {}),
        owner: station === stationAt(s.params, l.seat) ? ('seat' as const) : ('behind' as const),
        ...(prize ? { prize } : {}),
      },
    ];
  });
}

/** What the remote stations have on one spot: how many of them, and their total. */
export interface StadiumSpot {
  readonly spot: Spot;
  readonly players: number;
  readonly total: number;
}

export interface StadiumView {
  /** Remote stations with chips on a spot (betting) or bets in the round (after the close). */
  readonly players: number;
  readonly spots: StadiumSpot[];
}

/**
 * The stadium as the table display shows it: per spot, the number of remote stations on it and
 * their total — chips while betting is open, what plays once it closed. Null at a table without
 * remote stations. Names no station.
 */
export function projectStadium<S, R>(s: TableState<S, R>, game: GameDefinition<S, R>): StadiumView | null {
  if (!s.params.remote || game.rules.remote === null) return null;
  const stakes: { station: number; spot: Spot; amount: number }[] = [];
  if (s.phase === 'betting') {
    for (const c of s.chips) if (isRemote(s.params, c.station)) stakes.push(c);
  } else {
    for (const p of s.placed) {
      if (!isRemote(s.params, p.station)) continue;
      // Raises (a double behind, a war) count on the spot they raise: a bet behind names its seat.
      const bet = game.rules.bets.find((b) => b === p.bet);
      // An additional bet on another seat's hand names its bet and the seat.
      if (p.seat !== undefined)
        stakes.push({ station: p.station, spot: bet !== undefined ? { bet, seat: p.seat } : { bet: 'behind', seat: p.seat }, amount: p.amount });
      else if (bet !== undefined) stakes.push({ station: p.station, spot: { bet }, amount: p.amount });
    }
  }
  const spots: { spot: Spot; stations: Set<number>; total: number }[] = [];
  const everyone = new Set<number>();
  for (const x of stakes) {
    everyone.add(x.station);
    let at = spots.find((o) => sameSpot(o.spot, x.spot));
    if (!at) spots.push((at = { spot: x.spot, stations: new Set(), total: 0 }));
    at.stations.add(x.station);
    at.total += x.amount;
  }
  const order = (sp: Spot) => {
    if (isBehind(sp)) return 100 + sp.seat * 100;
    const at = game.rules.bets.indexOf(sp.bet);
    return isOnSeat(sp) ? 100 + sp.seat * 100 + 1 + at : at;
  };
  return {
    players: everyone.size,
    spots: spots.sort((a, b) => order(a.spot) - order(b.spot)).map((o) => ({ spot: o.spot, players: o.stations.size, total: o.total })),
  };
}

export interface HistoryItemView {
  readonly roundId: string;
  readonly dealer: HistoryItem['dealer'][number][];
  readonly dealerTotal: number | null;
  readonly seats: { readonly seat: number; readonly outcome: 'win' | 'lose' | 'push' }[];
}

/**
 * The table display's parts. `Roads` is the road maps' shape, which only the game that has them
 * knows: the generic table names no game, so engine/games.ts, which lists the games, fixes it
 * (`TableExtras` there) and hands the projection below the roads' builder.
 */
export interface TableExtrasOf<Roads> {
  readonly seats: { readonly seat: number; readonly station: number | null }[];
  /** The bets the profile offers, printed as spots on the felt. */
  readonly bets: BetId[];
  readonly presentation: Presentation;
  readonly roads?: Roads;
  readonly history?: HistoryItemView[];
  /** The cut card is out: this is the last round of the shoe. */
  readonly lastRound?: true;
  /** Each seat's winning-streak marker with its open levels (Macau 2009 Art. 13 5)(2) iii)); seats with none are absent. */
  readonly streaks?: SeatStreak[];
}

/**
 * Everything the table display's own parts are built from, read off the state once: the
 * projection below takes this record and nothing else (its type says so), so a caller keeping its
 * last result compares exactly these fields (host/table/memo-on-inputs.ts). The shoe's coups, not
 * the shoe, since the shoe moves with every card and the roads only with a coup; the streaks are
 * the game's list made anew on each read, compared by content (`TABLE_EXTRAS_BY_CONTENT`).
 */
export interface TableExtrasInputs {
  readonly seats: number;
  readonly params: TableState<unknown, unknown>['params'];
  readonly shoeNo: number;
  readonly history: TableState<unknown, unknown>['history'];
  readonly coups: readonly CoupSummary[] | undefined;
  readonly lastRound: boolean;
  readonly streaks: readonly SeatStreak[];
}

/** The fields of `TableExtrasInputs` a game makes anew on each read: compared by content, the rest by identity. */
export const TABLE_EXTRAS_BY_CONTENT = ['streaks'] as const satisfies readonly (keyof TableExtrasInputs)[];

export function tableExtrasInputs<S, R>(s: TableState<S, R>, game: GameDefinition<S, R>, seats: number): TableExtrasInputs {
  return {
    seats,
    params: s.params,
    shoeNo: s.shoeNo,
    history: s.history,
    coups: game.screens.coups?.(s.shoe),
    lastRound: game.shoe.lastRoundOfShoe(s.shoe),
    streaks: game.screens.streaks?.(s.shoe) ?? [],
  };
}

/**
 * The table display's own parts: the seats, the felt's printed bets, the roads or the last rounds,
 * from their inputs alone; `roadsOf` lays out the shoe's coups where the game shows roads.
 */
export function projectTableExtras<Roads>(
  i: TableExtrasInputs,
  game: Pick<GameDefinition<unknown, unknown>, 'rules' | 'presentation'>,
  roadsOf: (shoe: string, coups: readonly CoupSummary[]) => Roads,
): TableExtrasOf<Roads> {
  const panel =
    game.presentation.panel === 'roads' && i.coups
      ? { roads: roadsOf(`shoe-${i.shoeNo}`, i.coups) }
      : { history: i.history.map((h) => ({ roundId: h.roundId, dealer: [...h.dealer], dealerTotal: h.dealerTotal, seats: h.seats.map((x) => ({ ...x })) })) };
  return {
    seats: Array.from({ length: i.seats }, (_, n) => ({ seat: n + 1, station: stationAt(i.params, n + 1) ?? null })),
    bets: [...game.rules.bets],
    presentation: game.presentation,
    ...panel,
    ...(i.lastRound ? { lastRound: true as const } : {}),
    ...(i.streaks.length > 0 ? { streaks: i.streaks.map((x) => ({ seat: x.seat, wins: x.wins, open: x.open.map((o) => ({ ...o })) })) } : {}),
  };
}

/** A stake on a spot or in play: the bet line, and the seat it is behind when it is a bet behind. */
export interface StakeView {
  readonly bet: LineBet;
  readonly seat?: number;
  readonly amount: number;
}

export type SpotView = Spot & { readonly min: number; readonly max: number };

export interface StationBettingView {
  readonly open: boolean;
  readonly spots: SpotView[];
  readonly bets: StakeView[];
  readonly unplayed?: (StakeView & { readonly min: number; readonly reason: RefusalReason })[];
  readonly notFollowed?: { readonly seat: number; readonly hand: number; readonly action: 'double' | 'split'; readonly amount: number }[];
  /** What this station won or lost in the round just settled, over every bet it had. */
  readonly roundNet?: number;
  readonly prizes?: { readonly seat: number; readonly bet: LineBet; readonly hand?: number; readonly net: number; readonly prize: Prize }[];
  /** The station's own seat's winning-streak marker and open levels (nobody else's). */
  readonly streak?: { readonly wins: number; readonly open: { readonly bet: BetId; readonly amount: number }[] };
}

export interface StationDecisionView {
  readonly seat: number;
  readonly hand?: number;
  readonly legal: DecisionAction[];
  readonly default: DecisionAction;
  readonly endsAt: number;
  readonly cost?: number;
}

export interface StationTableView {
  /** The credit meter less what is on the spots. */
  readonly credit: number;
  readonly betting: StationBettingView;
  readonly decision: StationDecisionView | null;
}

const stake = (x: { bet: LineBet | Spot['bet']; seat?: number; amount: number }): StakeView => ({
  bet: x.bet,
  ...(x.seat !== undefined ? { seat: x.seat } : {}),
  amount: x.amount,
});

/** One station's own part of the table: its credit, its spots and bets, its decision. Nobody else's. */
export function projectStation<S, R>(s: TableState<S, R>, game: GameDefinition<S, R>, station: number): StationTableView {
  return stationProjector(s, game, stationInputs(s, game))(station);
}

/**
 * Every station's own part of one state (`projectStation` of each), with what they share worked
 * out once for the state rather than once per station: the lists and the streak markers grouped by
 * station (`inputs`, `stationInputs` of this state), the pending decision (worked out when a
 * station it is due from is projected: a station none is due from reads neither the round nor the
 * shoe, as host/screens/station-reads.ts declares), and the spots a kind of station is offered (a
 * remote station's, or a seat's: the same list for every station of that kind, kept in `spots` by
 * the caller while the table's parameters stand, so the same array from one state to the next). A
 * stadium projects a thousand stations from one state.
 */
export function stationProjector<S, R>(
  s: TableState<S, R>,
  game: GameDefinition<S, R>,
  inputs: StationInputs,
  spots: Map<string, SpotView[]> = new Map(),
  idle: IdleBettings = new Map(),
): (station: number) => StationTableView {
  const tableOpen = bettingOpen(s);
  const betting = s.phase === 'betting';
  const settled = s.phase === 'results';
  let decision: (() => StationDecisionView) | null | undefined;
  const none: readonly never[] = [];
  return (station) => {
    const open = tableOpen && !s.faults.disabled.includes(station);
    const chips = inputs.chips.get(station) ?? none;
    const bets = betting ? chips.map((c) => stake({ ...c.spot, amount: c.amount })) : (inputs.placed.get(station) ?? none).map(stake);
    const unplayed = !open
      ? (inputs.unplayed.get(station) ?? none).map((u) => ({ ...stake({ ...u.spot, amount: u.amount }), min: u.min, reason: u.reason }))
      : [];
    // None without a round in play (`stationInputs`).
    const notFollowed = !open ? (inputs.notFollowed.get(station) ?? none) : none;
    const mine = settled ? (inputs.results.get(station) ?? none) : none;
    const prizes = prizesShown(
      mine.flatMap((l) => {
        const prize = game.screens.prizeOf(l);
        return prize ? [{ seat: l.seat, bet: l.bet, ...(l.hand !== undefined ? { hand: l.hand } : {}), net: l.net, prize }] : [];
      }),
    );
    const seat = seatOf(s.params, station);
    const streak = inputs.streaks.get(station);
    if (inputs.deciders.has(station) && decision === undefined) decision = decisionOf(s, game);
    const offered = spotsOf(s, game, station, seat, spots);
    const nothing = bets.length === 0 && unplayed.length === 0 && notFollowed.length === 0 && mine.length === 0 && !streak;
    return {
      credit: availableWith(s, station, chips),
      betting: nothing
        ? idleBetting(idle, offered, open)
        : {
            open,
            spots: offered,
            bets,
            ...(streak ? { streak: { wins: streak.wins, open: streak.open.map((o) => ({ ...o })) } } : {}),
            ...(unplayed.length > 0 ? { unplayed } : {}),
            ...(notFollowed.length > 0 ? { notFollowed: notFollowedShown(notFollowed) } : {}),
            ...(mine.length > 0 ? { roundNet: mine.reduce((a, l) => a + l.net, 0) } : {}),
            ...(prizes.length > 0 ? { prizes } : {}),
          },
      decision: decision && inputs.deciders.has(station) ? decision() : null,
    };
  };
}

/** The entries of a station's bets not followed its screen is sent one by one (the protocol's StationBetting.notFollowed). */
export const NOT_FOLLOWED_SHOWN = 16;

/**
 * A station's bets behind that did not follow a double or a split, as its screen is sent them: one
 * by one up to NOT_FOLLOWED_SHOWN; past it (a seat split seventeen times under Portugal's rules,
 * which set no limit, its bettor short each time) once per seat and action, at the first hand, the
 * amounts summed: at most seven seats by two actions. Before, the list went past the schema's 16
 * and the station's screen refused every view of the round.
 */
function notFollowedShown(list: readonly NotFollowed[]): NonNullable<StationBettingView['notFollowed']> {
  const one = list.map(({ seat, hand, action, amount }) => ({ seat, hand, action, amount }));
  if (one.length <= NOT_FOLLOWED_SHOWN) return one;
  const by = new Map<string, (typeof one)[number]>();
  for (const n of one) {
    const key = `${n.seat}:${n.action}`;
    const had = by.get(key);
    by.set(key, had ? { ...had, amount: had.amount + n.amount } : n);
  }
  return [...by.values()];
}

/** The prize wins a station's screen is sent one by one (the protocol's StationBetting.prizes). */
export const PRIZES_SHOWN = 32;

type PrizeShown = NonNullable<StationBettingView['prizes']>[number];

/**
 * A station's prize wins as its screen is sent them: one by one up to PRIZES_SHOWN; past it once per
 * seat, bet and prize, the hand left out and the amounts summed; past it still (a station behind
 * many seats, each with several prizes) once per bet and prize, at the first seat. A bet has one
 * kind of prize but the main bet (five cards or the special prize: `prizeOf` of each game), so that
 * is at most LINE_BETS plus one entries. Before, every winning line was one: a Macau seat split to
 * 33 hands (Art. 16 n.1: four or more, the house's choice) each taking half on five cards (Art. 19)
 * went past the schema's 32 and the station's screen refused every view of the round. The screen
 * names neither seat nor hand of a prize (prizeText): what it celebrates is the same words and sums.
 */
export function prizesShown(list: readonly PrizeShown[]): PrizeShown[] {
  const merged = (wins: readonly PrizeShown[], key: (w: PrizeShown) => string): PrizeShown[] => {
    const by = new Map<string, PrizeShown>();
    for (const { hand: _hand, ...w } of wins) {
      const had = by.get(key(w));
      by.set(key(w), had ? { ...had, net: had.net + w.net } : w);
    }
    return [...by.values()];
  };
  if (list.length <= PRIZES_SHOWN) return [...list];
  const bySeat = merged(list, (w) => `${w.seat}:${w.bet}:${w.prize}`);
  return bySeat.length <= PRIZES_SHOWN ? bySeat : merged(bySeat, (w) => `${w.bet}:${w.prize}`);
}

/**
 * The betting part of stations with nothing on the table (no bets, unplayed, bets not followed,
 * result or streak marker), by the spots they are offered and whether betting is open for them,
 * kept by the caller beside the spots (`stationProjector`'s `idle`): one object for all of them,
 * from one state to the next while the spots stand. A stadium's idle stations then share it, so
 * the host encodes it once, and works out once what changed in it when betting opens or closes
 * (host/screens/view-hub.ts). Nobody changes a view in place.
 */
export type IdleBettings = Map<SpotView[], { open?: StationBettingView; closed?: StationBettingView }>;

/**
 * The betting part of a station with nothing on the table (as `stationProjector` makes it for such a
 * station: its spots, whether betting is open for it), without projecting the rest of its part: what
 * the host needs of the state to make an idle station's next own part from its last one.
 */
export function idleStationBetting<S, R>(
  s: TableState<S, R>,
  game: GameDefinition<S, R>,
  station: number,
  spots: Map<string, SpotView[]>,
  idle: IdleBettings,
): StationBettingView {
  const open = bettingOpen(s) && !s.faults.disabled.includes(station);
  return idleBetting(idle, spotsOf(s, game, station, seatOf(s.params, station), spots), open);
}

function idleBetting(cache: IdleBettings, spots: SpotView[], open: boolean): StationBettingView {
  let kept = cache.get(spots);
  if (!kept) cache.set(spots, (kept = {}));
  const which = open ? 'open' : 'closed';
  return (kept[which] ??= { open, spots, bets: [] });
}

/**
 * The spots a station is offered, with their limits: the same for every remote station, and for
 * every station holding a given seat, under one set of parameters (`cache`, keyed by that kind).
 */
function spotsOf<S, R>(s: TableState<S, R>, game: GameDefinition<S, R>, station: number, seat: number | undefined, cache: Map<string, SpotView[]>): SpotView[] {
  const remote = isRemote(s.params, station);
  const kind = `${remote ? 'remote' : 'seated'} ${seat ?? '-'}`;
  const had = cache.get(kind);
  if (had) return had;
  // A remote station of a game where it only bets behind a seat has no spots of its own.
  const own = remote && game.rules.remote !== 'own-spots' ? [] : game.rules.bets.map((bet): Spot => ({ bet }));
  const made: SpotView[] = [
    ...own,
    ...behindSpots(s, game.rules.behind?.maxBettorsPerSeat, station),
    ...otherSeatSpots(s, game.rules.onOtherSeats?.bets, game.rules.behind?.maxBettorsPerSeat, station),
  ].map((spot) => ({
    ...spot,
    ...spotLimits(s.params, spot),
  }));
  cache.set(kind, made);
  return made;
}

/** The decision due now as every station it is due from is shown it (null: none is shown one), made when asked. */
function decisionOf<S, R>(s: TableState<S, R>, game: GameDefinition<S, R>): (() => StationDecisionView) | null {
  const p = pendingOf(s, game);
  if (!p || p.kind !== 'decision' || s.hold || s.faults.halted || s.countdown === null) return null;
  const endsAt = s.countdown.endsAt;
  return () => ({
    seat: p.seat,
    ...(p.hand !== undefined ? { hand: p.hand } : {}),
    legal: [...p.legal],
    default: p.default,
    endsAt,
    ...(p.cost !== undefined ? { cost: p.cost } : {}),
  });
}

/**
 * What each station's own view is built from, grouped by station in one pass over the state: a
 * caller comparing these per station (the host's view hub) rebuilds only the stations whose own
 * part changed, without filtering every list once per station (a stadium has hundreds). A
 * station absent from a map has nothing there.
 */
export interface StationInputs {
  readonly chips: ReadonlyMap<number, readonly Chips[]>;
  readonly placed: ReadonlyMap<number, readonly InPlay[]>;
  readonly unplayed: ReadonlyMap<number, readonly Unplayed[]>;
  readonly results: ReadonlyMap<number, readonly SettledLine[]>;
  readonly notFollowed: ReadonlyMap<number, readonly NotFollowed[]>;
  /**
   * The winning-streak marker of each seated station's seat (Macau 2009 Art. 13 5)), read off the
   * shoe at any time: it moves with the round's last card, before its settlement. Made anew each state.
   */
  readonly streaks: ReadonlyMap<number, SeatStreak>;
  /** The stations a decision is due from now. */
  readonly deciders: ReadonlySet<number>;
}

function groupBy<T extends { readonly station: number }>(xs: readonly T[]): Map<number, T[]> {
  const m = new Map<number, T[]>();
  for (const x of xs) {
    const at = m.get(x.station);
    if (at) at.push(x);
    else m.set(x.station, [x]);
  }
  return m;
}

export function stationInputs<S, R>(s: TableState<S, R>, game: GameDefinition<S, R>): StationInputs {
  const p = pendingOf(s, game);
  const deciders = p && p.kind === 'decision' ? deciderStations(s, p) : [];
  return {
    chips: groupBy(s.chips),
    placed: groupBy(s.placed),
    unplayed: groupBy(s.unplayed),
    results: groupBy(s.results ?? []),
    notFollowed: s.round !== null ? groupBy(game.round.notFollowed(s.round)) : new Map(),
    streaks: streaksByStation(s, game),
    deciders: new Set(deciders),
  };
}

/** Each seat's winning-streak marker by the station holding the seat (a seat no station holds shows none). */
function streaksByStation<S, R>(s: TableState<S, R>, game: GameDefinition<S, R>): Map<number, SeatStreak> {
  const m = new Map<number, SeatStreak>();
  for (const x of game.screens.streaks?.(s.shoe) ?? []) {
    const station = stationAt(s.params, x.seat);
    if (station !== undefined) m.set(station, x);
  }
  return m;
}
