import { cardCode, isTenValue, parseCard, type Card, type CardCode } from '../../../engine/cards/card.js';
import { ShoeInventory } from '../../../engine/cards/shoe.js';
import type { SettlementLine } from '../../../engine/settlement/settlement-line.js';
import { dealerDraws, handTotal, isNaturalPair, isSpecial678, rankValue } from '../../../engine/blackjack/hand.js';
import type { JackpotEntry, JackpotLevelMove, JackpotResult, JackpotState } from '../../../engine/blackjack/jackpot/settle.js';
import { poolsShown, settleChips } from './jackpot.js';
import { lineChoices, type LineContext, type LineMarks } from './line-choices.js';
import { ref, stayedOutRef, type RefKey } from './refs.js';
import { isRegulated, type BlackjackRules } from '../../../engine/blackjack/rules.js';
import {
  ANY_PAIR_PAYS,
  OVER_UNDER_PAYS,
  PERFECT_PAIRS_PAYS,
  SEVENS_PAYS,
  STREAK_LEVELS,
  STREAK_PAYS,
  isRankPair,
  overUnderTotal,
  perfectPairKind,
  sevensKind,
  type StreakLevel,
} from './side-bets.js';

/* ───────────────────────────── inputs ───────────────────────────── */

export interface SeatBets {
  readonly main: number;
  readonly anyPair?: number;
  readonly sevens?: number;
  readonly over13?: number;
  readonly under13?: number;
  readonly perfectPairs?: number;
  readonly jackpot?: number;
  /** New winning-streak bets by level (Art. 13 5)); only when the seat has none open. */
  readonly streak?: Partial<Record<`${StreakLevel}`, number>>;
}

/**
 * A bet behind (Macau Art. 20; Portugal rules 15–16, 28, 30). A bettor may also (or only) place
 * additional bets on this seat's hand: Art. 13 lets them be placed on any player's hand; `main: 0`
 * with a side bet is such a side-only bettor.
 */
export interface BehindBet {
  readonly owner: string;
  readonly main: number;
  readonly anyPair?: number;
  readonly sevens?: number;
  readonly over13?: number;
  readonly under13?: number;
  readonly perfectPairs?: number;
  /** With `behindFollows: bettor-chooses`: whether this bettor follows a split / a double. */
  readonly followSplit?: boolean;
  readonly followDouble?: boolean;
}

export interface SeatEntry {
  readonly seat: number;
  readonly bets: SeatBets;
  readonly behind?: readonly BehindBet[];
  /** Whether a player sits at the seat (false: only standing bettors; Art. 3 n.4, rule 16). */
  readonly seated?: boolean;
}

/** Winning-streak marker of a seat, carried from round to round (Art. 13 5), Art. 11 n.2). */
export interface StreakState {
  readonly seat: number;
  /** Open bets by level, in minor units. */
  readonly bets: Partial<Record<`${StreakLevel}`, number>>;
  /** Consecutive rounds won so far (the marker's position is wins + 1). */
  readonly wins: number;
}

export interface RoundSetup {
  readonly rules: BlackjackRules;
  readonly seats: readonly SeatEntry[];
  readonly streaks?: readonly StreakState[];
  /** The first round after a shuffle: per-round burns do not apply (the shoe-start burn did). */
  readonly firstRoundOfShoe?: boolean;
  /** The jackpot's program and pools as the round starts (Portugal rules 38–50). */
  readonly jackpot?: JackpotState;
  /** Shared inventory of the shoe, so a card beyond its copies is refused across rounds. */
  readonly inventory?: ShoeInventory;
}

/* ───────────────────────────── outputs ───────────────────────────── */

export type CardTarget = { readonly to: 'burn' } | { readonly to: 'dealer' } | { readonly to: 'hand'; readonly seat: number; readonly hand: number };

export type CardStep =
  'burn-round' | 'first' | 'dealer-up' | 'second' | 'dealer-hole' | 'split-second' | 'hit' | 'double' | 'burn-dealer-second' | 'dealer-second' | 'dealer-draw';

export type ActionType =
  | 'hit'
  | 'stand'
  | 'double'
  | 'split'
  | 'surrender'
  | 'insurance'
  | 'decline-insurance'
  | 'even-money'
  | 'decline-even-money'
  | 'take-five-card-half'
  | 'continue';

export type Action =
  | { readonly type: Exclude<ActionType, 'insurance' | 'double' | 'split'> }
  | {
      readonly type: 'double' | 'split';
      /**
       * Bettors behind (owners) whose bet would follow this double or split but does not: it stays
       * at its original stake on the doubled hand (Portugal rule 30), or rides on the first of the
       * two hands (rule 28). The seat's own bet always follows. Macau Art. 20 is silent on both;
       * the same reading applies there (docs/table-host.md). A host lists a bettor who cannot cover
       * its share, so the deciding player's double or split never depends on another's credit.
       */
      readonly notFollowing?: readonly string[];
    }
  | { readonly type: 'insurance'; readonly amount: number };

export type Offer = 'play' | 'insurance' | 'even-money' | 'five-card';

