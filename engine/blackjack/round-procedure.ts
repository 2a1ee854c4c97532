import { isTenValue, type Card } from '../cards/card.js';
import { articleOf, type Articles } from './bets/citation.js';
import type { FirstCardsBet } from './bets/entry.js';
import { dealerDraws, handTotal, isNaturalPair, isSpecial678 } from './hand.js';
import { lineChoices } from './line-choices.js';
import { ref, type RefKey } from './refs.js';
import type { BlackjackRules } from './rules.js';
import type { Bar } from './move-bars.js';
import { canDouble, splitBar, splitHand, surrenderBar } from './round-seats.js';
import {
  RoundError,
  type Action,
  type ActionType,
  type BlackjackSettlementLine,
  type CardStep,
  type CardTarget,
  type Expectation,
  type Hand,
  type HeldStreakStake,
  type JackpotSettlement,
  type Offer,
  type Resume,
  type RoundSetup,
  type Seat,
  type Stake,
  type StreakState,
} from './round-types.js';
import { additionalLines } from './settle/additional.js';
import { insuranceLines } from './settle/insurance.js';
import { handContext, lineOf } from './settle/line.js';
import { bustedBettors, loseToDealerBlackjack, resultAgainst, settleHand, type HandSettled } from './settle/main-bet.js';
import { settleStreaks } from './settle/streak.js';

/** The article that makes the dealer draw: Macau Art. 6 1) (2009 and 2004), Portugal rule 19. */
const DEALER_DRAWS: Articles = ['art.6 1)', 'art.6 1)', 'rule 19'];

/**
 * The round's procedure as functions of a working copy: cards come one at a time (from a seeded
 * shoe or the card-reading shoe, it does not know which) and decisions are asked for in table
 * order; settlement lines appear as bets are decided, each naming its article. Each function runs
 * the procedure from one point until it needs a card or a decision (it sets `expected` and the
 * `resume` point that takes the answer) or the round is settled. The working copy is made fresh
 * for one move by round-step.ts from the round's plain state and becomes the next state; nothing
 * here outlives the move, and no move replays the ones before it.
 */
export interface Work {
  readonly setup: RoundSetup;
  readonly rules: BlackjackRules;
  /** The catalogue's bets of the first cards, in the order they are settled. */
  readonly firstCards: readonly FirstCardsBet[];
  /** The seats in table order: read them here; change one only through `seat(w, k)`, which makes it this move's own copy first. */
  readonly seats: Seat[];
  /** Which seats this move has copied (the others are the state's, shared, and must not change). */
  readonly owned: boolean[];
  readonly dealer: Card[];
  readonly burns: Card[];
  readonly discards: { card: Card; why: string }[];
  readonly unseen: Card[];
  lines: BlackjackSettlementLine[];
  expected: Expectation;
  resume: Resume;
  voided: boolean;
  insuranceSettled: boolean;
  additionalDealt: boolean;
  streaks: StreakState[];
  jackpot: JackpotSettlement | undefined;
  held: HeldStreakStake[];
}

/** The procedure from its start: the per-round burn, then the first cards (Art. 5 n.1; rule 17). */
export function begin(w: Work): void {
  if (w.rules.burnEachRound && !w.setup.firstRoundOfShoe)
    card(w, { to: 'burn' }, 'burn-round', 'burn one card at the start of the round (art.4 n.2)', { at: 'burn-round' });
  else dealFirst(w, 0);
}

/** The procedure takes the card or decision it waits for (already checked by round-step.ts) and runs on to its next question. */
export function answer(w: Work, a: Card | Action): void {
  const at = w.resume;
  const cur = w.expected;
  if (cur.kind === 'card') {
    if (!('rank' in a)) throw new RoundError('a card was expected');
    const t = cur.target;
    if (t.to === 'hand') {
      const k = w.seats.findIndex((x) => x.seat === t.seat);
      if (k >= 0) seat(w, k).dealt.push(a);
    }
    if (cur.step === 'hit' || cur.step === 'double' || cur.step === 'split-second') w.additionalDealt = true;
    takeCard(w, at, a);
  } else if (cur.kind === 'decision') {
    if (!('type' in a)) throw new RoundError('a decision was expected');
    takeDecision(w, at, a, cur.legal);
  } else throw new RoundError('the round is complete');
}

