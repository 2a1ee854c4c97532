import type { RoundRecord } from '../../ledger/index.js';
import { MAX_HOST_MESSAGE_BYTES, StationRecallRound, utf8ByteLength } from '../../protocol/index.js';
import { rulesSaid } from '../../engine/table/public-lines.js';

/** What a station's recall reads: the ledger's record of a station's rounds (`Ledger.rounds`). */
export interface RecallSource {
  recall(query: { station: number; limit?: number }): RoundRecord[];
  /** A station's last rounds' ids, newest first (their records read apart, once for every station). */
  recallIds(station: number, limit?: number): string[];
  /** `recallIds` of many stations in one read. */
  recallIdsOf(stations: readonly number[], limit?: number): Map<number, string[]>;
  record(roundId: string): RoundRecord | undefined;
  /** Changes whenever the round's record does after its close (a late correction): until it moves, a read record stays true. */
  recordVersion(roundId: string): number;
  /** Changes whenever the station's recall does: until it moves, a read recall stays true. */
  recallVersion(station: number): number;
  /** Changes whenever any station's recall version does. */
  recallTick(): number;
  /** The stations whose recall version moved after a `recallTick` read before. */
  recallMovedSince(tick: number): number[];
}

/** The station's own seat's streak marker before and after the round, when the round moved one. */
function streakOf(record: RoundRecord, station: number) {
  const m = record.streaks?.find((x) => x.station === station);
  return m ? { streak: { before: m.before, after: m.after } } : {};
}

/** The rule set's record a round was played under (`rules.record`), as a station's recall shows it. */
export interface RecallRules {
  reference?: string;
  effective?: string;
  demonstration: boolean;
}

/** One station's own view of a recorded round: its bets, lines and credit only; the table's authorisation on record when known. */
export function recallRound(record: RoundRecord, station: number, rules: RecallRules | null = null): StationRecallRound {
  const credit = record.credits.find((c) => c.station === station);
  return StationRecallRound.parse({
    roundId: record.roundId,
    ts: record.ts,
    status: record.status,
    cards: fitCards(record.cards, stationSeats(record, station)),
    bets: fitBets(record.bets.filter((b) => b.station === station).map((b) => ({ seat: b.seat, bet: b.bet, amount: b.amount }))),
    lines: fitLines(
      record.lines
        .filter((l) => l.station === station)
        .map((l) => ({
          seat: l.seat,
          bet: l.bet,
          ...(l.hand !== undefined ? { hand: l.hand } : {}),
          stake: l.stake,
          net: l.net,
          rule: l.rule.slice(0, 128),
          ...(l.choices?.length ? { choices: l.choices.slice(0, 12).map((c) => c.slice(0, 96)) } : {}),
          ...(l.choices?.length && l.authorisation ? { authorisation: l.authorisation.slice(0, 128) } : {}),
          ...(l.carried ? { carried: true as const } : {}),
        })),
    ),
    ...streakOf(record, station),
    // The dealing errors corrected in the round (never who corrected them: that is the floor's).
    ...(record.corrections?.length
      ? {
          corrections: record.corrections
            .slice(0, RECALL_CAPS.corrections)
            .map((c) => ({ correction: c.correction, ...(c.card ? { card: c.card } : {}), article: c.article.slice(0, 128) })),
        }
      : {}),
    // Those past the cap counted, never left out unsaid (before, a round of 20 read as one of 16).
    ...((record.corrections?.length ?? 0) > RECALL_CAPS.corrections ? { correctionsOmitted: (record.corrections?.length ?? 0) - RECALL_CAPS.corrections } : {}),
    ...(credit ? { creditBefore: credit.before, creditAfter: credit.after } : {}),
    ...(rules
      ? {
          rules: {
            ...(rules.reference ? { reference: rules.reference.slice(0, 64) } : {}),
            ...(rules.effective ? { effective: rules.effective.slice(0, 10) } : {}),
            demonstration: rules.demonstration,
          },
        }
      : {}),
  });
}