export type Expectation =
  | {
      readonly kind: 'card';
      readonly target: CardTarget;
      /** What the card is, as a code for the dealer's display (translated there). */
      readonly step: CardStep;
      /** The same in English, for logs and error messages. */
      readonly why: string;
    }
  | {
      readonly kind: 'decision';
      readonly seat: number;
      readonly hand: number;
      readonly offer: Offer;
      readonly legal: readonly ActionType[];
      /** Who decides for the seat (Art. 20 n.1; rules 15–16): `seat:<n>` or a behind bettor. */
      readonly decider: string;
      readonly insurance?: { readonly min: number; readonly max: number };
    }
  | { readonly kind: 'done' };

export interface BlackjackSettlementLine extends SettlementLine {
  /** The bettor behind, for back bets; absent for the seat's own bets. */
  readonly owner?: string;
  /** A winning-streak stake wagered in an earlier round and carried open until this one decided it. */
  readonly carried?: true;
}

/** A winning-streak stake wagered this round that stays open past it (the host holds it: ledger `held`). */
export interface HeldStreakStake {
  readonly seat: number;
  readonly bet: `streak${StreakLevel}`;
  readonly amount: number;
}

export interface HandView {
  readonly seat: number;
  readonly hand: number;
  readonly cards: CardCode[];
  readonly total: number;
  readonly soft: boolean;
  readonly status: HandStatus;
  /** Ace and a ten as a hand's first two cards, not after a split: «Black Jack» (Art. 10 n.1, n.6; rule 20). */
  readonly natural: boolean;
  readonly stake: number;
}

export type HandStatus = 'open' | 'stood' | 'busted' | 'surrendered' | 'blackjack' | 'settled';

export class RoundError extends Error {}

/** What happened in a round, in order: enough to rebuild it exactly (recovery after a restart). */
export type RoundEvent =
  | { readonly card: string }
  | { readonly action: Action }
  | { readonly discard: string; readonly why: string }
  | { readonly held: string }
  | { readonly void: string };

/* ───────────────────────────── state ───────────────────────────── */

/** The additional bets of Art. 13 a bettor may place on a hand. */
type SideBets = Pick<SeatBets, 'anyPair' | 'sevens' | 'over13' | 'under13' | 'perfectPairs'>;
const SIDE_KEYS = ['anyPair', 'sevens', 'over13', 'under13', 'perfectPairs'] as const;

interface Stake {
  readonly owner: string | undefined;
  stake: number;
  readonly base: number;
  readonly followSplit: boolean;
  readonly followDouble: boolean;
  /** The stake stayed out of a split of its hand (rule 28) or a double (rule 30): its lines say so. */
  stayedOutSplit: boolean;
  stayedOutDouble: boolean;
}

interface Hand {
  readonly seat: number;
  cards: Card[];
  stakes: Stake[];
  fromSplit: boolean;
  splitAces: boolean;
  doubled: boolean;
  aceLocked: boolean;
  status: HandStatus;
  acted: boolean;
  fiveOffered: boolean;
  bonusDone: boolean;
  /** Net result of the main bet of the seat owner on this hand, once settled (for streaks). */
  outcome?: 'win' | 'lose' | 'push';
}

interface Seat {
  readonly entry: SeatEntry;
  readonly seat: number;
  readonly owner: string;
  readonly decider: string;
  hands: Hand[];
  insurance: number;
  /** Insurance of bettors behind (rule 15), by bettor. */
  behindInsurance: Map<string, number>;
  /** The player declined to split a pair formed after a split (Art. 16 n.5). */
  declinedResplit: boolean;
  surrendered: boolean;
  firstTwo: Card[];
  sevensThird?: Card;
  awaitingSevensThird: boolean;
  /** Hands (by index when formed) whose first two cards after a split were a pair. */
  splitPairs: number[];
  /** Every card dealt to the seat's hands, in dealing order: the player's cards of rule 42. */
  dealt: Card[];
  /** Open streak bets; `carried`: open since an earlier round (their stakes were wagered then). */
  streak?: { bets: Partial<Record<`${StreakLevel}`, number>>; wins: number; carried: boolean };
}

type Answer = Card | Action;
type Flow = Generator<Expectation, void, Answer>;

/* ───────────────────────────── the round ───────────────────────────── */

/**
 * One round of blackjack as a pure state machine. Cards come one at a time — from a seeded
 * shoe or from the card-reading shoe, the machine does not know which — and decisions are asked
 * for in table order. `expected()` says what must happen next (which card for whom, or which
 * decision with its legal actions); `deal` and `decide` advance it; settlement lines appear as
 * bets are decided, each naming its article.
 */
export class BlackjackRound {
  readonly rules: BlackjackRules;
  readonly lines: BlackjackSettlementLine[] = [];
  readonly dealer: Card[] = [];
  readonly burns: Card[] = [];
  private readonly seatList: Seat[];
  private readonly flow: Flow;
  private current: Expectation;
  private readonly inventory: ShoeInventory;
  private readonly setup: RoundSetup;
  private streaksOut: StreakState[] = [];
  private jackpotOut: { state: JackpotState; moves: JackpotLevelMove[]; results: JackpotResult[] } | undefined;
  private heldOut: HeldStreakStake[] = [];

  constructor(setup: RoundSetup) {
    this.setup = setup;
    this.rules = setup.rules;
    this.inventory = setup.inventory ?? new ShoeInventory(setup.rules.decks);
    this.seatList = validateAndBuild(setup);
    this.flow = this.play();
    const first = this.flow.next();
    this.current = first.done ? { kind: 'done' } : first.value;
  }

