import type { Card } from '../../engine/cards/card.js';
import { handTotal } from '../../engine/blackjack/hand.js';
import { RoundError, type Action, type ActionType, type BlackjackRound, type SeatBets } from '../../engine/blackjack/round.js';
import { resolveRules, type BlackjackRules, type ProfileId } from '../../engine/blackjack/rules.js';
import { BlackjackTable } from '../../engine/blackjack/table.js';
import { ref } from '../../engine/blackjack/refs.js';
import type { SettlementLine } from '../../engine/settlement/settlement-line.js';
import type { DecisionAction, HandView, Prize } from '../../protocol/index.js';
import type { BehindBet, ExtraBet, LiveGame, LiveRound, NotFollowed, Outcome, Pending } from '../table/live-game.js';

/** Side bets by the rule options that offer them. */
const SIDE_BETS: [keyof BlackjackRules, string[]][] = [
  ['anyPair', ['anyPair']],
  ['perfectPairs', ['perfectPairs']],
  ['sevens', ['sevens']],
  ['overUnder13', ['over13', 'under13']],
];

/** The additional bets of Art. 13 (and Portugal's jackpot, rules 38–50): their wins are celebrated. */
const ADDITIONAL = new Set(['anyPair', 'sevens', 'over13', 'under13', 'perfectPairs', 'jackpot']);

/**
 * What happens when a seat lets its decision time run out (issue 7): stand, or hit where the
 * profile forbids standing (Portugal rule 18: standing only above 11); offers are declined.
 */
export function blackjackDefault(legal: readonly ActionType[], offer: string): ActionType & DecisionAction {
  // (The follow offers of rules 28 and 30 are the adapter's own: see FOLLOW_OFFERS.)
  if (offer === 'insurance') return 'decline-insurance';
  if (offer === 'even-money') return 'decline-even-money';
  if (offer === 'five-card') return 'continue';
  return legal.includes('stand') ? 'stand' : 'hit';
}

/**
 * Portugal rules 28 and 30: when the seat splits or doubles, each bettor behind it *may* do the
 * same with its own bet. The bettor is asked at that moment, seeing the cards, as a decision of
 * its own station; staying out costs nothing more, so it is the default on timeout.
 */
export const FOLLOW_OFFERS = { double: 'follow-double', split: 'follow-split' } as const;
export const DECLINE_FOLLOW = 'decline-follow';

/** A seat's double or split waiting for its bettors behind to say whether they follow it. */
interface StagedFollow {
  seat: number;
  hand: number;
  action: 'double' | 'split';
  /** The bettors to ask, in bet order, with what following costs each. */
  ask: { owner: string; cost: number }[];
  /** Their answers so far: true to follow. */
  answers: Map<string, boolean>;
  /** Bettors who could not cover their share when the seat decided: never asked, they stay out. */
  short: NotFollowed[];
}

/** Blackjack through `engine/blackjack`'s table: shoe procedures, rounds, streaks carried. */
export class BlackjackGame implements LiveGame {
  readonly game = 'blackjack' as const;
  readonly decks: number;
  readonly bets: string[];
  readonly betsBehind: LiveGame['betsBehind'];
  private readonly rules: BlackjackRules;
  private table: BlackjackTable;

  /** `options`: the table's authorised rule options over the profile's defaults (checked by the engine). */
  constructor(readonly profile: string, options: Readonly<Record<string, unknown>> = {}) {
    this.rules = resolveRules(profile as ProfileId, options);
    this.decks = this.rules.decks;
    this.bets = ['main', ...SIDE_BETS.filter(([key]) => this.rules[key] === true).flatMap(([, bets]) => bets)];
    this.table = new BlackjackTable(this.rules);
    this.betsBehind = {
      maxBettorsPerSeat: this.rules.maxBettorsPerSeat,
      decider: this.rules.betBehind,
      rule: profile.startsWith('portugal') ? `${profile} rules 15-16` : `${profile} art.20 n.1`,
    };
    this.table.shuffled(1);
  }

  voidRound(): void {
    this.table.voidRound();
  }

  newShoe(): void {
    if (this.table.phase !== 'round') this.table.shuffled(1);
  }

