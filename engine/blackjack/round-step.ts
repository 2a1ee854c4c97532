import { cardCode, type Card, type CardCode } from '../cards/card.js';
import { ShoeInventory } from '../cards/shoe.js';
import { BLACKJACK_CATALOGUE, firstCardsBets } from './bets/catalogue.js';
import type { SideBetId } from './bets/entry.js';
import { poolsInPlay } from './jackpot/settle.js';
import { barReason } from './move-bars.js';
import { answer, barOf, begin, type Work } from './round-procedure.js';
import { handViews, validateAndBuild } from './round-seats.js';
import { insuranceAmountRef } from './refs.js';
import {
  RoundError,
  type Action,
  type ActionType,
  type RoundEvent,
  type RoundSetup,
  type RoundState,
  type HandView,
  type Seat,
  type SeatViews,
  type StakeView,
  type StreakState,
} from './round-types.js';
import { voidLines } from './settle/void.js';

/**
 * A blackjack round's moves as one pure function: `stepRound(state, event)` is the next state.
 * The round's state carries the procedure's own (its seats, where it waits, its flags) as plain
 * data, so a move costs what that move does: nothing is replayed. A move is made on a working
 * copy of the state (`thaw`), which becomes the next state (`freeze`); a refused move throws a
 * `RoundError` before any state is made, and the state it was given is never changed.
 */

/** A round opened on these bets (validated: a bet its catalogue or rules do not have is refused). */
export function openRoundState(setup: RoundSetup): RoundState {
  const out = ShoeInventory.fromCounts(setup.rules.decks, setup.out ?? {}).counts();
  const catalogue = setup.catalogue ?? BLACKJACK_CATALOGUE;
  const seats = validateAndBuild(setup, catalogue);
  const w: Work = {
    setup,
    rules: setup.rules,
    firstCards: firstCardsBets(catalogue),
    seats,
    owned: seats.map(() => true),
    dealer: [],
    burns: [],
    discards: [],
    unseen: [],
    lines: [],
    expected: { kind: 'done' },
    resume: { at: 'done' },
    voided: false,
    insuranceSettled: false,
    additionalDealt: false,
    streaks: [],
    jackpot: undefined,
    held: [],
  };
  begin(w);
  const jackpotPools = setup.jackpot
    ? poolsInPlay(
        setup.jackpot,
        seats.reduce((t, s) => t + (s.entry.bets.jackpot ?? 0), 0),
      )
    : undefined;
  return freeze(w, [], out, [], {
    firstOfShoe: setup.firstRoundOfShoe === true,
    streaksBefore: streaksBefore(setup, seats),
    ...(jackpotPools ? { jackpotPools } : {}),
  });
}

/** The round after one event: a card, a decision, a discard, a card held unseen (rule 18), a void. */
export function stepRound(r: RoundState, e: RoundEvent): RoundState {
  if ('void' in e) return r.voided ? r : voided(r, e.void, e.dealingError === true);
  const cur = r.expected;
  const out: Partial<Record<CardCode, number>> = { ...r.out };
  const decks = r.setup.rules.decks;
  if ('card' in e) {
    const card = e.card;
    if (cur.kind !== 'card') {
      throw new RoundError(
        cur.kind === 'done'
          ? `card ${cardCode(card)} left over: the round is complete`
          : `card ${cardCode(card)} arrived while a decision is awaited from seat ${cur.seat} hand ${cur.hand}`,
      );
    }
    take(out, decks, card);
    const w = thaw(r);
    answer(w, card);
    feedUnseen(w);
    return freeze(w, [...r.log, e], out, r.procedure.views, r);
  }
  if ('action' in e) {
    const action = checkedAction(r, e.action);
    const w = thaw(r);
    answer(w, action);
    feedUnseen(w);
    return freeze(w, [...r.log, { action }], out, r.procedure.views, r);
  }
  if (cur.kind === 'done') throw new RoundError('the round is complete');
  if ('discard' in e) {
    take(out, decks, e.discard);
    const w = thaw(r);
    w.discards.push({ card: e.discard, why: e.why });
    return freeze(w, [...r.log, e], out, r.procedure.views, r);
  }
  take(out, decks, e.held);
  const w = thaw(r);
  w.unseen.push(e.held);
  feedUnseen(w);
  return freeze(w, [...r.log, e], out, r.procedure.views, r);
}