  expected(): Expectation {
    return this.current;
  }

  get done(): boolean {
    return this.current.kind === 'done';
  }

  /** Places the next card read from the shoe where the procedure says it goes. */
  deal(card: Card): CardTarget {
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
    this.log.push({ card: cardCode(card) });
    this.advance(card);
    return cur.target;
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

  /** Every card, decision, discard and void, in order (`BlackjackRound.replay` rebuilds the round from it). */
  readonly log: RoundEvent[] = [];

  /** Rebuilds a round from its setup and event log, e.g. from the ledger after a restart. */
  static replay(setup: RoundSetup, log: readonly RoundEvent[]): BlackjackRound {
    const round = new BlackjackRound(setup);
    for (const e of log) {
      if ('card' in e) round.deal(parseCard(e.card));
      else if ('action' in e) round.decide(e.action);
      else if ('discard' in e) round.discard(parseCard(e.discard), e.why);
      else if ('held' in e) round.holdUnseen(parseCard(e.held));
      else round.voidRound(e.void);
    }
    return round;
  }

  /** Cards that left the shoe but do not count, with the reason. */
  readonly discards: { card: Card; why: string }[] = [];
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
    this.log.push({ discard: cardCode(card), why });
  }

  /**
   * Art. 5 n.1 (2): an error in dealing that cannot be rectified cancels every card of the round,
   * and a supervisor may void a round on hold (docs/architecture.md, a round): every bet of the round is returned.
   * Lines already written are replaced by returns; streak markers stay where they were.
   */
  voidRound(why: string): void {
    if (this.voided) return;
    this.log.push({ void: why });
    const profile = this.rules.profile;
    // 1 December (a third review, copied on purpose): a void cites Art. 5 n.1 2) only for a dealing
    // error that could not be rectified (the engine's `dealingError`, which this copy's voids never
    // are); every other void is the house's reading, citing no article.
    const rule = isRegulated(profile) ? `${profile} house reading, no article: round void: ${why}` : `${profile} round void: ${why}`;
    this.lines.length = 0;
    for (const s of this.seatList) {
      s.hands.forEach((h, i) => {
        for (const st of h.stakes) this.line(s.seat, 'main', i, st.stake, 0, rule, st.owner);
      });
      if (s.insurance > 0) this.line(s.seat, 'insurance', 0, s.insurance, 0, rule);
      for (const [owner, amount] of s.behindInsurance) this.line(s.seat, 'insurance', 0, amount, 0, rule, owner);
      const b = s.entry.bets;
      for (const k of ['anyPair', 'sevens', 'over13', 'under13', 'perfectPairs', 'jackpot'] as const) {
        const v = b[k];
        if (v) this.line(s.seat, k, 0, v, 0, rule);
      }
      for (const bb of s.entry.behind ?? []) {
        for (const k of SIDE_KEYS) {
          const v = bb[k];
          if (v) this.line(s.seat, k, 0, v, 0, rule, bb.owner);
        }
      }
    }
    this.streaksOut = (this.setup.streaks ?? []).map((x) => ({ ...x, bets: { ...x.bets } }));
    this.voided = true;
    this.current = { kind: 'done' };
  }

  get isVoid(): boolean {
    return this.voided;
  }

