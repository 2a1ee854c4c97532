import { cardCode, isTenValue, type Card } from '../cards/card.js';
import { ShoeInventory } from '../cards/shoe.js';
import { BLACKJACK_CATALOGUE, firstCardsBets } from './bets/catalogue.js';
import type { FirstCardsBet, SideBetId } from './bets/entry.js';
import { dealerDraws, handTotal, isNaturalPair, isSpecial678 } from './hand.js';
import { poolsInPlay } from './jackpot/settle.js';
import { lineChoices, type LineMarks } from './line-choices.js';
import { ref, type RefKey } from './refs.js';
import type { BlackjackRules } from './rules.js';
import {
  RoundError,
  type Action,
  type ActionType,
  type BlackjackSettlementLine,
  type CardStep,
  type CardTarget,
  type Expectation,
  type HeldStreakStake,
  type JackpotSettlement,
  type Offer,
  type RoundEvent,
  type RoundSetup,
  type RoundState,
  type StakeView,
  type StreakState,
} from './round-types.js';
import { canDouble, canSplit, handViews, splitHand, validateAndBuild, type Answer, type Flow, type Hand, type Seat } from './round-seats.js';
import { additionalLines } from './settle/additional.js';
import { insuranceLines } from './settle/insurance.js';
import { handContext, lineOf } from './settle/line.js';
import { bustedBettors, loseToDealerBlackjack, resultAgainst, settleHand, type HandSettled } from './settle/main-bet.js';
import { settleStreaks } from './settle/streak.js';
import { voidLines } from './settle/void.js';

/**
 * A round's state from its setup and log: the procedure (a generator that asks for each card and
 * decision in table order, and settles as bets are decided) played over the log from the start.
 * The procedure's working objects live only while `runRound` runs; what comes out is plain data.
 * A round's moves (round.ts) are this function over the log with one more event, so a move that
 * is refused throws and leaves the state it was given as it was.
 */
export function runRound(setup: RoundSetup, log: readonly RoundEvent[]): RoundState {
  const p = new Procedure(setup);
  for (const e of log) {
    if ('card' in e) p.deal(e.card);
    else if ('action' in e) p.decide(e.action);
    else if ('discard' in e) p.discard(e.discard, e.why);
    else if ('held' in e) p.holdUnseen(e.held);
    else p.voidRound(e.void);
  }
  return p.state();
}

/**
 * The procedure's working state while `runRound` plays a log: cards come one at a time — from a
 * seeded shoe or the card-reading shoe, it does not know which — and decisions are asked for in
 * table order; settlement lines appear as bets are decided, each naming its article. Private to
 * this file: nothing outside ever holds one.
 */
class Procedure {
  private readonly rules: BlackjackRules;
  private readonly lines: BlackjackSettlementLine[] = [];
  private readonly dealer: Card[] = [];
  private readonly burns: Card[] = [];
  private readonly seatList: Seat[];
  private readonly flow: Flow;
  private current: Expectation;
  private readonly inventory: ShoeInventory;
  private readonly setup: RoundSetup;
  private streaksOut: StreakState[] = [];
  private jackpotOut: JackpotSettlement | undefined;
  private heldOut: HeldStreakStake[] = [];
  /** The catalogue's bets of the first cards, in the order they are settled. */
  private readonly firstCards: readonly FirstCardsBet[];

  constructor(setup: RoundSetup) {
    this.setup = setup;
    this.rules = setup.rules;
    this.inventory = ShoeInventory.fromCounts(setup.rules.decks, setup.out ?? {});
    const catalogue = setup.catalogue ?? BLACKJACK_CATALOGUE;
    this.firstCards = firstCardsBets(catalogue);
    this.seatList = validateAndBuild(setup, catalogue);
    this.flow = this.play();
    const first = this.flow.next();
    this.current = first.done ? { kind: 'done' } : first.value;
  }

  /** Places the next card read from the shoe where the procedure says it goes. */
  deal(card: Card): void {
    const cur = this.current;
    if (cur.kind !== 'card') {
      throw new RoundError(
        cur.kind === 'done'
          ? `card ${cardCode(card)} left over: the round is complete`
          : `card ${cardCode(card)} arrived while a decision is awaited from seat ${cur.seat} hand ${cur.hand}`,
      );
    }
    if (!this.inventory.take(card)) {
      throw new RoundError(`card ${cardCode(card)} is impossible: more copies than the ${this.rules.decks} deck(s) hold`);
    }
    this.log.push({ card });
    this.advance(card);
  }

