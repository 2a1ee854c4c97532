import { roads as computeRoads, type RoadResult } from '../../engine/baccarat/roads.js';
import type { RoundRecord } from '../../ledger/index.js';
import {
  HistoryEntry,
  MAX_HISTORY,
  MAX_RECALL_ROUNDS,
  MAX_ROAD_COUPS,
  StationRecallRound,
  RoadsView,
  type GameKind,
  type HandView,
  type RoundView,
} from '../../protocol/index.js';

/** What the extras read: the ledger's recall of a station's rounds. */
export interface RecallSource {
  recall(query: { station: number; limit?: number }): RoundRecord[];
}

/** Baccarat points of a hand as the view gives them; a pair is the first two cards of one rank. */
function isPair(h: HandView | undefined): boolean {
  const [a, b] = h?.cards ?? [];
  return a !== undefined && b !== undefined && a !== 'XX' && a[0] === b[0];
}

/** A finished coup as the roads need it, from the public round view at its results. */
export function coupOf(round: RoundView): RoadResult | null {
  const banker = round.hands.find((h) => h.owner === 'banker');
  const player = round.hands.find((h) => h.owner === 'player');
  if (!banker || !player || banker.total === null || player.total === null) return null;
  const winner = banker.total > player.total ? 'banker' : player.total > banker.total ? 'player' : 'tie';
  return { winner, playerPair: isPair(player), bankerPair: isPair(banker), playerTotal: player.total, bankerTotal: banker.total };
}

/** The roads of a shoe in the screens' shape (the engine computes them; this only renames). */
export function roadsView(shoe: string, coups: readonly RoadResult[]): RoadsView {
  const r = computeRoads(coups.slice(-MAX_ROAD_COUPS));
  const count = (f: (c: RoadResult) => boolean) => coups.filter(f).length;
  return RoadsView.parse({
    shoe,
    beadPlate: r.beadPlate.map((c) => ({ x: c.x, y: c.y, winner: c.winner, playerPair: c.playerPair, bankerPair: c.bankerPair, ...(c.total !== undefined ? { total: c.total } : {}) })),
    bigRoad: r.bigRoad.cells.map((c) => ({ x: c.x, y: c.y, side: c.value.side, ties: c.value.ties, playerPair: c.value.playerPair, bankerPair: c.value.bankerPair })),
    leadingTies: r.bigRoad.leadingTies,
    bigEyeBoy: r.bigEyeBoy.cells.map((c) => ({ x: c.x, y: c.y, colour: c.value })),
    smallRoad: r.smallRoad.cells.map((c) => ({ x: c.x, y: c.y, colour: c.value })),
    cockroachPig: r.cockroachPig.cells.map((c) => ({ x: c.x, y: c.y, colour: c.value })),
    ask: r.ask,
    stats: {
      coups: coups.length,
      banker: count((c) => c.winner === 'banker'),
      player: count((c) => c.winner === 'player'),
      tie: count((c) => c.winner === 'tie'),
      bankerPair: count((c) => c.bankerPair),
      playerPair: count((c) => c.playerPair),
    },
  });
}

/** One station's own view of a recorded round: its bets, lines and credit only. */
export function recallRound(record: RoundRecord, station: number): StationRecallRound {
  const credit = record.credits.find((c) => c.station === station);
  return StationRecallRound.parse({
    roundId: record.roundId,
    ts: record.ts,
    status: record.status,
    cards: record.cards.slice(0, 96),
    bets: record.bets.filter((b) => b.station === station).slice(0, 32).map((b) => ({ seat: b.seat, bet: b.bet, amount: b.amount })),
    lines: record.lines
      .filter((l) => l.station === station)
      .slice(0, 64)
      .map((l) => ({ seat: l.seat, bet: l.bet, ...(l.hand !== undefined ? { hand: l.hand } : {}), stake: l.stake, net: l.net, rule: l.rule.slice(0, 128) })),
    ...(credit ? { creditBefore: credit.before, creditAfter: credit.after } : {}),
  });
}

/**
 * The optional parts of the views that only the screens read: baccarat roads of the current
 * shoe, the other games' recent rounds, each station's recall. Fed from the public round view
 * (pulled on every state build, idempotent) and the ledger; nothing here decides anything.
 */
export class ScreenExtras {
  private coups: RoadResult[] = [];
  private shoe = 1;
  private history: HistoryEntry[] = [];
  private lastSettled = '';
  private shuffling = false;
  private readonly recallCache = new Map<number, StationRecallRound[]>();

  constructor(
    private readonly game: GameKind,
    private readonly ledger: RecallSource,
  ) {}

  /** Looks at the round now on the table: a new result is recorded once, a shuffle starts a new shoe. */
  observe(round: RoundView | null): void {
    if (!round) return;
    const shuffle = round.cue?.kind === 'shuffle';
    if (shuffle && !this.shuffling) {
      this.coups = [];
      this.shoe++;
    }
    this.shuffling = shuffle;
    if (round.phase !== 'results' || !round.results || round.roundId === this.lastSettled) return;
    this.lastSettled = round.roundId;
    // Recall rows are written with the settlement: every station's list is read again once.
    this.recallCache.clear();
    if (this.game === 'baccarat') {
      const coup = coupOf(round);
      if (coup && this.coups.length < MAX_ROAD_COUPS) this.coups.push(coup);
      return;
    }
    const dealer = round.hands.find((h) => h.owner === 'dealer');
    const net = new Map<number, number>();
    // The seat's own result: bets behind it are other players' and stay on their stations.
    for (const l of round.results) if (l.owner === 'seat') net.set(l.seat, (net.get(l.seat) ?? 0) + l.net);
    this.history.push(
      HistoryEntry.parse({
        roundId: round.roundId,
        dealer: dealer?.cards.slice(0, 24) ?? [],
        dealerTotal: dealer?.total ?? null,
        seats: [...net].sort((a, b) => a[0] - b[0]).map(([seat, n]) => ({ seat, outcome: n > 0 ? 'win' : n < 0 ? 'lose' : 'push' })),
      }),
    );
    if (this.history.length > MAX_HISTORY) this.history.splice(0, this.history.length - MAX_HISTORY);
  }

  table(): { roads?: RoadsView; history?: HistoryEntry[] } {
    return this.game === 'baccarat' ? { roads: roadsView(`shoe-${this.shoe}`, this.coups) } : { history: [...this.history] };
  }

  station(station: number): { recall: StationRecallRound[] } {
    let list = this.recallCache.get(station);
    if (!list) {
      list = this.ledger.recall({ station, limit: MAX_RECALL_ROUNDS }).map((r) => recallRound(r, station));
      this.recallCache.set(station, list);
    }
    return { recall: list };
  }
}