/** A card leaves the shoe: refused when the decks hold no more copies of it. */
function take(out: Partial<Record<CardCode, number>>, decks: number, card: Card): void {
  const code = cardCode(card);
  const n = out[code] ?? 0;
  if (n >= decks) throw new RoundError(`card ${code} is impossible: more copies than the ${decks} deck(s) hold`);
  out[code] = n + 1;
}

/** The decision as the round takes it, or a `RoundError` saying why it is refused now. */
function checkedAction(r: RoundState, action: Action): Action {
  const cur = r.expected;
  if (cur.kind !== 'decision') {
    throw new RoundError(
      cur.kind === 'done'
        ? `decision "${action.type}" left over: the round is complete`
        : `decision "${action.type}" given while a card is expected (${cur.why})`,
    );
  }
  if (!cur.legal.includes(action.type)) {
    const why = whyIllegal(r, action.type);
    throw new RoundError(
      `"${action.type}" is not legal for seat ${cur.seat} hand ${cur.hand} now (${cur.offer})${why ? `: ${why}` : ''}; legal: ${cur.legal.join(', ')}`,
    );
  }
  if ((action.type === 'double' || action.type === 'split') && action.notFollowing !== undefined) {
    const stakes = r.procedure.seats.find((x) => x.seat === cur.seat)?.hands[cur.hand]?.stakes ?? [];
    const seen = new Set<string>();
    for (const owner of action.notFollowing) {
      const st = stakes.find((x) => x.owner === owner);
      if (seen.has(owner) || !st || !(action.type === 'double' ? st.followDouble : st.followSplit)) {
        throw new RoundError(`"${owner}" has no bet behind on seat ${cur.seat} hand ${cur.hand} that would follow the ${action.type}`);
      }
      seen.add(owner);
    }
    // A copy goes into the log: the caller's list may change after this.
    return { type: action.type, notFollowing: [...action.notFollowing] };
  }
  if (action.type === 'insurance') {
    const range = cur.insurance;
    if (!range || !Number.isSafeInteger(action.amount) || action.amount < range.min || action.amount > range.max) {
      const article = insuranceAmountRef(r.setup.rules.profile);
      throw new RoundError(`insurance of ${action.amount} for seat ${cur.seat}: must be a whole amount from ${range?.min} to ${range?.max} (${article})`);
    }
  }
  return action;
}

/**
 * Why a decision `type` is not legal at the question the round waits on, with the article of its
 * profile (or the house's option) that bars it: the bar of the function that made the legal list
 * (round-procedure.ts `barOf`); null when it is legal, or no decision is awaited.
 */
export function whyIllegal(r: RoundState, type: ActionType): string | null {
  const bar = barOf(thaw(r), type);
  return bar === null ? null : barReason(r.setup.rules, bar);
}

/**
 * Portugal rule 18: a card held unseen goes to the next player who asks for a card (a hit or a
 * double), or else to the dealer's next draw; one nobody takes is discarded at the end of the round.
 */
function feedUnseen(w: Work): void {
  while (w.unseen.length > 0) {
    const cur = w.expected;
    if (cur.kind === 'done') {
      for (const c of w.unseen.splice(0)) w.discards.push({ card: c, why: 'held card nobody asked for (rule 18)' });
      return;
    }
    const c = w.unseen[0];
    if (!c || cur.kind !== 'card' || !(cur.step === 'hit' || cur.step === 'double' || cur.step === 'dealer-draw')) return;
    w.unseen.shift();
    answer(w, c);
  }
}

/**
 * Art. 5 n.1 2): an error in dealing that cannot be rectified cancels every card of the round,
 * and a supervisor may void a round on hold: every bet of the round is returned. Lines already
 * written are replaced by returns, citing the article only for such an error (`dealingError`);
 * streak markers stay where they were.
 */