/**
 * The most a station's recalled rounds may encode to: the recall goes whole in one host message
 * (view-hub.ts `recallPart`), which a screen refuses past MAX_HOST_MESSAGE_BYTES; 1 KiB is kept for
 * its envelope (its type, the longest view name, a version of 16 digits take under 100 bytes).
 */
export const RECALL_BYTES = MAX_HOST_MESSAGE_BYTES - 1024;

/**
 * A station's recalled rounds (newest first) as many as fit RECALL_BYTES encoded, the oldest left
 * out first, and how many were. Each round is held to its schema's caps, but ten at their largest
 * are about 1.1 MB: before, such a recall was sent whole, and its screen refused it as oversized.
 */
export function fitRecall(rounds: StationRecallRound[], budget = RECALL_BYTES): { rounds: StationRecallRound[]; omitted: number } {
  // The list's brackets, then each round and its comma.
  let bytes = 2;
  let kept = 0;
  for (const r of rounds) {
    bytes += utf8ByteLength(JSON.stringify(r)) + (kept > 0 ? 1 : 0);
    if (bytes > budget) break;
    kept++;
  }
  return kept === rounds.length ? { rounds, omitted: 0 } : { rounds: rounds.slice(0, kept), omitted: rounds.length - kept };
}

/** A round's bets, lines and cards as one station's recall holds them (`StationRecallRound`'s caps). */
export const RECALL_CAPS = { bets: 32, lines: 64, cards: 96, corrections: 16 } as const;

/** The seats a station staked on in a round (its own, those it bet behind or on). */
function stationSeats(record: RoundRecord, station: number): ReadonlySet<number> {
  return new Set([...record.bets, ...record.lines].filter((x) => x.station === station).map((x) => x.seat));
}

/** The seat a card went to (`seat:3:hand:1`, `seat:3`), or null (the dealer, baccarat's sides, a burn). */
function cardSeat(to: string): number | null {
  const m = /^seat:(\d+)/.exec(to);
  return m ? Number(m[1]) : null;
}

/**
 * A round's cards as a station's recall holds them: every one when they fit; past the cap (seven
 * seats each split to five hands and doubled is 105 cards to the seats) the burns and the cards of
 * seats the station staked nothing on go (its screen shows the dealer's and its own seat's only),
 * then, if still over, the last seat cards, never the dealer's or the sides': always in the order
 * dealt. Before, the cards past the 96th were dropped unsaid, the dealer's (dealt last) with them.
 */
function fitCards(cards: RoundRecord['cards'], seats: ReadonlySet<number>): RoundRecord['cards'] {
  if (cards.length <= RECALL_CAPS.cards) return cards;
  const shown = (to: string) => {
    const seat = cardSeat(to);
    return seat === null || seats.has(seat);
  };
  const kept = cards.filter((c) => c.to !== 'burn' && shown(c.to));
  let room = RECALL_CAPS.cards - kept.filter((c) => cardSeat(c.to) === null).length;
  return kept.filter((c) => cardSeat(c.to) === null || room-- > 0).slice(0, RECALL_CAPS.cards);
}

/** A bet and a line as the recall holds them: the round record's, without the station (the recall is one station's). */
type RecallBet = Omit<RoundRecord['bets'][number], 'station' | 'seq'> & AcrossSeats;
type RecallLine = Omit<RoundRecord['lines'][number], 'station'> & AcrossSeats;
/** An entry summed across the seats: every seat it holds, in order (its `seat` is their first). */
interface AcrossSeats {
  seats?: number[];
}

/** The seats a group of entries holds, when more than one (said with the entry summed from them). */
function seatsOf(g: readonly { seat: number; seats?: number[] }[]): AcrossSeats {
  const seats = [...new Set(g.flatMap((x) => x.seats ?? [x.seat]))].sort((a, b) => a - b);
  return seats.length > 1 ? { seats } : {};
}