  /**
   * Additional bets and streaks (Art. 13–14) that win; the Art. 15 special prize, whether it is
   * its own line (`bonus678`, on top of the result) or replaces the main result (the main line
   * quotes Art. 15); five cards taken at half pay (Art. 19), known by the rule its line quotes.
   */
  prizeOf(line: Pick<SettlementLine, 'bet' | 'rule' | 'net'>): Prize | undefined {
    if (line.net <= 0) return undefined;
    if (ADDITIONAL.has(line.bet) || /^streak\d+$/.test(line.bet)) return 'side-bet';
    const profile = this.rules.profile;
    if (line.bet === 'bonus678') return 'special-prize';
    if (line.bet !== 'main') return undefined;
    if (this.rules.bonus678 !== 'none' && line.rule.startsWith(ref(profile, 'special678'))) return 'special-prize';
    if (this.rules.fiveCardHalfPay && line.rule.startsWith(ref(profile, 'fiveCard'))) return 'five-card';
    return undefined;
  }

  cutCard(): void {
    this.table.shoe.cutCardOut();
  }

  lastRoundOfShoe(): boolean {
    return this.table.shoe.lastRound;
  }

  shoeFinished(): boolean {
    return this.table.phase === 'shuffle';
  }

  shoeCue(): ReturnType<LiveGame['shoeCue']> {
    if (this.table.phase !== 'burn') return null;
    const step = this.table.shoe.next();
    return { kind: 'card', to: 'burn', ...(step.kind === 'burn' ? { burnsLeft: step.count } : {}) };
  }

  takeShoeCard(card: Card): Outcome<{ to: string }> {
    if (this.table.phase !== 'burn') return { ok: false, reason: 'no burn is expected now' };
    try {
      this.table.cardOut(card);
      return { ok: true, to: 'burn' };
    } catch (e) {
      return { ok: false, reason: e instanceof Error ? e.message : String(e) };
    }
  }