function takeCard(w: Work, at: Resume, c: Card): void {
  switch (at.at) {
    case 'burn-round':
      w.burns.push(c);
      return dealFirst(w, 0);
    case 'first':
      hand(seat(w, at.k), 0).cards.push(c);
      return dealFirst(w, at.k + 1);
    case 'dealer-up':
      w.dealer.push(c);
      return dealSecond(w, 0);
    case 'second':
      hand(seat(w, at.k), 0).cards.push(c);
      return dealSecond(w, at.k + 1);
    case 'dealer-hole':
      w.dealer.push(c);
      return afterDeal(w);
    case 'split-second': {
      const s = seat(w, at.k);
      const h = hand(s, at.i);
      h.cards.push(c);
      // Each pair formed again after a split is an "any pair" too (Art. 13 1)(2)).
      if ((h.cards[0] as Card).rank === c.rank) s.splitPairs.push(at.i);
      if (s.awaitingAfterSplit) {
        s.afterSplit = c;
        s.awaitingAfterSplit = false;
      }
      return handThen(w, at.k, at.i, playOpenHand(w, at.k, at.i));
    }
    case 'hit':
    case 'double':
      hand(seat(w, at.k), at.i).cards.push(c);
      return handThen(w, at.k, at.i, handLoop(w, at.k, at.i));
    case 'burn-dealer-second':
      w.burns.push(c);
      return void card(w, { to: 'dealer' }, 'dealer-second', "dealer's second card", { at: 'dealer-second' });
    case 'dealer-second':
    case 'dealer-draw':
      w.dealer.push(c);
      return dealerDrawing(w);
    default:
      throw new RoundError(`a card is not what the round waits for (${at.at})`);
  }
}

function takeDecision(w: Work, at: Resume, a: Action, legal: readonly ActionType[]): void {
  switch (at.at) {
    case 'even-money': {
      const s = seat(w, at.k);
      if (a.type === 'even-money') settle(w, s, hand(s, 0), 'evenMoney');
      return offers(w, at.k + 1);
    }
    case 'insurance': {
      const s = seat(w, at.k);
      if (a.type === 'insurance') s.insurance = a.amount;
      return offersBehind(w, at.k, 0);
    }
    case 'insurance-behind': {
      const s = seat(w, at.k);
      const owner = hand(s, 0).stakes[at.j]?.owner;
      if (a.type === 'insurance' && owner !== undefined) s.behindInsurance.push([owner, a.amount]);
      return offersBehind(w, at.k, at.j + 1);
    }
    case 'resplit-aces': {
      const s = seat(w, at.k);
      if (a.type === 'split') {
        splitHand(s, hand(s, at.i), at.i, a.notFollowing ?? []);
        return handThen(w, at.k, at.i, playHand(w, at.k, at.i));
      }
      s.declinedResplit = true;
      hand(s, at.i).status = 'stood';
      return handThen(w, at.k, at.i, false);
    }
    case 'five-card': {
      const s = seat(w, at.k);
      if (a.type === 'take-five-card-half') {
        settle(w, s, hand(s, at.i), 'fiveCard');
        return handThen(w, at.k, at.i, false);
      }
      return handThen(w, at.k, at.i, handDecision(w, at.k, at.i));
    }
    case 'play':
      return handThen(w, at.k, at.i, play(w, at.k, at.i, a, legal));
    default:
      throw new RoundError(`a decision is not what the round waits for (${at.at})`);
  }
}

/* ───────────── the deal ───────────── */

/** One card at a time from the left, then the dealer (Art. 5 n.1; rule 17). */
function dealFirst(w: Work, k: number): void {
  const s = w.seats[k];
  if (s) card(w, { to: 'hand', seat: s.seat, hand: 0 }, 'first', 'first card', { at: 'first', k });
  else card(w, { to: 'dealer' }, 'dealer-up', "dealer's face-up card", { at: 'dealer-up' });
}

function dealSecond(w: Work, k: number): void {
  const s = w.seats[k];
  if (s) card(w, { to: 'hand', seat: s.seat, hand: 0 }, 'second', 'second card', { at: 'second', k });
  else if (w.rules.holeCard !== 'none') card(w, { to: 'dealer' }, 'dealer-hole', "dealer's hole card, face down", { at: 'dealer-hole' });
  else afterDeal(w);
}

const upCard = (w: Work): Card => w.dealer[0] as Card;

