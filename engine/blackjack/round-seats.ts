import { cardCode, type Card } from '../cards/card.js';
import { firstCardsBets } from './bets/catalogue.js';
import type { BlackjackBetEntry } from './bets/entry.js';
import type { StreakLevel } from './bets/streak.js';
import { handTotal, isNaturalPair, rankValue } from './hand.js';
import type { Bar } from './move-bars.js';
import { behindCapRef } from './refs.js';
import { describeRules, type BlackjackRules } from './rules.js';
import {
  RoundError,
  type BehindBet,
  type Hand,
  type HandView,
  type RoundSetup,
  type Seat,
  type SeatEntry,
  type Stake,
  type StreakState,
} from './round-types.js';

/**
 * A round's seats, hands and stakes as the round keeps them, and how they are built from its
 * setup: every bet checked (the table's limits, the catalogue's offer, the texts' counts) before
 * a card is dealt.
 */

export type { Hand, Seat, Stake } from './round-types.js';

export function newHand(seat: number, cards: Card[], stakes: Stake[]): Hand {
  return {
    seat,
    cards,
    stakes,
    fromSplit: false,
    splitAces: false,
    doubled: false,
    aceLocked: false,
    status: 'open',
    acted: false,
    fiveOffered: false,
    bonusDone: false,
  };
}

export function checkAmount(v: unknown, what: string): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v <= 0)
    throw new RoundError(`${what} must be a positive whole amount in minor units, got ${String(v)}`);
  return v;
}

function decider(r: BlackjackRules, entry: SeatEntry): string {
  const seatOwner = `seat:${entry.seat}`;
  const behind = entry.behind ?? [];
  const seated = entry.seated ?? true;
  const highest = (): string => {
    let best = { owner: seatOwner, main: seated ? entry.bets.main : -1 };
    for (const b of behind) if (b.main > best.main) best = { owner: b.owner, main: b.main };
    return best.owner;
  };
  switch (r.betBehind) {
    case 'seated':
      return seatOwner;
    case 'seated-or-nearest':
      return seated || behind.length === 0 ? seatOwner : (behind[0] as BehindBet).owner;
    case 'highest-bet':
      return highest();
    case 'seated-else-highest':
      return seated ? seatOwner : highest();
  }
}

export function validateAndBuild(setup: RoundSetup, catalogue: readonly BlackjackBetEntry[]): Seat[] {
  const r = setup.rules;
  const first = firstCardsBets(catalogue);
  // The seat's additional bets: the first cards' in their settlement order, then the jackpot chip.
  const seatSides: BlackjackBetEntry[] = [...first, ...catalogue.filter((x) => x.family === 'jackpot')];
  if (setup.seats.length === 0) throw new RoundError('no seat has a bet');
  const seen = new Set<number>();
  const streakBySeat = new Map((setup.streaks ?? []).map((x) => [x.seat, x]));
  const seats = [...setup.seats].sort((a, b) => a.seat - b.seat);
  const out: Seat[] = [];
  for (const entry of seats) {
    if (!Number.isInteger(entry.seat) || entry.seat < 1 || entry.seat > r.seats)
      throw new RoundError(`seat ${entry.seat} is not a seat of this table (1–${r.seats})`);
    if (seen.has(entry.seat)) throw new RoundError(`seat ${entry.seat} appears twice`);
    seen.add(entry.seat);
    const main = checkSeatBets(setup, entry, seatSides);
    const streak = seatStreak(r, entry, streakBySeat.get(entry.seat));
    out.push(newSeat(r, entry, seatStakes(r, entry, first, main), streak));
  }
  for (const st of setup.streaks ?? []) {
    if (!Number.isInteger(st.seat) || st.seat < 1 || st.seat > r.seats) throw new RoundError(`streak marker of seat ${st.seat}: no such seat (1–${r.seats})`);
  }
  return out;
}