  /** The first round after the shoe was shuffled ("o início do jogo", Art. 5 n.1 1)). */
  get firstOfShoe(): boolean {
    return this.setup.firstRoundOfShoe === true;
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
    this.log.push({ held: cardCode(card) });
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

  hands(): HandView[] {
    const out: HandView[] = [];
    for (const s of this.seatList) {
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
    }
    return out;
  }

  /**
   * Every stake on a seat's hands now, by hand and bettor (the seat holder's owner is undefined):
   * a host charges each bettor behind the stake a double or split of theirs follows (Art. 20).
   */
  stakesOf(seat: number): {
    hand: number;
    owner: string | undefined;
    stake: number;
    base: number;
    followSplit: boolean;
    followDouble: boolean;
    stayedOutSplit: boolean;
    stayedOutDouble: boolean;
  }[] {
    const s = this.seatList.find((x) => x.seat === seat);
    if (!s) return [];
    return s.hands.flatMap((h, hand) => h.stakes.map((st) => ({ hand, ...st })));
  }

  dealerView(): { cards: CardCode[]; total: number; soft: boolean } {
    const t = handTotal(this.dealer);
    return { cards: this.dealer.map(cardCode), total: t.total, soft: t.soft };
  }

  /** Streak markers after the round (only meaningful once done). */
  streaks(): StreakState[] {
    return this.streaksOut;
  }

  /** The jackpot after the round (only once done, and only when a chip played): pools, what moved, the hits. */
  jackpotSettlement(): { readonly state: JackpotState; readonly moves: readonly JackpotLevelMove[]; readonly results: readonly JackpotResult[] } | undefined {
    return this.jackpotOut;
  }

  /** The total of the round's jackpot chips (rule 47: one per player). */
  jackpotStakes(): number {
    return this.seatList.reduce((t, s) => t + (s.entry.bets.jackpot ?? 0), 0);
  }

  /** The pools this round plays for: the chips are collected before the deal (rule 48) and the display incremented (rule 41). */
  jackpotPools(): Record<string, number> | undefined {
    return this.setup.jackpot ? poolsShown(this.setup.jackpot, this.jackpotStakes()) : undefined;
  }

  /** Streak markers as the round started: those carried in, and the seats' new streak bets at no wins. */
  streaksBefore(): StreakState[] {
    const carried = (this.setup.streaks ?? []).map((x) => ({ ...x, bets: { ...x.bets } }));
    const fresh = this.seatList.flatMap((s) => (s.streak && !s.streak.carried ? [{ seat: s.seat, bets: { ...s.streak.bets }, wins: 0 }] : []));
    return [...carried, ...fresh].sort((a, b) => a.seat - b.seat);
  }

  /** Streak stakes wagered this round that stay open past it (only meaningful once done). */
  heldStakes(): readonly HeldStreakStake[] {
    return this.heldOut;
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
      if (s.awaitingSevensThird) {
        s.sevensThird = c;
        s.awaitingSevensThird = false;
      }
    }
    if (h.status !== 'open') return;
    if (h.splitAces) {
      // One card to each split ace (Art. 16 n.3; rule 26), which may itself be split again.
      // 6 December (a review of the rules, copied on purpose): «uma ou mais vezes», whatever an ace
      // before it did: Art. 16 n.5's limit after a split declined is of pairs «que não seja um ás».
      if ((h.cards[1] as Card).rank === 'A' && r.resplitAces && s.hands.length < r.maxHands) {
        const a = yield* this.ask(s, i, 'play', ['split', 'stand']);
        if (a.type === 'split') {
          this.split(s, i, a.notFollowing);
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
          this.line(s.seat, 'bonus678', i, 0, 3 * st.stake, ref(r.profile, 'special678'), st.owner, this.marks('special678', this.handContext(h, st)));
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
      const dbl = this.canDouble(h);
      if (h.cards.length === 2 && !h.acted) {
        if (dbl.ok) legal.push('double');
        if (this.canSplit(s, h)) legal.push('split');
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
          this.split(s, i, a.notFollowing);
          yield* this.playHand(s, i);
          return;
        default:
          throw new RoundError(`unexpected ${a.type}`);
      }
    }
  }

  private canDouble(h: Hand): { ok: boolean; lockAce: boolean } {
    const r = this.rules;
    const no = { ok: false, lockAce: false };
    if (h.cards.length !== 2 || h.acted || h.splitAces) return no;
    if (h.fromSplit && !r.doubleAfterSplit) return no;
    if (r.doubleOn === 'any-two') return { ok: true, lockAce: false };
    const allowed = r.doubleOn === 'nine-to-eleven' ? [9, 10, 11] : r.doubleOn === 'ten-eleven' ? [10, 11] : [11];
    const t = handTotal(h.cards);
    if (allowed.includes(t.total)) return { ok: true, lockAce: false };
    if (allowed.includes(t.hard) && r.softDoubleAceLocked) return { ok: true, lockAce: true };
    return no;
  }

  private canSplit(s: Seat, h: Hand): boolean {
    const r = this.rules;
    if (h.cards.length !== 2 || s.hands.length >= r.maxHands) return false;
    if (h.fromSplit && (!r.resplit || (s.declinedResplit && !r.resplitAfterDecline))) return false;
    const [a, b] = h.cards as [Card, Card];
    return r.splitPairsBy === 'rank' ? a.rank === b.rank : rankValue(a.rank) === rankValue(b.rank);
  }

  /**
   * Rule 28: a bettor behind may follow a split with a bet equal to its first on the second hand;
   * one who does not (`followSplit` false, or listed in `notFollowing`) rides on the first hand.
   */
  private split(s: Seat, i: number, notFollowing: readonly string[] = []): void {
    const h = this.hand(s, i);
    const moved = h.cards.pop() as Card;
    const aces = moved.rank === 'A';
    if (s.hands.length === 1 && s.firstTwo[0]?.rank === '7' && s.firstTwo[1]?.rank === '7') s.awaitingSevensThird = true;
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
      this.dealer.push(yield* this.card({ to: 'dealer' }, 'dealer-draw', `dealer draws (${ref(r.profile, 'dealerDraws')})`));
    }
  }

  private insuranceSettled = false;

  private settleInsurance(dealerBlackjack: boolean): void {
    if (this.insuranceSettled) return;
    this.insuranceSettled = true;
    const p = this.rules.profile;
    for (const s of this.seatList) {
      const bets: [string | undefined, number][] = [[undefined, s.insurance], ...s.behindInsurance];
      for (const [owner, amount] of bets) {
        if (amount <= 0) continue;
        const behind = { behind: owner !== undefined };
        // 4 December (a review of the citations, copied on purpose): found at the peek, the moment is Art. 5 n.2 3)(3)-(4)'s.
        const win = this.rules.holeCard === 'peek' ? 'insuranceWinAtPeek' : 'insuranceWin';
        if (dealerBlackjack) this.line(s.seat, 'insurance', 0, amount, 2 * amount, ref(p, win), owner, this.marks(win, behind));
        else this.line(s.seat, 'insurance', 0, amount, -amount, ref(p, 'insuranceLose'), owner, this.marks('insuranceLose', behind));
      }
    }
  }

  /** Settles whatever is still open against the dealer's final hand, then the side bets. */
  private finish(): void {
    const dealerBJ = isNaturalPair(this.dealer);
    this.settleInsurance(dealerBJ);
    const dt = handTotal(this.dealer).total;
    for (const s of this.seatList) {
      const open = s.hands.filter((h) => h.status === 'stood' || h.status === 'blackjack' || h.status === 'open');
      if (dealerBJ) {
        this.settleAgainstDealerBlackjack(s, open);
        continue;
      }
      for (const h of open) {
        if (h.status === 'blackjack') {
          this.settleHand(s, h, this.dealer.length > 2 && dt === 21 ? 'blackjackVs21' : 'blackjack');
          continue;
        }
        const pt = handTotal(h.cards, h.aceLocked).total;
        // 1 December (citations): two cards of 21 on a split hand cite Art. 10 n.6 / rule 20.
        const split21 = h.fromSplit && pt === 21 && h.cards.length === 2;
        // 4 December (citations): a 21 of more than two cards against a dealer bust cites art.10 n.4.
        if (dt > 21) this.settleHand(s, h, split21 ? 'split21DealerBust' : pt === 21 && h.cards.length > 2 ? 'win21DealerBust' : 'dealerBust');
        else if (pt > dt) this.settleHand(s, h, split21 ? 'split21' : pt === 21 && h.cards.length > 2 ? 'win21' : 'win');
        else if (pt < dt) this.settleHand(s, h, 'lose');
        else this.settleHand(s, h, 'push');
      }
    }
    this.settleSideBets();
    this.settleStreaks();
  }

  private settleAgainstDealerBlackjack(s: Seat, open: Hand[]): void {
    const r = this.rules;
    const limitSplits = r.dealerBlackjackTakes === 'original-only';
    // Issue 51: a double on 11 only (2009 Art. 17 n.1 3)) is outside Art. 17 n.3; limited only by the house's offer (Art. 10 n.7).
    const limitDoubles = r.dealerBlackjackTakes !== 'all' && (r.doubleOn !== 'eleven' || r.elevenDoubleOriginalOnly);
    const split = s.hands.length > 1;
    // Per bettor: a split or doubled bettor loses only the original bet (Art. 16 n.6, 17 n.3,
    // 10 n.7). A bettor who already lost a hand by busting has lost at least that much: the rest
    // of that bettor's hands are returned.
    const lostAlready = new Map<string | undefined, boolean>();
    for (const h of s.hands) if (h.status === 'busted') for (const st of h.stakes) lostAlready.set(st.owner, true);
    for (const h of open) {
      if (h.status === 'blackjack') {
        this.settleHand(s, h, 'blackjackPush');
        continue;
      }
      const idx = s.hands.indexOf(h);
      for (const st of h.stakes) {
        let net = -st.stake;
        // 30 November (a review of the citations): a Black Jack found at the peek cites Art. 5 n.2 3)(4).
        const taken: RefKey = r.holeCard === 'peek' ? 'dealerBlackjackAtPeek' : 'dealerBlackjack';
        let key: RefKey = handTotal(h.cards, h.aceLocked).total === 21 ? 'dealerBlackjackBeats21' : taken;
        if (split && limitSplits) {
          key = 'splitOriginalOnly';
          net = lostAlready.get(st.owner) ? 0 : -st.base;
          lostAlready.set(st.owner, true);
        } else if (h.doubled && limitDoubles && st.stake > st.base) {
          key = split ? 'splitOriginalOnly' : r.doubleOn === 'eleven' ? 'doubleOnElevenOriginalOnly' : 'doubleOriginalOnly';
          net = -st.base;
        }
        this.line(s.seat, 'main', idx, st.stake, net, this.mainRule(key, st), st.owner, this.marks(key, this.handContext(h, st)));
      }
      h.status = 'settled';
      h.outcome = 'lose';
    }
  }

  /** The article of a main-bet line; a bet behind that stayed out of a split or double names rule 28 / 30 too. */
  private mainRule(key: RefKey, st: Stake): string {
    const stayed = stayedOutRef(this.rules.profile, st.stayedOutSplit, st.stayedOutDouble);
    return stayed ? `${ref(this.rules.profile, key)}; ${stayed}` : ref(this.rules.profile, key);
  }

  private settleHand(s: Seat, h: Hand, key: RefKey): void {
    const idx = s.hands.indexOf(h);
    let outcome: 'win' | 'lose' | 'push' = 'push';
    for (const st of h.stakes) {
      const x = st.stake;
      // The texts say exactly 3:2 and half. A stake that makes a fraction of a minor unit has it
      // go to the player (wins up, losses down), as in baccarat and war: never against the player.
      let net: number;
      switch (key) {
        case 'blackjack':
        case 'blackjackVs21':
          net = Math.ceil((3 * x) / 2);
          break;
        case 'win':
        case 'win21':
        case 'split21':
        case 'split21DealerBust':
        case 'dealerBust':
        case 'win21DealerBust':
        case 'evenMoney':
          net = x;
          break;
        case 'special678':
          net = 3 * x;
          break;
        case 'fiveCard':
          net = Math.ceil(x / 2);
          break;
        case 'surrender':
          net = 0 - Math.floor(x / 2); // not -0 for a 1 unit stake
          break;
        case 'push':
        case 'blackjackPush':
          net = 0;
          break;
        default:
          net = -x;
      }
      // The streak follows the seat's own bet (Art. 13 5)).
      if (st.owner === undefined) outcome = net > 0 ? 'win' : net < 0 ? 'lose' : 'push';
      this.line(s.seat, 'main', idx, x, net, this.mainRule(key, st), st.owner, this.marks(key, this.handContext(h, st)));
    }
    h.outcome = outcome;
    h.status = key === 'bust' ? 'busted' : key === 'surrender' ? 'surrendered' : 'settled';
  }

  private settleSideBets(): void {
    const r = this.rules;
    const p = r.profile;
    const jackpotEntries: JackpotEntry[] = [];
    for (const s of this.seatList) {
      const b = s.entry.bets;
      const [c1, c2] = s.firstTwo as [Card, Card];
      const bettors: [string | undefined, SideBets][] = [[undefined, b], ...(s.entry.behind ?? []).map((x): [string, SideBets] => [x.owner, x])];
      for (const [owner, sb] of bettors) {
        const behind = { behind: owner !== undefined };
        if (sb.anyPair) {
          const won = isRankPair(c1, c2);
          this.line(s.seat, 'anyPair', 0, sb.anyPair, won ? ANY_PAIR_PAYS * sb.anyPair : -sb.anyPair, ref(p, 'anyPair'), owner, this.marks('anyPair', behind));
          if (won) {
            // Pairs formed again by split hands pay too (Art. 13 1)(2)); the bet rides on them.
            for (const i of s.splitPairs)
              this.line(s.seat, 'anyPair', i, 0, ANY_PAIR_PAYS * sb.anyPair, ref(p, 'anyPairSplit'), owner, this.marks('anyPairSplit', behind));
          }
        }
        if (sb.sevens) {
          const kind = sevensKind(c1, c2, s.sevensThird);
          this.line(s.seat, 'sevens', 0, sb.sevens, kind ? SEVENS_PAYS[kind] * sb.sevens : -sb.sevens, ref(p, 'sevens'), owner, this.marks('sevens', behind));
        }
        const ou = overUnderTotal(c1, c2, r.overUnderAceValue);
        if (sb.over13)
          this.line(
            s.seat,
            'over13',
            0,
            sb.over13,
            ou > 13 ? OVER_UNDER_PAYS * sb.over13 : -sb.over13,
            ref(p, 'overUnder'),
            owner,
            this.marks('overUnder', behind),
          );
        if (sb.under13)
          this.line(
            s.seat,
            'under13',
            0,
            sb.under13,
            ou < 13 ? OVER_UNDER_PAYS * sb.under13 : -sb.under13,
            ref(p, 'overUnder'),
            owner,
            this.marks('overUnder', behind),
          );
        if (sb.perfectPairs) {
          const kind = perfectPairKind(c1, c2);
          this.line(
            s.seat,
            'perfectPairs',
            0,
            sb.perfectPairs,
            kind ? PERFECT_PAIRS_PAYS[kind] * sb.perfectPairs : -sb.perfectPairs,
            ref(p, 'perfectPairs'),
            owner,
            this.marks('perfectPairs', behind),
          );
        }
      }
      if (b.jackpot) {
        if (r.jackpotSplitCards === 'player-cards') {
          // Rule 42: the player's first 2–4 cards as dealt, split pairs included: one chip, one look (rule 47).
          jackpotEntries.push({ seat: s.seat, hand: 0, stake: b.jackpot, cards: s.dealt.slice(0, r.jackpotCards) });
        } else {
          // The other reading: each split hand looked at on its own first cards, on the one chip.
          s.hands.forEach((h, i) =>
            jackpotEntries.push({ seat: s.seat, hand: i, stake: i === 0 ? (b.jackpot ?? 0) : 0, cards: h.cards.slice(0, r.jackpotCards) }),
          );
        }
      }
    }
    if (jackpotEntries.length > 0 && this.setup.jackpot) {
      const out = settleChips(jackpotEntries, this.setup.jackpot);
      this.jackpotOut = out;
      for (const x of out.results) {
        if (x.stake === 0 && x.award === 0) continue;
        const key = x.award > 0 ? (x.shared ? 'jackpotShared' : 'jackpotAward') : 'jackpot';
        this.line(x.seat, 'jackpot', x.hand, x.stake, x.award - x.stake, ref(p, key), undefined, this.marks(key));
      }
    }
  }

  /**
   * Winning streak (Art. 13 5), Art. 11 n.2, Art. 16 n.7, Art. 18 n.3). A seat with open streak
   * bets that does not bet this round breaks the obligation of Art. 13 5)(2) vi) ("o jogador deve
   * apostar nos jogos seguintes, consecutivamente"): the text names no other consequence, so its
   * streak bets are lost (our reading; docs/rules/blackjack.md).
   */
  private settleStreaks(): void {
    const p = this.rules.profile;
    const out: StreakState[] = [];
    const held: HeldStreakStake[] = [];
    const dealt = new Set(this.seatList.map((s) => s.seat));
    for (const absent of this.setup.streaks ?? []) {
      if (dealt.has(absent.seat)) continue;
      for (const lvl of STREAK_LEVELS) {
        const stake = absent.bets[`${lvl}`];
        if (stake !== undefined) this.streakLine(absent.seat, lvl, stake, -stake, ref(p, 'streakAbsent'), true, 'streakAbsent');
      }
    }
    for (const s of this.seatList) {
      const st = s.streak;
      if (!st) continue;
      let result: 'win' | 'tie' | 'lose';
      let loseKey: RefKey = 'streakLose';
      if (s.surrendered) {
        result = 'lose';
        loseKey = 'streakSurrender';
      } else {
        const outcomes = s.hands.map((h) => h.outcome ?? 'push');
        const wins = outcomes.filter((o) => o === 'win').length;
        const losses = outcomes.filter((o) => o === 'lose').length;
        result = wins > losses ? 'win' : wins < losses ? 'lose' : 'tie';
        if (s.hands.length > 1 && result === 'lose') loseKey = 'streakSplitLose';
      }
      const bets = { ...st.bets };
      let wins = st.wins;
      if (result === 'win') {
        wins++;
        for (const lvl of STREAK_LEVELS) {
          const k = `${lvl}` as const;
          const stake = bets[k];
          if (stake !== undefined && lvl <= wins) {
            // 1 December (citations): a win by a majority of split hands cites Art. 16 n.7 1) too.
            // 6 December (citations, copied on purpose): more won than lost but no majority (pushes
            // among them) is our reading, citing no paragraph of n.7.
            const splitWins = s.hands.filter((h) => h.outcome === 'win').length;
            const winKey: RefKey = s.hands.length === 1 ? 'streakWin' : 2 * splitWins > s.hands.length ? 'streakSplitWin' : 'streakSplitWinByReading';
            this.streakLine(s.seat, lvl, stake, STREAK_PAYS[lvl] * stake, ref(p, winKey), st.carried, winKey);
            delete bets[k];
          }
        }
      } else if (result === 'lose') {
        for (const lvl of STREAK_LEVELS) {
          const k = `${lvl}` as const;
          const stake = bets[k];
          if (stake !== undefined) this.streakLine(s.seat, lvl, stake, -stake, ref(p, loseKey), st.carried, loseKey);
          delete bets[k];
        }
        wins = 0;
      }
      if (Object.keys(bets).length > 0) {
        out.push({ seat: s.seat, bets, wins });
        // Stakes wagered this round and still open are held past it; carried ones stay held.
        if (!st.carried)
          for (const lvl of STREAK_LEVELS) if (bets[`${lvl}`] !== undefined) held.push({ seat: s.seat, bet: `streak${lvl}`, amount: bets[`${lvl}`] as number });
      }
    }
    this.streaksOut = out;
    this.heldOut = held;
  }

  private streakLine(seat: number, lvl: StreakLevel, stake: number, net: number, rule: string, carried: boolean, key: RefKey): void {
    this.lines.push({ seat, bet: `streak${lvl}`, hand: 0, stake, net, rule, ...this.marks(key), ...(carried ? { carried: true as const } : {}) });
  }

  /* ───────────── helpers ───────────── */

  private hand(s: Seat, i: number): Hand {
    const h = s.hands[i];
    if (!h) throw new RoundError(`seat ${s.seat} has no hand ${i}`);
    return h;
  }

  private line(seat: number, bet: string, hand: number, stake: number, net: number, rule: string, owner?: string, marks: LineMarks = {}): void {
    this.lines.push({ seat, bet, hand, stake, net, rule, ...marks, ...(owner !== undefined ? { owner } : {}) });
  }

  /** The non-default choices a line of this kind was settled under (line-choices.ts). */
  private marks(key: RefKey, ctx: LineContext = {}): LineMarks {
    return lineChoices(this.rules, key, ctx);
  }

  /** What a stake's hand went through, for its line's marks. */
  private handContext(h: Hand, st: Stake): LineContext {
    return {
      doubled: h.doubled && st.stake > st.base,
      fromSplit: h.fromSplit,
      behind: st.owner !== undefined,
      stayedOut: st.stayedOutSplit || st.stayedOutDouble,
    };
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

function newHand(seat: number, cards: Card[], stakes: Stake[]): Hand {
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

function checkAmount(v: unknown, what: string): number {
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

function validateAndBuild(setup: RoundSetup): Seat[] {
  const r = setup.rules;
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
    const b = entry.bets;
    const main = checkAmount(b.main, `seat ${entry.seat} main bet`);
    checkLimits(r, main, `seat ${entry.seat} main bet`);
    const sides: [keyof SeatBets, boolean][] = [
      ['anyPair', r.anyPair],
      ['sevens', r.sevens],
      ['over13', r.overUnder13],
      ['under13', r.overUnder13],
      ['perfectPairs', r.perfectPairs],
      ['jackpot', r.jackpot],
    ];
    let sideCount = 0;
    for (const [k, enabled] of sides) {
      if (b[k] === undefined) continue;
      if (!enabled) throw new RoundError(`seat ${entry.seat}: the ${k} bet is not offered under these rules`);
      checkAmount(b[k], `seat ${entry.seat} ${k} bet`);
      sideCount++;
    }
    if (b.jackpot !== undefined && !setup.jackpot) throw new RoundError(`seat ${entry.seat}: a jackpot bet needs the jackpot program and pools`);
    // Rule 47: «uma ficha por cada jogador, no montante previamente definido».
    if (b.jackpot !== undefined && setup.jackpot && b.jackpot !== setup.jackpot.program.stake)
      throw new RoundError(`seat ${entry.seat}: the jackpot bet is one chip of ${setup.jackpot.program.stake} (portugal-2001 rule 47), not ${b.jackpot}`);
    if (r.oneSideBetPerPlayer && sideCount > 1) throw new RoundError(`seat ${entry.seat}: only one additional bet per player (art.13)`);
    const open = streakBySeat.get(entry.seat);
    let streak: Seat['streak'];
    if (b.streak && Object.keys(b.streak).length > 0) {
      if (!r.winningStreak) throw new RoundError(`seat ${entry.seat}: winning-streak bets are not offered under these rules`);
      if (open) throw new RoundError(`seat ${entry.seat}: streak bets may not change until the open ones are decided (art.13 5)(2) v)`);
      const bets: Partial<Record<`${StreakLevel}`, number>> = {};
      for (const [k, v] of Object.entries(b.streak)) {
        if (!['2', '3', '4', '5'].includes(k)) throw new RoundError(`seat ${entry.seat}: streak level ${k} does not exist (2–5)`);
        bets[k as `${StreakLevel}`] = checkAmount(v, `seat ${entry.seat} streak ${k} bet`);
      }
      streak = { bets, wins: 0, carried: false };
    } else if (open) {
      streak = { bets: { ...open.bets }, wins: open.wins, carried: true };
    }
    const behind = entry.behind ?? [];
    if (behind.filter((x) => x.main !== 0).length + 1 > r.maxBettorsPerSeat) {
      throw new RoundError(`seat ${entry.seat}: at most ${r.maxBettorsPerSeat} bettors per seat (art.20 n.1 (2))`);
    }
    const stakes: Stake[] = [
      { owner: undefined, stake: main, base: main, followSplit: true, followDouble: true, stayedOutSplit: false, stayedOutDouble: false },
    ];
    let total = main;
    const owners = new Set<string>();
    for (const bb of behind) {
      if (typeof bb.owner !== 'string' || bb.owner === '' || owners.has(bb.owner) || bb.owner.startsWith('seat:')) {
        throw new RoundError(`seat ${entry.seat}: bettor "${String(bb.owner)}" appears twice or has no usable name`);
      }
      owners.add(bb.owner);
      let sides = 0;
      for (const k of SIDE_KEYS) {
        if (bb[k] === undefined) continue;
        const enabled = k === 'over13' || k === 'under13' ? r.overUnder13 : r[k];
        if (!enabled) throw new RoundError(`seat ${entry.seat}: the ${k} bet of ${bb.owner} is not offered under these rules`);
        checkAmount(bb[k], `seat ${entry.seat} ${k} bet of ${bb.owner}`);
        sides++;
      }
      if (r.oneSideBetPerPlayer && sides > 1) throw new RoundError(`seat ${entry.seat}: only one additional bet per player (art.13)`);
      if (bb.main === 0 && sides > 0) continue; // side bets only, on this seat's hand (Art. 13)
      const amount = checkAmount(bb.main, `seat ${entry.seat} bet behind of ${bb.owner}`);
      total += amount;
      const chooses = r.behindFollows === 'bettor-chooses';
      stakes.push({
        owner: bb.owner,
        stake: amount,
        base: amount,
        followSplit: chooses ? bb.followSplit === true : true,
        followDouble: chooses ? bb.followDouble === true : true,
        stayedOutSplit: false,
        stayedOutDouble: false,
      });
    }
    // Rule 15: the seat's bets together stay within the table maximum.
    checkLimits(r, total, `seat ${entry.seat} bets together`);
    out.push({
      entry,
      seat: entry.seat,
      owner: `seat:${entry.seat}`,
      decider: decider(r, entry),
      hands: [newHand(entry.seat, [], stakes)],
      insurance: 0,
      behindInsurance: new Map(),
      declinedResplit: false,
      surrendered: false,
      firstTwo: [],
      awaitingSevensThird: false,
      splitPairs: [],
      dealt: [],
      ...(streak ? { streak } : {}),
    });
  }
  for (const st of setup.streaks ?? []) {
    if (!Number.isInteger(st.seat) || st.seat < 1 || st.seat > r.seats) throw new RoundError(`streak marker of seat ${st.seat}: no such seat (1–${r.seats})`);
  }
  return out;
}

function checkLimits(r: BlackjackRules, amount: number, what: string): void {
  if (r.minBet <= 0) return;
  if (amount < r.minBet) throw new RoundError(`${what} ${amount} is below the table minimum ${r.minBet}`);
  if (r.betInMultiplesOfMinimum && amount % r.minBet !== 0) throw new RoundError(`${what} ${amount} must be a multiple of the minimum ${r.minBet} (rule 14)`);
  if (r.maxBetMultiple > 0 && amount > r.maxBetMultiple * r.minBet) {
    throw new RoundError(`${what} ${amount} is above ${r.maxBetMultiple}× the minimum (rule 37)`);
  }
}