function afterDeal(w: Work): void {
  for (let k = 0; k < w.seats.length; k++) seat(w, k).firstTwo = hand(seat(w, k), 0).cards.slice();
  const up = upCard(w);
  for (const s of w.seats) {
    const h = hand(s, 0);
    if (isNaturalPair(h.cards)) {
      h.status = 'blackjack';
      // Nothing the dealer can draw beats or ties it: paid at once (rule 21; Art. 10 n.2).
      if (up.rank !== 'A' && !isTenValue(up.rank)) settle(w, s, h, 'blackjack');
    }
  }
  offers(w, 0);
}

/* ───────────── offers on an ace (or a ten for even money), seat by seat from the left ───────────── */

function offers(w: Work, from: number): void {
  const r = w.rules;
  const up = upCard(w);
  const upAce = up.rank === 'A';
  const evenMoneyHere = r.evenMoney === 'vs-ace-or-ten' ? upAce || isTenValue(up.rank) : r.evenMoney === 'vs-ace' ? upAce : false;
  for (let k = from; k < w.seats.length; k++) {
    const s = peek(w, k);
    if (hand(s, 0).status === 'blackjack' && evenMoneyHere)
      return void ask(w, s, 0, 'even-money', ['even-money', 'decline-even-money'], { at: 'even-money', k });
    if (!upAce) continue;
    const main = s.entry.bets.main;
    const max = r.insuranceMax === 'full' ? main : Math.floor(main / 2);
    const min = r.insuranceMin === 'half' ? Math.min(max, Math.ceil(main / 2)) : 1;
    if (max >= 1) return void ask(w, s, 0, 'insurance', ['insurance', 'decline-insurance'], { at: 'insurance', k }, { min, max }, s.owner);
  }
  afterOffers(w);
}

/** Rule 15: when the seat holder insures, each bettor behind may insure their own bet. */
function offersBehind(w: Work, k: number, from: number): void {
  const r = w.rules;
  const s = peek(w, k);
  if (s.insurance > 0) {
    const stakes = hand(s, 0).stakes;
    for (let j = from; j < stakes.length; j++) {
      const st = stakes[j];
      if (st?.owner === undefined) continue;
      const bmax = r.insuranceMax === 'full' ? st.base : Math.floor(st.base / 2);
      const bmin = r.insuranceMin === 'half' ? Math.min(bmax, Math.ceil(st.base / 2)) : 1;
      if (bmax < 1) continue;
      return void ask(w, s, 0, 'insurance', ['insurance', 'decline-insurance'], { at: 'insurance-behind', k, j }, { min: bmin, max: bmax }, st.owner);
    }
  }
  offers(w, k + 1);
}

/** Procedure 3: the dealer checks the hole card on an ace or a ten (Art. 5 n.2 3)(3)-(4)). */
function afterOffers(w: Work): void {
  const up = upCard(w);
  if (w.rules.holeCard === 'peek' && (up.rank === 'A' || isTenValue(up.rank))) {
    if (isNaturalPair(w.dealer)) return finish(w);
    settleInsurance(w, false);
  }
  playFrom(w, 0, 0);
}

/* ───────────── the players' hands ───────────── */

/** The hands from seat `k`'s hand `i` on, in table order; a split's new hand is played after the one it came from. */
function playFrom(w: Work, from: number, fromHand: number): void {
  // A hand's play may split it: the seat's hands are counted again after each.
  for (let k = from, i = fromHand; k < w.seats.length; k++, i = 0) for (; i < peek(w, k).hands.length; i++) if (playHand(w, k, i)) return;
  dealerPlay(w);
}

/** After a hand's move: the procedure waits on it (true), or goes on to the next hand. */
function handThen(w: Work, k: number, i: number, waiting: boolean): void {
  if (!waiting) playFrom(w, k, i + 1);
}

/** Plays hand `i` of seat `k` from its start: true when it waits for a card or a decision, false when it is over. */
function playHand(w: Work, k: number, i: number): boolean {
  const s = peek(w, k);
  if (hand(s, i).cards.length === 1)
    return card(w, { to: 'hand', seat: s.seat, hand: i }, 'split-second', 'second card of a split hand', { at: 'split-second', k, i });
  return playOpenHand(w, k, i);
}