/** The seat's own bets checked (the limits, the catalogue's offer, the jackpot chip, one additional bet where the text says so); its main bet. */
function checkSeatBets(setup: RoundSetup, entry: SeatEntry, seatSides: readonly BlackjackBetEntry[]): number {
  const r = setup.rules;
  const b = entry.bets;
  const main = checkAmount(b.main, `seat ${entry.seat} main bet`);
  checkLimits(r, main, `seat ${entry.seat} main bet`);
  let sideCount = 0;
  for (const bet of seatSides) {
    const k = bet.id;
    if (k === 'main' || b[k] === undefined) continue;
    if (!bet.offered(r)) throw new RoundError(`seat ${entry.seat}: the ${k} bet is not offered under these rules`);
    checkAmount(b[k], `seat ${entry.seat} ${k} bet`);
    sideCount++;
  }
  refuseUnknown(b, ['main', 'streak', ...seatSides.map((x) => x.id)], `seat ${entry.seat}`);
  if (b.jackpot !== undefined && !setup.jackpot) throw new RoundError(`seat ${entry.seat}: a jackpot bet needs the jackpot program and pools`);
  // Rule 47: «uma ficha por cada jogador, no montante previamente definido».
  if (b.jackpot !== undefined && setup.jackpot && b.jackpot !== setup.jackpot.program.stake)
    throw new RoundError(`seat ${entry.seat}: the jackpot bet is one chip of ${setup.jackpot.program.stake} (portugal-2001 rule 47), not ${b.jackpot}`);
  if (r.oneSideBetPerPlayer && sideCount > 1) throw new RoundError(`seat ${entry.seat}: only one additional bet per player (art.13)`);
  return main;
}

/** The seat's winning-streak bets: new ones placed now, or the open ones carried from earlier rounds (`open`, its marker). */
function seatStreak(r: BlackjackRules, entry: SeatEntry, open: StreakState | undefined): Seat['streak'] {
  const b = entry.bets;
  if (b.streak && Object.keys(b.streak).length > 0) {
    if (!r.winningStreak) throw new RoundError(`seat ${entry.seat}: winning-streak bets are not offered under these rules`);
    if (open) throw new RoundError(`seat ${entry.seat}: streak bets may not change until the open ones are decided (art.13 5)(2) v)`);
    const bets: Partial<Record<`${StreakLevel}`, number>> = {};
    for (const [k, v] of Object.entries(b.streak)) {
      if (!['2', '3', '4', '5'].includes(k)) throw new RoundError(`seat ${entry.seat}: streak level ${k} does not exist (2–5)`);
      bets[k as `${StreakLevel}`] = checkAmount(v, `seat ${entry.seat} streak ${k} bet`);
    }
    return { bets, wins: 0, carried: false };
  }
  return open ? { bets: { ...open.bets }, wins: open.wins, carried: true } : undefined;
}

/** The stakes on the seat's hand: its main bet, then each bet behind it (art.20), all within the table maximum together (rule 15). */
function seatStakes(r: BlackjackRules, entry: SeatEntry, first: readonly BlackjackBetEntry[], main: number): Stake[] {
  const behind = entry.behind ?? [];
  if (behind.filter((x) => x.main !== 0).length + 1 > r.maxBettorsPerSeat) {
    throw new RoundError(`seat ${entry.seat}: at most ${r.maxBettorsPerSeat} bettors per seat (${behindCapRef(r)})`);
  }
  const stakes: Stake[] = [{ owner: undefined, stake: main, base: main, followSplit: true, followDouble: true, stayedOutSplit: false, stayedOutDouble: false }];
  let total = main;
  const owners = new Set<string>();
  for (const bb of behind) {
    if (typeof bb.owner !== 'string' || bb.owner === '' || owners.has(bb.owner) || bb.owner.startsWith('seat:')) {
      throw new RoundError(`seat ${entry.seat}: bettor "${String(bb.owner)}" appears twice or has no usable name`);
    }
    owners.add(bb.owner);
    const stake = behindStake(r, entry.seat, bb, first);
    if (!stake) continue;
    total += stake.stake;
    stakes.push(stake);
  }
  // Rule 15: the seat's bets together stay within the table maximum.
  checkLimits(r, total, `seat ${entry.seat} bets together`);
  return stakes;
}