  decide(action: Action): void {
    const cur = this.current;
    if (cur.kind !== 'decision') {
      throw new RoundError(
        cur.kind === 'done'
          ? `decision "${action.type}" left over: the round is complete`
          : `decision "${action.type}" given while a card is expected (${cur.why})`,
      );
    }
    if (!cur.legal.includes(action.type)) {
      throw new RoundError(`"${action.type}" is not legal for seat ${cur.seat} hand ${cur.hand} now (${cur.offer}); legal: ${cur.legal.join(', ')}`);
    }
    if ((action.type === 'double' || action.type === 'split') && action.notFollowing !== undefined) {
      const stakes = this.seatList.find((x) => x.seat === cur.seat)?.hands[cur.hand]?.stakes ?? [];
      const seen = new Set<string>();
      for (const owner of action.notFollowing) {
        const st = stakes.find((x) => x.owner === owner);
        if (seen.has(owner) || !st || !(action.type === 'double' ? st.followDouble : st.followSplit)) {
          throw new RoundError(`"${owner}" has no bet behind on seat ${cur.seat} hand ${cur.hand} that would follow the ${action.type}`);
        }
        seen.add(owner);
      }
      // A copy goes into the log: the caller's list may change after this.
      action = { type: action.type, notFollowing: [...action.notFollowing] };
    }
    if (action.type === 'insurance') {
      const range = cur.insurance;
      if (!range || !Number.isSafeInteger(action.amount) || action.amount < range.min || action.amount > range.max) {
        throw new RoundError(`insurance of ${action.amount} for seat ${cur.seat}: must be a whole amount from ${range?.min} to ${range?.max}`);
      }
    }
    this.log.push({ action });
    this.advance(action);
  }

  /** Every card, decision, discard and void, in order: the round's state (`runRound` plays it again). */
  private readonly log: RoundEvent[] = [];

  /** Cards that left the shoe but do not count, with the reason. */
  private readonly discards: { card: Card; why: string }[] = [];
  private voided = false;

  /**
   * A card that must not count: exposed when it should not be (Art. 5 n.1 (1)), drawn by the
   * dealer unduly and shown (Art. 6 n.1; rule 19), the dealer's second card turned while dealt
   * (rule 17). It leaves the shoe (the inventory counts it) and goes to the discards; the round
   * still expects the same card as before.
   */
  discard(card: Card, why: string): void {
    if (this.current.kind === 'done') throw new RoundError('the round is complete');
    if (!this.inventory.take(card)) throw new RoundError(`card ${cardCode(card)} is impossible: more copies than the ${this.rules.decks} deck(s) hold`);
    this.discards.push({ card, why });
    this.log.push({ discard: card, why });
  }

  /**
   * Art. 5 n.1 (2): an error in dealing that cannot be rectified cancels every card of the round,
   * and a supervisor may void a round on hold (docs/architecture.md, a round): every bet of the round is returned.
   * Lines already written are replaced by returns; streak markers stay where they were.
   */
  voidRound(why: string): void {
    if (this.voided) return;
    this.log.push({ void: why });
    this.lines.length = 0;
    this.lines.push(...voidLines(this.rules, this.seatList, this.returnedOnVoid, this.firstCards, why));
    this.streaksOut = (this.setup.streaks ?? []).map((x) => ({ ...x, bets: { ...x.bets } }));
    this.voided = true;
    this.current = { kind: 'done' };
  }

  /** The seat's additional bets a void returns, in the order their lines are written. */
  private get returnedOnVoid(): SideBetId[] {
    const catalogue = this.setup.catalogue ?? BLACKJACK_CATALOGUE;
    const jackpot = catalogue.flatMap((b) => {
      const id = b.id;
      return b.family === 'jackpot' && b.onVoid === 'returned' && id !== 'main' ? [id] : [];
    });
    return [...this.firstCards.filter((b) => b.onVoid === 'returned').map((b) => b.id), ...jackpot];
  }