function playOpenHand(w: Work, k: number, i: number): boolean {
  const r = w.rules;
  const s = seat(w, k);
  const h = hand(s, i);
  if (h.status !== 'open') return false;
  if (!h.splitAces) return handLoop(w, k, i);
  // One card to each split ace (Art. 16 n.3; rule 26), which may itself be split again, «uma ou
  // mais vezes»: whatever an ace before it did, as n.5's limit after a split declined is of pairs
  // «que não seja um ás» (Portugal rule 27 has none).
  if ((h.cards[1] as Card).rank === 'A' && r.resplitAces && s.hands.length < r.maxHands)
    return ask(w, s, i, 'play', [...SPLIT_ACE_MOVES], { at: 'resplit-aces', k, i });
  h.status = 'stood';
  return false;
}

/** The hand as it stands after a card: bust, the 6-7-8 bonus, the five-card offer, then its decision. */
function handLoop(w: Work, k: number, i: number): boolean {
  const r = w.rules;
  const s = seat(w, k);
  const h = hand(s, i);
  const t = handTotal(h.cards, h.aceLocked);
  if (t.total > 21) {
    settle(w, s, h, 'bust');
    return false;
  }
  if (r.bonus678 !== 'none' && !h.bonusDone && isSpecial678(h.cards)) {
    h.bonusDone = true;
    if (r.bonus678 === 'replaces-main') {
      settle(w, s, h, 'special678');
      return false;
    }
    for (const st of h.stakes)
      w.lines.push(lineOf(s.seat, 'bonus678', i, 0, 3 * st.stake, ref(r.profile, 'special678'), st.owner, lineChoices(r, 'special678', handContext(h, st))));
  }
  // Art. 19: five cards "sem exceder 21" — 21 included.
  if (h.cards.length === 5 && r.fiveCardHalfPay && upCard(w).rank !== 'A' && !h.fiveOffered) {
    h.fiveOffered = true;
    return ask(w, s, i, 'five-card', ['take-five-card-half', 'continue'], { at: 'five-card', k, i });
  }
  return handDecision(w, k, i);
}

/** The hand's own decision, with what is legal now. */
function handDecision(w: Work, k: number, i: number): boolean {
  const s = seat(w, k);
  const h = hand(s, i);
  if (handTotal(h.cards, h.aceLocked).total === 21 || h.doubled) {
    h.status = 'stood';
    return false;
  }
  return ask(w, s, i, 'play', playMoves(w.rules, s, h, upCard(w).rank === 'A', w.additionalDealt).legal, { at: 'play', k, i });
}

/** A split ace that drew an ace: split it again or stand, nothing else (Art. 16 n.3; rule 26). */
const SPLIT_ACE_MOVES: readonly ActionType[] = ['split', 'stand'];

/** The answers to the questions other than a hand's play: refused as "no such question" at a hand's play. */
const ANSWERS: readonly ActionType[] = ['insurance', 'decline-insurance', 'even-money', 'decline-even-money', 'take-five-card-half', 'continue'];

/**
 * What a hand may do at its own decision, and why each other move of play may not be made: the
 * one function that makes the legal list, whose bars a refused move quotes (`barOf`).
 */
export function playMoves(
  r: BlackjackRules,
  s: Seat,
  h: Hand,
  upAce: boolean,
  additionalDealt: boolean,
): { legal: ActionType[]; barred: Partial<Record<ActionType, Bar>> } {
  const legal: ActionType[] = ['hit'];
  const barred: Partial<Record<ActionType, Bar>> = {};
  const allow = (a: ActionType, bar: Bar | null) => (bar === null ? legal.push(a) : (barred[a] = bar));
  allow('stand', handTotal(h.cards, h.aceLocked).total >= r.minStandTotal ? null : 'stand-low');
  const first = h.cards.length === 2 && !h.acted;
  const dbl = canDouble(r, h);
  allow('double', !first ? 'double-first-two' : dbl.ok ? null : dbl.bar);
  allow('split', first ? splitBar(r, s, h) : 'split-first-two');
  allow('surrender', first ? surrenderBar(r, h, upAce, additionalDealt) : 'surrender-late');
  return { legal, barred };
}

/**
 * Why `type` may not answer the question the round waits on, or null when it may: at a hand's
 * play, the bar `playMoves` gave it; at a split ace's, one card to each; at another question
 * (insurance, even money, five cards), that question comes first.
 */
export function barOf(w: Work, type: ActionType): Bar | null {
  const at = w.resume;
  const x = w.expected;
  if (x.kind !== 'decision' || x.legal.includes(type)) return null;
  if (at.at === 'play') {
    const s = peek(w, at.k);
    const bar = playMoves(w.rules, s, hand(s, at.i), upCard(w).rank === 'A', w.additionalDealt).barred[type];
    return bar ?? (ANSWERS.includes(type) ? 'no-question' : null);
  }
  if (at.at === 'resplit-aces') return ANSWERS.includes(type) ? 'no-question' : 'split-aces-one-card';
  return 'other-question';
}