function voided(r: RoundState, why: string, dealingError: boolean): RoundState {
  const w = thaw(r);
  const catalogue = r.setup.catalogue ?? BLACKJACK_CATALOGUE;
  // The seat's additional bets a void returns, in the order their lines are written.
  const jackpot = catalogue.flatMap((b): SideBetId[] => (b.family === 'jackpot' && b.onVoid === 'returned' && b.id !== 'main' ? [b.id] : []));
  const returned = [...w.firstCards.filter((b) => b.onVoid === 'returned').map((b) => b.id), ...jackpot];
  w.lines = voidLines(w.rules, w.seats, returned, w.firstCards, why, dealingError);
  w.streaks = (r.setup.streaks ?? []).map((x) => ({ ...x, bets: { ...x.bets } }));
  w.voided = true;
  w.expected = { kind: 'done' };
  w.resume = { at: 'done' };
  return freeze(w, [...r.log, { void: why, ...(dealingError ? { dealingError: true as const } : {}) }], r.out, r.procedure.views, r);
}

/* ───────────── the state and its working copy ───────────── */

/** A working copy of the round for one move: its lists are fresh copies, and a seat is copied when the move changes it. */
function thaw(r: RoundState): Work {
  const p = r.procedure;
  return {
    setup: r.setup,
    rules: r.setup.rules,
    // From the catalogue the move is given with (a table keeps its round as plain data, without it:
    // engine/blackjack/table.ts), never from the state: functions do not survive a checkpoint.
    firstCards: firstCardsBets(r.setup.catalogue ?? BLACKJACK_CATALOGUE),
    // Shared with the state until the move changes one (round-procedure.ts `seat`).
    seats: [...p.seats],
    owned: p.seats.map(() => false),
    dealer: [...r.dealer],
    burns: [...r.burns],
    discards: [...r.discards],
    unseen: [...p.unseen],
    lines: [...r.lines],
    expected: r.expected,
    resume: p.resume,
    voided: r.voided,
    insuranceSettled: p.insuranceSettled,
    additionalDealt: p.additionalDealt,
    streaks: [...r.streaks],
    jackpot: r.jackpot,
    held: [...r.held],
  };
}

/** What does not move after the round opens. */
type Fixed = Pick<RoundState, 'firstOfShoe' | 'streaksBefore' | 'jackpotPools'>;

/** The working copy as the round's next state: plain data, never changed after. */
function freeze(w: Work, log: readonly RoundEvent[], out: RoundState['out'], before: readonly SeatViews[], fixed: Fixed): RoundState {
  const views: SeatViews[] = [];
  // Plain loops: Array#flatMap is several times slower in V8, and this runs at every move.
  const hands: HandView[] = [];
  const stakes: StakeView[] = [];
  w.seats.forEach((s, k) => {
    const v = w.owned[k] ? seatViews(s) : (before[k] ?? seatViews(s));
    views.push(v);
    for (const h of v.hands) hands.push(h);
    for (const st of v.stakes) stakes.push(st);
  });
  return {
    setup: w.setup,
    log,
    expected: w.expected,
    done: w.expected.kind === 'done',
    voided: w.voided,
    firstOfShoe: fixed.firstOfShoe,
    lines: w.lines,
    dealer: w.dealer,
    burns: w.burns,
    discards: w.discards,
    hands,
    stakes,
    streaksBefore: fixed.streaksBefore,
    streaks: w.streaks,
    ...(w.jackpot ? { jackpot: w.jackpot } : {}),
    ...(fixed.jackpotPools ? { jackpotPools: fixed.jackpotPools } : {}),
    held: w.held,
    out,
    procedure: {
      seats: w.seats,
      views,
      resume: w.resume,
      unseen: w.unseen,
      insuranceSettled: w.insuranceSettled,
      additionalDealt: w.additionalDealt,
    },
  };
}

/** A seat's hands and stakes as the round shows them. */
function seatViews(s: Seat): SeatViews {
  const stakes: StakeView[] = [];
  s.hands.forEach((h, hand) => {
    for (const st of h.stakes) stakes.push({ seat: s.seat, hand, ...st });
  });
  return { hands: handViews(s), stakes };
}

/** Streak markers as the round started: those carried in, and the seats' new streak bets at no wins. */
function streaksBefore(setup: RoundSetup, seats: readonly Seat[]): StreakState[] {
  const carried = (setup.streaks ?? []).map((x) => ({ ...x, bets: { ...x.bets } }));
  const fresh = seats.flatMap((s) => (s.streak && !s.streak.carried ? [{ seat: s.seat, bets: { ...s.streak.bets }, wins: 0 }] : []));
  return [...carried, ...fresh].sort((a, b) => a.seat - b.seat);
}