  newRound(seats: ReadonlyMap<number, Readonly<Record<string, number>>>, behind?: ReadonlyMap<number, readonly BehindBet[]>): LiveRound {
    const chooses = this.rules.behindFollows === 'bettor-chooses';
    const round = this.table.startRound(
      [...seats].map(([seat, bets]) => {
        const back = behind?.get(seat) ?? [];
        // With `bettor-chooses` (Portugal rules 28, 30) every bettor behind *may* follow: the engine
        // is told so, and the ones who answer no (or cannot pay) are named when the seat decides.
        const may = chooses ? { followSplit: true, followDouble: true } : {};
        return { seat, bets: { ...bets, main: bets.main ?? 0 } as SeatBets, ...(back.length ? { behind: back.map((b) => ({ owner: b.owner, main: b.main, ...may })) } : {}) };
      }),
    );
    const table = this.table;
    // Bets behind that could not cover their share of a double or split, in order (their stations are told).
    const notFollowed: NotFollowed[] = [];
    let staged: StagedFollow | null = null;
    /** Applies a decision to the engine and says what it put into play, by bettor. */
    const apply = (seat: number, act: Action, short: NotFollowed[], insurer?: string): Outcome<{ extra: ExtraBet[]; notFollowing?: string[] }> => {
      const before = ownerTotals(round.stakesOf(seat));
      try {
        table.decide(act);
      } catch (e) {
        if (e instanceof RoundError) return { ok: false, reason: e.message, refusal: 'illegal-action' };
        throw e;
      }
      // What the decision put into play, by bettor: the growth of their stakes, plus any insurance.
      const after = ownerTotals(round.stakesOf(seat));
      const bet = act.type === 'insurance' ? 'insurance' : act.type === 'split' ? 'split' : 'double';
      const extra: ExtraBet[] = [];
      for (const [owner, total] of after) {
        const raised = total - (before.get(owner) ?? 0) + (owner === insurer && act.type === 'insurance' ? act.amount : 0);
        if (raised > 0) extra.push({ seat, bet, amount: raised, ...(owner !== undefined ? { owner } : {}) });
      }
      notFollowed.push(...short);
      const out = act.type === 'double' || act.type === 'split' ? (act.notFollowing ?? []) : [];
      return { ok: true, extra, ...(out.length > 0 ? { notFollowing: [...out] } : {}) };
    };
    return {
      pending: (): Pending => {
        if (staged) {
          const next = staged.ask.find((a) => !staged!.answers.has(a.owner)) as { owner: string; cost: number };
          return { kind: 'decision', seat: staged.seat, hand: staged.hand, legal: [FOLLOW_OFFERS[staged.action], DECLINE_FOLLOW], default: DECLINE_FOLLOW, decider: next.owner, cost: next.cost };
        }
        const x = round.expected();
        if (x.kind === 'done') return { kind: 'done' };
        if (x.kind === 'decision') {
          return { kind: 'decision', seat: x.seat, hand: x.hand, legal: [...x.legal], default: blackjackDefault(x.legal, x.offer), decider: x.decider };
        }
        const t = x.target;
        if (t.to === 'burn') return { kind: 'card', cue: { kind: 'card', to: 'burn' } };
        if (t.to === 'dealer') return { kind: 'card', cue: { kind: 'card', to: 'dealer', ...(x.step === 'dealer-hole' ? { faceDown: true } : {}) } };
        return { kind: 'card', cue: { kind: 'card', to: 'seat', seat: t.seat, hand: t.hand } };
      },
      takeCard: (card: Card) => {
        const x = round.expected();
        if (x.kind !== 'card') return { ok: false, reason: 'no card is expected now' };
        try {
          table.cardOut(card);
        } catch (e) {
          return { ok: false, reason: e instanceof Error ? e.message : String(e) };
        }
        const t = x.target;
        return { ok: true, to: t.to === 'hand' ? `seat:${t.seat}:hand:${t.hand}` : t.to };
      },
      decide: (seat: number, action: string, canAfford: (amount: number, owner?: string) => boolean, amount?: number) => {
        if (staged) {
          const s = staged;
          const next = s.ask.find((a) => !s.answers.has(a.owner)) as { owner: string; cost: number };
          if (seat !== s.seat) return { ok: false, reason: `seat ${seat} has no decision to make`, refusal: 'no-decision' };
          if (action !== FOLLOW_OFFERS[s.action] && action !== DECLINE_FOLLOW) {
            return { ok: false, reason: `"${action}" is not legal now (legal: ${FOLLOW_OFFERS[s.action]}, ${DECLINE_FOLLOW})`, refusal: 'illegal-action' };
          }
          const follows = action !== DECLINE_FOLLOW;
          if (follows && !canAfford(next.cost, next.owner)) return { ok: false, reason: `${next.owner} has not the credit to follow the ${s.action}`, refusal: 'over-credit' };
          s.answers.set(next.owner, follows);
          if (s.ask.some((a) => !s.answers.has(a.owner))) return { ok: true, extra: [] };
          staged = null;
          const out = [...s.short.map((n) => n.owner), ...s.ask.filter((a) => s.answers.get(a.owner) === false).map((a) => a.owner)];
          return apply(s.seat, { type: s.action, ...(out.length > 0 ? { notFollowing: out } : {}) }, s.short);
        }
        const x = round.expected();
        if (x.kind !== 'decision' || x.seat !== seat) return { ok: false, reason: `seat ${seat} has no decision to make`, refusal: 'no-decision' };
        if (!x.legal.includes(action as ActionType)) return { ok: false, reason: `"${action}" is not legal now (legal: ${x.legal.join(', ')})`, refusal: 'illegal-action' };
        let act: Action;
        // What the decision costs each bettor on the hand: the seat's own station (owner
        // undefined) and every bettor behind whose stake follows a double or a split (Art. 20).
        const cost = new Map<string | undefined, number>();
        const add = (owner: string | undefined, n: number) => cost.set(owner, (cost.get(owner) ?? 0) + n);
        // A bettor behind is asked for its own insurance once the seat insures (rule 15): it pays it.
        const insurer = x.decider.startsWith('seat:') ? undefined : x.decider;
        if (action === 'insurance') {
          const insure = Math.min(amount ?? x.insurance?.max ?? 0, x.insurance?.max ?? 0);
          if (!x.insurance || insure < x.insurance.min) return { ok: false, reason: 'insurance amount out of range', refusal: 'illegal-action' };
          act = { type: 'insurance', amount: insure };
          add(insurer, insure);
        } else {
          act = { type: action as Exclude<ActionType, 'insurance'> };
          for (const st of round.stakesOf(seat).filter((s) => s.hand === x.hand)) {
            if (action === 'double' && st.followDouble) add(st.owner, st.stake);
            if (action === 'split' && st.followSplit) add(st.owner, st.base);
          }
        }
        // The deciding player's double or split never waits on another's credit: a bettor behind
        // who cannot cover its share does not follow. On a double its bet stays at its stake on
        // the hand (Portugal rule 30), on a split it rides on the first hand (rule 28). Macau
        // Art. 20 (2009 and 2004) is silent on doubles and splits of bets behind: we apply the
        // Portuguese rules by analogy (docs/table-host.md). What refuses the decision is only the
        // credit of the one who decides it (or insures) and of the seat's own station, whose bet
        // always follows.
        const stayOut: NotFollowed[] = [];
        for (const [owner, c] of cost) {
          if (c <= 0 || canAfford(c, owner)) continue;
          if (owner !== undefined && owner !== x.decider && (action === 'double' || action === 'split')) {
            stayOut.push({ owner, seat, hand: x.hand, action, amount: c });
            continue;
          }
          return { ok: false, reason: owner ? `${owner} has not the credit for this decision` : 'not enough credit', refusal: 'over-credit' };
        }
        if (stayOut.length > 0) act = { type: action as 'double' | 'split', notFollowing: stayOut.map((n) => n.owner) };
        if (chooses && (action === 'double' || action === 'split')) {
          // Rules 28, 30: ask each bettor behind who could pay its share before the seat's
          // decision takes effect (the seat's own credit was checked above).
          const ask = [...cost].filter(([owner, c]) => owner !== undefined && owner !== x.decider && c > 0 && !stayOut.some((n) => n.owner === owner));
          if (ask.length > 0) {
            staged = { seat, hand: x.hand, action, ask: ask.map(([owner, c]) => ({ owner: owner as string, cost: c })), answers: new Map(), short: stayOut };
            // The bettors who cannot pay are named now, journalled with the seat's decision, so a
            // replay asks the same bettors again.
            return { ok: true, extra: [], ...(stayOut.length > 0 ? { notFollowing: stayOut.map((n) => n.owner) } : {}) };
          }
        }
        return apply(seat, act, stayOut, insurer);
      },
      notFollowed: () => [...notFollowed],
      hands: (): HandView[] => {
        const x = round.expected();
        const dealer = round.dealerView();
        // The hole card stays face down until the dealer plays (or the round ends).
        const revealed = x.kind === 'done' || (x.kind === 'card' && x.target.to === 'dealer' && x.step !== 'dealer-hole');
        const hidden = this.rules.holeCard !== 'none' && !revealed && dealer.cards.length >= 2;
        const cards = hidden ? dealer.cards.map((c, i) => (i === 1 ? 'XX' : c)) : dealer.cards;
        const shown = hidden ? handTotal(round.dealer.slice(0, 1)) : { total: dealer.total, soft: dealer.soft };
        return [
          { owner: 'dealer', cards, total: cards.length ? shown.total : null, soft: shown.soft },
          ...round.hands().map((h) => ({ owner: 'seat' as const, seat: h.seat, hand: h.hand, cards: h.cards, total: h.total, soft: h.soft, status: h.status })),
        ];
      },
      settle: () => [...round.lines],
    };
  }
}

export type { BlackjackRound };

/** Each bettor's total stake on a seat's hands (the seat's own station under `undefined`). */
function ownerTotals(stakes: readonly { owner: string | undefined; stake: number }[]): Map<string | undefined, number> {
  const out = new Map<string | undefined, number>([[undefined, 0]]);
  for (const st of stakes) out.set(st.owner, (out.get(st.owner) ?? 0) + st.stake);
  return out;
}