function play(w: Work, k: number, i: number, a: Action, legal: readonly ActionType[]): boolean {
  const s = seat(w, k);
  const h = hand(s, i);
  // Whether the hand may double, as it was offered: before the hand has acted.
  const dbl = canDouble(w.rules, h);
  h.acted = true;
  // Art. 16 n.5: having declined to split again, the player may not split a later pair.
  if (h.fromSplit && legal.includes('split') && a.type !== 'split') s.declinedResplit = true;
  switch (a.type) {
    case 'hit':
      return card(w, { to: 'hand', seat: s.seat, hand: i }, 'hit', 'hit', { at: 'hit', k, i });
    case 'stand':
      h.status = 'stood';
      return false;
    case 'surrender':
      s.surrendered = true;
      settle(w, s, h, 'surrender');
      return false;
    case 'double':
      h.doubled = true;
      h.aceLocked = dbl.lockAce;
      // Rule 30: a bettor behind may double its own bet; one who does not stays at its stake.
      for (const st of h.stakes) {
        if (st.followDouble && !(st.owner !== undefined && a.notFollowing?.includes(st.owner))) st.stake *= 2;
        else st.stayedOutDouble = true;
      }
      // The loop then settles a bust, pays a 6-7-8 and stands.
      return card(w, { to: 'hand', seat: s.seat, hand: i }, 'double', 'the one card of a double', { at: 'double', k, i });
    case 'split':
      splitHand(s, h, i, a.notFollowing ?? []);
      return playHand(w, k, i);
    default:
      throw new RoundError(`unexpected ${a.type}`);
  }
}

/* ───────────── the dealer, then settlement ───────────── */

function dealerPlay(w: Work): void {
  const r = w.rules;
  const waiting = w.seats.flatMap((s) => s.hands).filter((h) => h.status === 'stood' || h.status === 'blackjack');
  const insurancePending = w.seats.some((s) => s.insurance > 0 && !w.insuranceSettled);
  if (r.holeCard === 'none' && (waiting.length > 0 || insurancePending || r.dealerDrawsWhenAllLost)) {
    if (r.burnBeforeDealerSecond)
      return void card(w, { to: 'burn' }, 'burn-dealer-second', "burn one card before the dealer's second card (art.4 n.2)", { at: 'burn-dealer-second' });
    return void card(w, { to: 'dealer' }, 'dealer-second', "dealer's second card", { at: 'dealer-second' });
  }
  dealerDrawing(w);
}

function dealerDrawing(w: Work): void {
  const r = w.rules;
  if (isNaturalPair(w.dealer)) return finish(w);
  // Only a hand still standing against the dealer makes the dealer draw (rule 22).
  const contested = w.seats.some((s) => s.hands.some((h) => h.status === 'stood'));
  if (!contested && !r.dealerDrawsWhenAllLost) return finish(w);
  if (dealerDraws(w.dealer, r.dealerSoft17))
    return void card(w, { to: 'dealer' }, 'dealer-draw', `dealer draws (${articleOf(r.profile, DEALER_DRAWS)})`, { at: 'dealer-draw' });
  finish(w);
}

function settleInsurance(w: Work, dealerBlackjack: boolean): void {
  if (w.insuranceSettled) return;
  w.insuranceSettled = true;
  w.lines.push(...insuranceLines(w.rules, w.seats, dealerBlackjack));
}

/** Settles whatever is still open against the dealer's final hand, then the side bets and the streaks. */
function finish(w: Work): void {
  const dealerBJ = isNaturalPair(w.dealer);
  settleInsurance(w, dealerBJ);
  for (let k = 0; k < w.seats.length; k++) {
    const s = seat(w, k);
    const open = s.hands.filter((h) => h.status === 'stood' || h.status === 'blackjack' || h.status === 'open');
    if (dealerBJ) {
      // A Black Jack pushes, the others lose what the profile takes.
      const lostAlready = bustedBettors(s);
      for (const h of open) {
        if (h.status === 'blackjack') settle(w, s, h, 'blackjackPush');
        else apply(w, h, loseToDealerBlackjack(w.rules, s, h, lostAlready));
      }
    } else for (const h of open) settle(w, s, h, resultAgainst(w.dealer, h));
  }
  const side = additionalLines(w.rules, w.firstCards, w.seats, w.setup.jackpot);
  w.lines.push(...side.lines);
  if (side.jackpot) w.jackpot = side.jackpot;
  const streaks = settleStreaks(w.rules, w.seats, w.setup.streaks ?? [], w.setup.keptOut);
  w.lines.push(...streaks.lines);
  w.streaks = streaks.streaks;
  w.held = streaks.held;
  w.expected = { kind: 'done' };
  w.resume = { at: 'done' };
}