  /** Cards drawn by mistake and not seen, waiting for the next player who asks for a card (rule 18). */
  private readonly held: Card[] = [];

  /**
   * Portugal rule 18: a card drawn against what the player asked, while still unseen, goes to the
   * next player who asks for a card (a hit or a double), or else to the dealer's next draw; a card
   * nobody takes is discarded at the end of the round. (Macau Art. 6 n.1 is the dealer's own
   * undue card: it is void if shown — `discard` — and may stay valid if not.)
   */
  holdUnseen(card: Card): void {
    if (this.current.kind === 'done') throw new RoundError('the round is complete');
    if (!this.inventory.take(card)) throw new RoundError(`card ${cardCode(card)} is impossible: more copies than the ${this.rules.decks} deck(s) hold`);
    this.held.push(card);
    this.log.push({ held: card });
    this.feedHeld();
  }

  private feedHeld(): void {
    for (;;) {
      const cur = this.current;
      if (cur.kind === 'done') {
        for (const c of this.held.splice(0)) this.discards.push({ card: c, why: 'held card nobody asked for (rule 18)' });
        return;
      }
      const c = this.held[0];
      if (!c || cur.kind !== 'card' || !(cur.step === 'hit' || cur.step === 'double' || cur.step === 'dealer-draw')) return;
      this.held.shift();
      const next = this.flow.next(c);
      this.current = next.done ? { kind: 'done' } : next.value;
    }
  }

  private advance(answer: Answer): void {
    const next = this.flow.next(answer);
    this.current = next.done ? { kind: 'done' } : next.value;
    if (this.held.length > 0) this.feedHeld();
  }

  /** The round as plain data. The procedure is dropped after it, so nothing mutable escapes. */
  state(): RoundState {
    return {
      setup: this.setup,
      log: this.log,
      expected: this.current,
      done: this.current.kind === 'done',
      voided: this.voided,
      firstOfShoe: this.setup.firstRoundOfShoe === true,
      lines: this.lines,
      dealer: this.dealer,
      burns: this.burns,
      discards: this.discards,
      hands: handViews(this.seatList),
      stakes: this.seatList.flatMap((s) => s.hands.flatMap((h, hand) => h.stakes.map((st): StakeView => ({ seat: s.seat, hand, ...st })))),
      streaksBefore: this.streaksBefore(),
      streaks: this.streaksOut,
      ...(this.jackpotOut ? { jackpot: this.jackpotOut } : {}),
      ...(this.setup.jackpot
        ? {
            jackpotPools: poolsInPlay(
              this.setup.jackpot,
              this.seatList.reduce((t, s) => t + (s.entry.bets.jackpot ?? 0), 0),
            ),
          }
        : {}),
      held: this.heldOut,
      out: this.inventory.counts(),
    };
  }

  /** Streak markers as the round started: those carried in, and the seats' new streak bets at no wins. */
  private streaksBefore(): StreakState[] {
    const carried = (this.setup.streaks ?? []).map((x) => ({ ...x, bets: { ...x.bets } }));
    const fresh = this.seatList.flatMap((s) => (s.streak && !s.streak.carried ? [{ seat: s.seat, bets: { ...s.streak.bets }, wins: 0 }] : []));
    return [...carried, ...fresh].sort((a, b) => a.seat - b.seat);
  }

  /* ───────────── the procedure ───────────── */