/**
 * Items merged by `key` in their first's order, each group made one by `merge`: what the recall
 * does with a round of more items than its message holds one by one (its money summed, never cut).
 */
function mergeBy<T>(xs: readonly T[], key: (x: T) => string, merge: (group: T[]) => T): T[] {
  const groups = new Map<string, T[]>();
  for (const x of xs) {
    const k = key(x);
    const g = groups.get(k);
    if (g) g.push(x);
    else groups.set(k, [x]);
  }
  return [...groups.values()].map((g) => (g.length === 1 ? (g[0] as T) : merge(g)));
}

/**
 * A station's bets of a round: one by one when they fit the recall's cap; past it (a heavy
 * blackjack round: bets behind every seat, each split to five hands and doubled, is 70) each
 * seat's bets of a kind summed (the doubles on seat 3 as one), then each kind's across the seats
 * (naming every seat it holds, `seats`; before, said under the first seat's number alone, the
 * others' money as that seat's): never more than the cap, never a minor unit left out. Before,
 * the bets past the 32nd were dropped unsaid.
 */
function fitBets(bets: RecallBet[]): RecallBet[] {
  const sum = (g: RecallBet[]): RecallBet => {
    const across = seatsOf(g);
    return { ...(g[0] as RecallBet), ...across, ...(across.seats ? { seat: across.seats[0] as number } : {}), amount: g.reduce((a, b) => a + b.amount, 0) };
  };
  let out = bets;
  if (out.length > RECALL_CAPS.bets) out = mergeBy(out, (b) => `${b.seat}|${b.bet}`, sum);
  if (out.length > RECALL_CAPS.bets) out = mergeBy(out, (b) => b.bet, sum);
  return out;
}

/** Lines summed into one: their stakes and nets; what they all say alike (choices, carried); their rules as `rulesSaid` says them. */
function sumLines(g: RecallLine[]): RecallLine {
  const first = g[0] as RecallLine;
  const same = (f: (l: RecallLine) => string) => g.every((l) => f(l) === f(first));
  const choices = same((l) => JSON.stringify(l.choices ?? [])) && same((l) => l.authorisation ?? '') ? first.choices : undefined;
  const across = seatsOf(g);
  return {
    seat: across.seats?.[0] ?? first.seat,
    ...across,
    bet: first.bet,
    ...(same((l) => String(l.hand)) && first.hand !== undefined ? { hand: first.hand } : {}),
    stake: g.reduce((a, l) => a + l.stake, 0),
    net: g.reduce((a, l) => a + l.net, 0),
    rule: rulesSaid(g.map((l) => l.rule)),
    ...(choices?.length ? { choices, ...(first.authorisation ? { authorisation: first.authorisation } : {}) } : {}),
    ...(g.every((l) => l.carried) ? { carried: true as const } : {}),
  };
}

/**
 * A station's lines of a round: one by one when they fit the recall's cap; past it, the hands of
 * each seat's bet settled under one rule summed (hand dropped), then each seat's bet, then each
 * bet across the seats (naming every seat it holds): never more than the cap, and the lines always sum to the round's stakes
 * and net (the station's recall list shows a round's net as their sum). Before, the lines past the
 * 64th were dropped unsaid, and the net shown with them.
 */
function fitLines(lines: RecallLine[]): RecallLine[] {
  let out = lines;
  const alike = (l: RecallLine) => JSON.stringify([l.seat, l.bet, l.rule, l.choices ?? [], l.authorisation ?? '', l.carried ?? false]);
  if (out.length > RECALL_CAPS.lines) out = mergeBy(out, alike, sumLines);
  if (out.length > RECALL_CAPS.lines) out = mergeBy(out, (l) => `${l.seat}|${l.bet}`, sumLines);
  if (out.length > RECALL_CAPS.lines) out = mergeBy(out, (l) => l.bet, sumLines);
  return out;
}