/** A bettor behind the seat: its first cards' bets checked; its stake on the hand, none when it bets on the first cards only (Art. 13). */
function behindStake(r: BlackjackRules, seat: number, bb: BehindBet, first: readonly BlackjackBetEntry[]): Stake | undefined {
  let sides = 0;
  for (const bet of first) {
    const k = bet.id;
    if (bb[k] === undefined) continue;
    if (!bet.offered(r)) throw new RoundError(`seat ${seat}: the ${k} bet of ${bb.owner} is not offered under these rules`);
    checkAmount(bb[k], `seat ${seat} ${k} bet of ${bb.owner}`);
    sides++;
  }
  refuseUnknown(bb, ['owner', 'main', 'followSplit', 'followDouble', ...first.map((x) => x.id)], `seat ${seat} bettor ${bb.owner}`);
  if (r.oneSideBetPerPlayer && sides > 1) throw new RoundError(`seat ${seat}: only one additional bet per player (art.13)`);
  if (bb.main === 0 && sides > 0) return undefined; // side bets only, on this seat's hand (Art. 13)
  const amount = checkAmount(bb.main, `seat ${seat} bet behind of ${bb.owner}`);
  const chooses = r.behindFollows === 'bettor-chooses';
  return {
    owner: bb.owner,
    stake: amount,
    base: amount,
    followSplit: chooses ? bb.followSplit === true : true,
    followDouble: chooses ? bb.followDouble === true : true,
    stayedOutSplit: false,
    stayedOutDouble: false,
  };
}

/** A seat as the round keeps it before a card is dealt. */
function newSeat(r: BlackjackRules, entry: SeatEntry, stakes: Stake[], streak: Seat['streak']): Seat {
  return {
    entry,
    seat: entry.seat,
    owner: `seat:${entry.seat}`,
    decider: decider(r, entry),
    hands: [newHand(entry.seat, [], stakes)],
    insurance: 0,
    behindInsurance: [],
    declinedResplit: false,
    surrendered: false,
    firstTwo: [],
    awaitingAfterSplit: false,
    splitPairs: [],
    dealt: [],
    ...(streak ? { streak } : {}),
  };
}

/** A bet the round's catalogue does not place there (a baccarat bet, a jackpot chip behind a seat) is refused, never ignored. */
function refuseUnknown(bets: object, known: readonly string[], who: string): void {
  for (const k of Object.keys(bets)) if (!known.includes(k)) throw new RoundError(`${who}: no "${k}" bet here (${known.join(', ')})`);
}

function checkLimits(r: BlackjackRules, amount: number, what: string): void {
  if (r.minBet <= 0) return;
  if (amount < r.minBet) throw new RoundError(`${what} ${amount} is below the table minimum ${r.minBet}`);
  // Each cites its profile's article (Portugal's rules 14 and 37; a house's choice elsewhere), as the live table's limits do (limit-rules.ts).
  if (r.betInMultiplesOfMinimum && amount % r.minBet !== 0)
    throw new RoundError(`${what} ${amount} must be a multiple of the minimum ${r.minBet} (${describeRules(r).betInMultiplesOfMinimum.article})`);
  if (r.maxBetMultiple > 0 && amount > r.maxBetMultiple * r.minBet) {
    throw new RoundError(`${what} ${amount} is above ${r.maxBetMultiple}× the minimum (${describeRules(r).maxBetMultiple.article})`);
  }
}

/**
 * Whether a hand may double now, and whether the double locks a soft ace at one (Art. 17; rules
 * 29–32); if not, why (move-bars.ts), which a refused double says.
 */