  private *play(): Flow {
    const r = this.rules;
    const seats = this.seatList;
    if (r.burnEachRound && !this.setup.firstRoundOfShoe) {
      this.burns.push(yield* this.card({ to: 'burn' }, 'burn-round', 'burn one card at the start of the round (art.4 n.2)'));
    }
    // One card at a time from the left, then the dealer (Art. 5 n.1; rule 17).
    for (const s of seats) this.hand(s, 0).cards.push(yield* this.card({ to: 'hand', seat: s.seat, hand: 0 }, 'first', 'first card'));
    this.dealer.push(yield* this.card({ to: 'dealer' }, 'dealer-up', "dealer's face-up card"));
    for (const s of seats) this.hand(s, 0).cards.push(yield* this.card({ to: 'hand', seat: s.seat, hand: 0 }, 'second', 'second card'));
    if (r.holeCard !== 'none') this.dealer.push(yield* this.card({ to: 'dealer' }, 'dealer-hole', "dealer's hole card, face down"));
    for (const s of seats) s.firstTwo = this.hand(s, 0).cards.slice();

    const up = this.dealer[0] as Card;
    const upAce = up.rank === 'A';
    const upTen = isTenValue(up.rank);

    for (const s of seats) {
      const h = this.hand(s, 0);
      if (isNaturalPair(h.cards)) {
        h.status = 'blackjack';
        // Nothing the dealer can draw beats or ties it: paid at once (rule 21; Art. 10 n.2).
        if (!upAce && !upTen) this.settleHand(s, h, 'blackjack');
      }
    }

    // Offers on an ace (or a ten for even money), seat by seat from the left.
    for (const s of seats) {
      const h = this.hand(s, 0);
      const evenMoneyHere = r.evenMoney === 'vs-ace-or-ten' ? upAce || upTen : r.evenMoney === 'vs-ace' ? upAce : false;
      if (h.status === 'blackjack' && evenMoneyHere) {
        const a = yield* this.ask(s, 0, 'even-money', ['even-money', 'decline-even-money']);
        if (a.type === 'even-money') this.settleHand(s, h, 'evenMoney');
      } else if (upAce) {
        const main = s.entry.bets.main;
        const max = r.insuranceMax === 'full' ? main : Math.floor(main / 2);
        const min = r.insuranceMin === 'half' ? Math.min(max, Math.ceil(main / 2)) : 1;
        if (max >= 1) {
          const a = yield* this.ask(s, 0, 'insurance', ['insurance', 'decline-insurance'], { min, max }, s.owner);
          if (a.type === 'insurance') s.insurance = a.amount;
        }
        // Rule 15: when the seat holder insures, each bettor behind may insure their own bet.
        if (s.insurance > 0) {
          for (const st of h.stakes) {
            if (st.owner === undefined) continue;
            const bmax = r.insuranceMax === 'full' ? st.base : Math.floor(st.base / 2);
            const bmin = r.insuranceMin === 'half' ? Math.min(bmax, Math.ceil(st.base / 2)) : 1;
            if (bmax < 1) continue;
            const b = yield* this.ask(s, 0, 'insurance', ['insurance', 'decline-insurance'], { min: bmin, max: bmax }, st.owner);
            if (b.type === 'insurance') s.behindInsurance.set(st.owner, b.amount);
          }
        }
      }
    }

    // Procedure 3: the dealer checks the hole card on an ace or a ten (Art. 5 n.2 (3)(3)-(4)).
    if (r.holeCard === 'peek' && (upAce || upTen)) {
      if (isNaturalPair(this.dealer)) {
        this.finish();
        return;
      }
      this.settleInsurance(false);
    }

    for (const s of seats) {
      for (let i = 0; i < s.hands.length; i++) yield* this.playHand(s, i);
    }

    yield* this.dealerPlay();
    this.finish();
  }