function settle(w: Work, s: Seat, h: Hand, key: RefKey): void {
  apply(w, h, settleHand(w.rules, s, h, key));
}

function apply(w: Work, h: Hand, settled: HandSettled): void {
  w.lines.push(...settled.lines);
  h.outcome = settled.outcome;
  h.status = settled.status;
}

/* ───────────── helpers ───────────── */

/** Seat `k` to read. */
function peek(w: Work, k: number): Seat {
  const s = w.seats[k];
  if (!s) throw new RoundError(`the round has no seat at index ${k}`);
  return s;
}

/** Seat `k` to change: this move's own copy of it (made on first use), never the state's. */
function seat(w: Work, k: number): Seat {
  const s = peek(w, k);
  if (w.owned[k]) return s;
  const own = cloneSeat(s);
  w.seats[k] = own;
  w.owned[k] = true;
  return own;
}

function hand(s: Seat, i: number): Hand {
  const h = s.hands[i];
  if (!h) throw new RoundError(`seat ${s.seat} has no hand ${i}`);
  return h;
}

/*
 * A seat, its hands and stakes copied field by field: these copies run at every move, and a spread
 * of an object built with optional fields is V8's slow path. A field added to `Seat`, `Hand` or
 * `Stake` must be copied here (TypeScript names a required one left out; round-step.test.ts checks
 * that a copy keeps every field, optional ones included).
 */

function cloneStake(st: Stake): Stake {
  return {
    owner: st.owner,
    stake: st.stake,
    base: st.base,
    followSplit: st.followSplit,
    followDouble: st.followDouble,
    stayedOutSplit: st.stayedOutSplit,
    stayedOutDouble: st.stayedOutDouble,
  };
}

function cloneHand(h: Hand): Hand {
  const own: Hand = {
    seat: h.seat,
    cards: h.cards.slice(),
    stakes: h.stakes.map(cloneStake),
    fromSplit: h.fromSplit,
    splitAces: h.splitAces,
    doubled: h.doubled,
    aceLocked: h.aceLocked,
    status: h.status,
    acted: h.acted,
    fiveOffered: h.fiveOffered,
    bonusDone: h.bonusDone,
  };
  if (h.outcome !== undefined) own.outcome = h.outcome;
  return own;
}

export function cloneSeat(s: Seat): Seat {
  const own: Seat = {
    entry: s.entry,
    seat: s.seat,
    owner: s.owner,
    decider: s.decider,
    hands: s.hands.map(cloneHand),
    insurance: s.insurance,
    behindInsurance: s.behindInsurance.map(([owner, amount]): [string, number] => [owner, amount]),
    declinedResplit: s.declinedResplit,
    surrendered: s.surrendered,
    firstTwo: s.firstTwo.slice(),
    awaitingAfterSplit: s.awaitingAfterSplit,
    splitPairs: s.splitPairs.slice(),
    dealt: s.dealt.slice(),
  };
  if (s.afterSplit !== undefined) own.afterSplit = s.afterSplit;
  if (s.streak !== undefined) own.streak = { bets: { ...s.streak.bets }, wins: s.streak.wins, carried: s.streak.carried };
  return own;
}

/** The procedure waits for a card (true: it waits). */
function card(w: Work, target: CardTarget, step: CardStep, why: string, resume: Resume): true {
  w.expected = { kind: 'card', target, step, why };
  w.resume = resume;
  return true;
}

/** The procedure waits for a decision of the seat, or of the bettor who decides for it (true: it waits). */
function ask(
  w: Work,
  s: Seat,
  hand: number,
  offer: Offer,
  legal: ActionType[],
  resume: Resume,
  insurance?: { min: number; max: number },
  decider: string = s.decider,
): true {
  w.expected = { kind: 'decision', seat: s.seat, hand, offer, legal, decider, ...(insurance ? { insurance } : {}) };
  w.resume = resume;
  return true;
}