export function canDouble(r: BlackjackRules, h: Hand): { ok: true; lockAce: boolean } | { ok: false; lockAce: false; bar: Bar } {
  const no = (bar: Bar) => ({ ok: false as const, lockAce: false as const, bar });
  if (h.cards.length !== 2 || h.acted) return no('double-first-two');
  if (h.splitAces) return no('double-split-aces');
  if (h.fromSplit && !r.doubleAfterSplit) return no('double-after-split');
  if (r.doubleOn === 'any-two') return { ok: true, lockAce: false };
  const allowed = r.doubleOn === 'nine-to-eleven' ? [9, 10, 11] : r.doubleOn === 'ten-eleven' ? [10, 11] : [11];
  const t = handTotal(h.cards);
  if (allowed.includes(t.total)) return { ok: true, lockAce: false };
  if (allowed.includes(t.hard) && r.softDoubleAceLocked) return { ok: true, lockAce: true };
  return no('double-total');
}

/** Why a hand may not split now (Art. 16; rules 26–28), or null when it may. */
export function splitBar(r: BlackjackRules, s: Seat, h: Hand): Bar | null {
  if (h.cards.length !== 2) return 'split-first-two';
  if (s.hands.length >= r.maxHands) return 'split-max-hands';
  if (h.fromSplit && !r.resplit) return 'resplit-off';
  if (h.fromSplit && s.declinedResplit && !r.resplitAfterDecline) return 'resplit-declined';
  const [a, b] = h.cards as [Card, Card];
  const pair = r.splitPairsBy === 'rank' ? a.rank === b.rank : rankValue(a.rank) === rankValue(b.rank);
  return pair ? null : h.fromSplit ? 'resplit-not-pair' : 'split-not-pair';
}

/** Whether a hand may split now (Art. 16; rules 26–28). */
export function canSplit(r: BlackjackRules, s: Seat, h: Hand): boolean {
  return splitBar(r, s, h) === null;
}

/**
 * Why a hand may not surrender now, or null when it may: never against an ace (Art. 18 n.1, rule
 * 36) unless `late`; decided before the dealer deals any additional card (Art. 18 n.2, rule 36:
 * the literal reading, the default) or at the hand's own first decision (`surrenderMoment`); not
 * a hand of a split. On the hand's first two cards only (its caller's check).
 */
export function surrenderBar(r: BlackjackRules, h: Hand, upAce: boolean, additionalDealt: boolean): Bar | null {
  if (r.surrender === 'none') return 'surrender-off';
  if (r.surrender !== 'late' && upAce) return 'surrender-vs-ace';
  if (r.surrenderMoment !== 'hand-first-decision' && additionalDealt) return 'surrender-late';
  if (h.fromSplit) return 'surrender-split';
  return null;
}

/**
 * Hand `i` of the seat split in two. Rule 28: a bettor behind may follow a split with a bet equal
 * to its first on the second hand; one who does not (`followSplit` false, or listed in
 * `notFollowing`) rides on the first hand.
 */
export function splitHand(s: Seat, h: Hand, i: number, notFollowing: readonly string[]): void {
  const moved = h.cards.pop() as Card;
  const aces = moved.rank === 'A';
  if (s.hands.length === 1) s.awaitingAfterSplit = true;
  const stakes: Stake[] = [];
  for (const st of h.stakes) {
    if (st.followSplit && !notFollowing.includes(st.owner as string)) stakes.push({ ...st, stake: st.base, stayedOutSplit: false, stayedOutDouble: false });
    else st.stayedOutSplit = true;
  }
  h.fromSplit = true;
  h.splitAces = aces;
  h.acted = false;
  const fresh: Hand = newHand(s.seat, [moved], stakes);
  fresh.fromSplit = true;
  fresh.splitAces = aces;
  s.hands.splice(i + 1, 0, fresh);
}

/** The seat's hands as a round shows them (a loop, not flatMap: this runs at every move that changes the seat). */
export function handViews(s: Seat): HandView[] {
  const out: HandView[] = [];
  s.hands.forEach((h, i) => {
    const t = handTotal(h.cards, h.aceLocked);
    out.push({
      seat: s.seat,
      hand: i,
      cards: h.cards.map(cardCode),
      total: t.total,
      soft: t.soft,
      status: h.status,
      natural: !h.fromSplit && isNaturalPair(h.cards),
      stake: h.stakes.find((x) => x.owner === undefined)?.stake ?? 0,
    });
  });
  return out;
}