  private *playHand(s: Seat, i: number): Generator<Expectation, void, Answer> {
    const r = this.rules;
    const h = this.hand(s, i);
    const upAce = (this.dealer[0] as Card).rank === 'A';
    if (h.cards.length === 1) {
      const c = yield* this.card({ to: 'hand', seat: s.seat, hand: i }, 'split-second', 'second card of a split hand');
      h.cards.push(c);
      // Each pair formed again after a split is an "any pair" too (Art. 13 1)(2)).
      if ((h.cards[0] as Card).rank === c.rank) s.splitPairs.push(i);
      if (s.awaitingAfterSplit) {
        s.afterSplit = c;
        s.awaitingAfterSplit = false;
      }
    }
    if (h.status !== 'open') return;
    if (h.splitAces) {
      // One card to each split ace (Art. 16 n.3; rule 26), which may itself be split again.
      if ((h.cards[1] as Card).rank === 'A' && r.resplitAces && s.hands.length < r.maxHands && (r.resplitAfterDecline || !s.declinedResplit)) {
        const a = yield* this.ask(s, i, 'play', ['split', 'stand']);
        if (a.type === 'split') {
          splitHand(s, this.hand(s, i), i, a.notFollowing ?? []);
          yield* this.playHand(s, i);
          return;
        }
        s.declinedResplit = true;
      }
      h.status = 'stood';
      return;
    }
    for (;;) {
      const t = handTotal(h.cards, h.aceLocked);
      if (t.total > 21) {
        this.settleHand(s, h, 'bust');
        return;
      }
      if (r.bonus678 !== 'none' && !h.bonusDone && isSpecial678(h.cards)) {
        h.bonusDone = true;
        if (r.bonus678 === 'replaces-main') {
          this.settleHand(s, h, 'special678');
          return;
        }
        for (const st of h.stakes)
          this.line(s.seat, 'bonus678', i, 0, 3 * st.stake, ref(r.profile, 'special678'), st.owner, lineChoices(r, 'special678', handContext(h, st)));
      }
      // Art. 19: five cards "sem exceder 21" — 21 included.
      if (h.cards.length === 5 && r.fiveCardHalfPay && !upAce && !h.fiveOffered) {
        h.fiveOffered = true;
        const a = yield* this.ask(s, i, 'five-card', ['take-five-card-half', 'continue']);
        if (a.type === 'take-five-card-half') {
          this.settleHand(s, h, 'fiveCard');
          return;
        }
      }
      if (t.total === 21 || h.doubled) {
        h.status = 'stood';
        return;
      }
      const legal: ActionType[] = ['hit'];
      if (t.total >= r.minStandTotal) legal.push('stand');
      const dbl = canDouble(this.rules, h);
      if (h.cards.length === 2 && !h.acted) {
        if (dbl.ok) legal.push('double');
        if (canSplit(this.rules, s, h)) legal.push('split');
        // Art. 18 n.2, rule 36: decided before the dealer deals any additional card (literal
        // reading, the default), or at the hand's own first decision (`surrenderMoment`).
        const inTime = r.surrenderMoment === 'hand-first-decision' || !this.additionalDealt;
        if (!h.fromSplit && inTime && r.surrender !== 'none' && (r.surrender === 'late' || !upAce)) legal.push('surrender');
      }
      const a = yield* this.ask(s, i, 'play', legal);
      h.acted = true;
      // Art. 16 n.5: having declined to split again, the player may not split a later pair.
      if (h.fromSplit && legal.includes('split') && a.type !== 'split') s.declinedResplit = true;
      switch (a.type) {
        case 'hit':
          h.cards.push(yield* this.card({ to: 'hand', seat: s.seat, hand: i }, 'hit', 'hit'));
          break;
        case 'stand':
          h.status = 'stood';
          return;
        case 'surrender':
          s.surrendered = true;
          this.settleHand(s, h, 'surrender');
          return;
        case 'double': {
          h.doubled = true;
          h.aceLocked = dbl.lockAce;
          // Rule 30: a bettor behind may double its own bet; one who does not stays at its stake.
          for (const st of h.stakes) {
            if (st.followDouble && !a.notFollowing?.includes(st.owner as string)) st.stake *= 2;
            else st.stayedOutDouble = true;
          }
          h.cards.push(yield* this.card({ to: 'hand', seat: s.seat, hand: i }, 'double', 'the one card of a double'));
          break; // the loop settles a bust, pays a 6-7-8 and stands
        }
        case 'split':
          splitHand(s, this.hand(s, i), i, a.notFollowing ?? []);
          yield* this.playHand(s, i);
          return;
        default:
          throw new RoundError(`unexpected ${a.type}`);
      }
    }
  }

  private *dealerPlay(): Generator<Expectation, void, Answer> {
    const r = this.rules;
    const hands = this.seatList.flatMap((s) => s.hands);
    const waiting = hands.filter((h) => h.status === 'stood' || h.status === 'blackjack');
    const contested = waiting.filter((h) => h.status === 'stood');
    const insurancePending = this.seatList.some((s) => s.insurance > 0 && !this.insuranceSettled);
    if (r.holeCard === 'none' && (waiting.length > 0 || insurancePending || r.dealerDrawsWhenAllLost)) {
      if (r.burnBeforeDealerSecond) {
        this.burns.push(yield* this.card({ to: 'burn' }, 'burn-dealer-second', "burn one card before the dealer's second card (art.4 n.2)"));
      }
      this.dealer.push(yield* this.card({ to: 'dealer' }, 'dealer-second', "dealer's second card"));
    }
    if (isNaturalPair(this.dealer)) return;
    // Only a hand still standing against the dealer makes the dealer draw (rule 22).
    if (contested.length === 0 && !r.dealerDrawsWhenAllLost) return;
    while (dealerDraws(this.dealer, r.dealerSoft17)) {
      this.dealer.push(yield* this.card({ to: 'dealer' }, 'dealer-draw', 'dealer draws (art.6 n.1)'));
    }
  }

  private insuranceSettled = false;

  private settleInsurance(dealerBlackjack: boolean): void {
    if (this.insuranceSettled) return;
    this.insuranceSettled = true;
    this.lines.push(...insuranceLines(this.rules, this.seatList, dealerBlackjack));
  }

  /** Settles whatever is still open against the dealer's final hand, then the side bets. */
  private finish(): void {
    const dealerBJ = isNaturalPair(this.dealer);
    this.settleInsurance(dealerBJ);
    for (const s of this.seatList) {
      const open = s.hands.filter((h) => h.status === 'stood' || h.status === 'blackjack' || h.status === 'open');
      if (dealerBJ) this.settleAgainstDealerBlackjack(s, open);
      else for (const h of open) this.settleHand(s, h, resultAgainst(this.dealer, h));
    }
    this.settleSideBets();
    this.settleStreaks();
  }

  /** The hands still open against the dealer's Black Jack: a Black Jack pushes, the others lose what the profile takes. */
  private settleAgainstDealerBlackjack(s: Seat, open: Hand[]): void {
    const lostAlready = bustedBettors(s);
    for (const h of open) {
      if (h.status === 'blackjack') this.settleHand(s, h, 'blackjackPush');
      else this.apply(h, loseToDealerBlackjack(this.rules, s, h, lostAlready));
    }
  }

  private settleHand(s: Seat, h: Hand, key: RefKey): void {
    this.apply(h, settleHand(this.rules, s, h, key));
  }

  private apply(h: Hand, settled: HandSettled): void {
    this.lines.push(...settled.lines);
    h.outcome = settled.outcome;
    h.status = settled.status;
  }

  private settleSideBets(): void {
    const out = additionalLines(this.rules, this.firstCards, this.seatList, this.setup.jackpot);
    this.lines.push(...out.lines);
    if (out.jackpot) this.jackpotOut = out.jackpot;
  }

  private settleStreaks(): void {
    const out = settleStreaks(this.rules, this.seatList, this.setup.streaks ?? []);
    this.lines.push(...out.lines);
    this.streaksOut = out.streaks;
    this.heldOut = out.held;
  }

  /* ───────────── helpers ───────────── */

  private hand(s: Seat, i: number): Hand {
    const h = s.hands[i];
    if (!h) throw new RoundError(`seat ${s.seat} has no hand ${i}`);
    return h;
  }

  private line(seat: number, bet: string, hand: number, stake: number, net: number, rule: string, owner?: string, marks: LineMarks = {}): void {
    this.lines.push(lineOf(seat, bet, hand, stake, net, rule, owner, marks));
  }

  private *card(target: CardTarget, step: CardStep, why: string): Generator<Expectation, Card, Answer> {
    const a = yield { kind: 'card', target, step, why };
    if (!('rank' in a)) throw new RoundError('a card was expected');
    if (target.to === 'hand') this.seatList.find((x) => x.seat === target.seat)?.dealt.push(a);
    if (step === 'hit' || step === 'double' || step === 'split-second') this.additionalDealt = true;
    return a;
  }

  /** A card beyond the first deal has been dealt to a hand (hit, double, a split hand's second): surrender is then too late (Art. 18 n.2). */
  private additionalDealt = false;

  private *ask(
    s: Seat,
    hand: number,
    offer: Offer,
    legal: ActionType[],
    insurance?: { min: number; max: number },
    decider: string = s.decider,
  ): Generator<Expectation, Action, Answer> {
    const a = yield { kind: 'decision', seat: s.seat, hand, offer, legal, decider, ...(insurance ? { insurance } : {}) };
    if (!('type' in a)) throw new RoundError('a decision was expected');
    return a;
  }
}
