import { cardCode, type Card, type CardCode } from '../cards/card.js';
import type {
  DecisionRequest,
  GameDefinition,
  GameLine,
  HandView,
  NotFollowed,
  Pending,
  ProgressiveSettled,
  ProgressiveView,
  RoundStake,
} from '../table/game.js';
import { lineBet } from '../table/vocabulary.js';
import { handTotal, isNaturalPair } from './hand.js';
import { JACKPOT_PROGRAM_OPTION, jackpotProgramOf } from './jackpot/option.js';
import { openJackpot } from './jackpot/settle.js';
import { blackjackLimitRules } from './limit-rules.js';
import { blackjackPayTable } from './pay-table.js';
import { ref } from './refs.js';
import { additionalBets, offeredBets } from '../table/bet-catalogue.js';
import { BLACKJACK_CATALOGUE, firstCardsBets } from './bets/catalogue.js';
import type { BlackjackBetEntry } from './bets/entry.js';
import { blackjackCorrections } from './table-corrections.js';
import { onOtherSeats, ownerTotals, seatBets, sideStakes, streakMark } from './table-bets.js';
import { dealerView, RoundError, stakesOf, type Action, type ActionType, type SeatEntry, type StreakState } from './round.js';
import { resolveRules, isProfileId, isRegulated, type BlackjackRules } from './rules.js';
import { isLastRound, shoeNext } from './shoe-session.js';
import {
  openTable,
  resetTableJackpot,
  startTableRound,
  tableCardOut,
  tableCutCardOut,
  tableDecide,
  tableDiscard,
  tablePhase,
  tableShuffled,
  voidTableRound,
  type TableRules,
  type TableState,
} from './table.js';

/**
 * A blackjack table's state as plain data (engine/blackjack/table.ts): the shoe, the streaks and
 * jackpot carried between rounds, and the round in play. `last` is the table as it stood before
 * the newest card, while that card is the newest thing that happened: a card dealt face down and
 * exposed is taken back from it (`withdrawLastCard`).
 */
export interface BlackjackTableShoe {
  readonly table: TableState;
  readonly last?: { readonly before: TableState; readonly card: Card };
}

/** A seat's double or split waiting for its bettors behind to say whether they follow it (Portugal rules 28, 30). */
interface StagedFollow {
  readonly seat: number;
  readonly hand: number;
  readonly action: 'double' | 'split';
  /** The bettors to ask, in bet order, with what following costs each. */
  readonly ask: readonly { readonly station: number; readonly cost: number }[];
  /** Their answers so far: true to follow. */
  readonly answers: readonly { readonly station: number; readonly follows: boolean }[];
  /** Bettors who could not cover their share when the seat decided: never asked, they stay out. */
  readonly short: readonly NotFollowed[];
}

/** What the table keeps of a round beside the engine's own events. */
export interface BlackjackTableRound {
  /** The engine's name of each bettor behind, and its station. */
  readonly owners: Readonly<Record<string, number>>;
  readonly staged: StagedFollow | null;
  /** Bets behind that did not follow a double or split for want of credit, in order. */
  readonly notFollowed: readonly NotFollowed[];
}

/**
 * What happens when a seat lets its decision time run out: stand, or hit where the profile
 * forbids standing (Portugal rule 18: standing only above 11); offers are declined.
 */
export function blackjackDefault(legal: readonly ActionType[], offer: string): ActionType {
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

/** How the engine names a station betting behind a seat (an opaque name, never parsed). */
const ownerName = (station: number) => `station:${station}`;

/** Blackjack as the table plays it, under a profile and the table's authorised rule options. */
export function blackjackTableGame(
  profileId: string,
  options: Readonly<Record<string, unknown>> = {},
  catalogue: readonly BlackjackBetEntry[] = BLACKJACK_CATALOGUE,
): GameDefinition<BlackjackTableShoe, BlackjackTableRound> {
  if (!isProfileId(profileId)) throw new RangeError(`no blackjack profile "${profileId}"`);
  if (!isRegulated(profileId)) throw new RangeError(`the "${profileId}" profile is for analysis (sim, round): a table plays a profile a text governs`);
  // The progressive's program travels with the rule options but is not one: the authority's figures (rules 40, 43).
  const { [JACKPOT_PROGRAM_OPTION]: programInput, ...ruleOptions } = options;
  const rules: BlackjackRules = resolveRules(profileId, ruleOptions);
  const program = jackpotProgramOf(rules, programInput);
  const chooses = rules.behindFollows === 'bettor-chooses';
  const otherSeats = onOtherSeats(catalogue, rules, profileId);
  // The catalogue's additional bets (Art. 13; Portugal's jackpot, rules 38–50): their wins are celebrated.
  const additional: ReadonlySet<string> = new Set(additionalBets(catalogue));
  const first = firstCardsBets(catalogue);
  /**
   * The dealer's cards a misdrawn card kept unseen may become. Portugal rule 18: the next player
   * who asks, else «será para o jogo da banca», its next draw. Macau Art. 5 n.1 2): «atribuindo-se
   * a carta ou cartas ao jogador a quem ela deve caber», so under procedures 1 and 2 (the dealer's
   * second card dealt after the players) the card is the dealer's second, in the shoe's order.
   */
  const takesKeptCard = (step: string) => step === 'dealer-draw' || (step === 'dealer-second' && profileId !== 'portugal-2001');

  const table: TableRules = { rules, catalogue };
  /** The table after `move`; the newest card is remembered only by the moves that take one (`withCard`). */
  const moved = (t: TableState): BlackjackTableShoe => ({ table: t });
  const withCard = (s: BlackjackTableShoe, t: TableState, card: Card): BlackjackTableShoe => ({ table: t, last: { before: s.table, card } });
  const roundOf = (s: BlackjackTableShoe) => {
    const r = s.table.round;
    if (!r) throw new Error('no blackjack round in play');
    return r;
  };

  /** Applies a decision to the engine and says what it put into play, by bettor. */
  const apply = (
    s: BlackjackTableShoe,
    r: BlackjackTableRound,
    seat: number,
    act: Action,
    short: readonly NotFollowed[],
    insurer: number | undefined,
  ): ReturnType<GameDefinition<BlackjackTableShoe, BlackjackTableRound>['decide']> => {
    const round = roundOf(s);
    const before = ownerTotals(stakesOf(round, seat));
    let next: BlackjackTableShoe;
    try {
      next = moved(tableDecide(table, s.table, act));
    } catch (e) {
      if (e instanceof RoundError) return { ok: false, reason: e.message, refusal: 'illegal-action' };
      throw e;
    }
    // What the decision put into play, by bettor: the growth of their stakes, plus any insurance.
    const after = ownerTotals(stakesOf(roundOf(next), seat));
    const bet = act.type === 'insurance' ? 'insurance' : act.type === 'split' ? 'split' : 'double';
    const stakes: RoundStake[] = [];
    for (const [owner, total] of after) {
      const bettor = owner === undefined ? undefined : r.owners[owner];
      const raised = total - (before.get(owner) ?? 0) + (bettor === insurer && act.type === 'insurance' ? act.amount : 0);
      if (raised > 0) stakes.push({ seat, bet, amount: raised, ...(bettor !== undefined ? { bettor } : {}) });
    }
    const out = act.type === 'double' || act.type === 'split' ? (act.notFollowing ?? []) : [];
    const notFollowing = out.map((o) => r.owners[o]).filter((x): x is number => x !== undefined);
    return { ok: true, shoe: next, round: { ...r, staged: null, notFollowed: [...r.notFollowed, ...short] }, stakes, notFollowing };
  };

  /** A bettor behind's answer to a staged double or split; the last answer applies the seat's decision. */
  const answerFollow = (s: BlackjackTableShoe, r: BlackjackTableRound, st: StagedFollow, d: DecisionRequest) => {
    const next = st.ask.find((a) => !st.answers.some((x) => x.station === a.station));
    if (!next || d.seat !== st.seat) return { ok: false as const, reason: `seat ${d.seat} has no decision to make`, refusal: 'no-decision' as const };
    if (d.action !== FOLLOW_OFFERS[st.action] && d.action !== DECLINE_FOLLOW) {
      return {
        ok: false as const,
        reason: `"${d.action}" is not legal now (legal: ${FOLLOW_OFFERS[st.action]}, ${DECLINE_FOLLOW})`,
        refusal: 'illegal-action' as const,
      };
    }
    const follows = d.action !== DECLINE_FOLLOW;
    if (follows && !d.canAfford(next.cost, next.station))
      return { ok: false as const, reason: `station ${next.station} has not the credit to follow the ${st.action}`, refusal: 'over-credit' as const };
    const staged: StagedFollow = { ...st, answers: [...st.answers, { station: next.station, follows }] };
    if (staged.ask.some((a) => !staged.answers.some((x) => x.station === a.station))) {
      return { ok: true as const, shoe: s, round: { ...r, staged }, stakes: [], notFollowing: [] };
    }
    const out = [...st.short.map((n) => n.station), ...staged.answers.filter((a) => !a.follows).map((a) => a.station)].map(ownerName);
    return apply(s, { ...r, staged: null }, st.seat, { type: st.action, ...(out.length > 0 ? { notFollowing: out } : {}) }, st.short, undefined);
  };

  return {
    kind: 'blackjack',
    profile: profileId,
    identity: `blackjack/${profileId}/${JSON.stringify(Object.entries(options).sort(([a], [b]) => a.localeCompare(b)))}`,
    decks: rules.decks,
    bets: offeredBets(catalogue, rules),
    behind: {
      maxBettorsPerSeat: rules.maxBettorsPerSeat,
      rule: profileId === 'portugal-2001' ? `${profileId} rules 15-16` : `${profileId} art.20 n.1`,
    },
    // A remote station has no seat of its own: it bets behind a seat, within Art. 20 / rules 15-16.
    remote: 'behind',
    ...(otherSeats ? { onOtherSeats: otherSeats } : {}),
    // Art. 13 (2009): "Para além da aposta inicial e aposta de seguro, o jogador pode ainda fazer
    // uma das seguintes apostas"; the other texts name no additional bet beside their rules, and
    // the round needs a main bet on every seat it deals.
    // Portugal rule 45: «Apenas poderão jogar para o jackpot os jogadores que tenham feito a sua aposta no jogo principal».
    initialBet: { bet: 'main', rule: profileId === 'macau-2009' ? 'macau-2009 art.13' : program ? 'portugal-2001 rule 45' : null },
    limitRules: blackjackLimitRules(rules, catalogue, program?.stake),
    payTable: blackjackPayTable(rules, catalogue),
    corrections: blackjackCorrections(profileId),
    // Art. 5 n.1 2): "Na impossibilidade de rectificação do erro, são canceladas todas as cartas distribuídas para essa jogada."
    voidRule: profileId === 'portugal-2001' ? null : `${profileId} art.5 n.1 2)`,
    presentation: { dealerHand: true, panel: 'history' },

    initial: () => moved(tableShuffled(table, openTable(program ? openJackpot(program) : undefined), 1)),
    newShoe: (s) => (tablePhase(s.table) === 'round' ? s : moved(tableShuffled(table, s.table, 1))),
    cutCard: (s) => moved(tableCutCardOut(s.table)),
    shoeCue: (s) => {
      if (tablePhase(s.table) !== 'burn') return null;
      const step = shoeNext(s.table.shoe);
      return { kind: 'card', to: 'burn', ...(step.kind === 'burn' ? { burnsLeft: step.count } : {}) };
    },
    takeShoeCard: (s, card) => {
      if (tablePhase(s.table) !== 'burn') return { ok: false, reason: 'no burn is expected now' };
      try {
        return { ok: true, shoe: withCard(s, tableCardOut(table, s.table, card), card), to: 'burn' };
      } catch (e) {
        return { ok: false, reason: e instanceof Error ? e.message : String(e) };
      }
    },
    shoeFinished: (s) => tablePhase(s.table) === 'shuffle',
    lastRoundOfShoe: (s) => isLastRound(rules, s.table.shoe),

    startRound: (s, seats) => {
      const owners: Record<string, number> = {};
      const entries: SeatEntry[] = seats.map((x) => {
        // With `bettor-chooses` (Portugal rules 28, 30) every bettor behind *may* follow: the engine
        // is told so, and the ones who answer no (or cannot pay) are named when the seat decides.
        const may = chooses ? { followSplit: true, followDouble: true } : {};
        const behind = x.behind.map((b) => {
          owners[ownerName(b.station)] = b.station;
          return { owner: ownerName(b.station), main: b.main, ...sideStakes(first, b.sides ?? {}), ...(b.main > 0 ? may : {}) };
        });
        return { seat: x.seat, bets: seatBets(catalogue, x.bets), ...(behind.length ? { behind } : {}) };
      });
      return { shoe: moved(startTableRound(table, s.table, entries)), round: { owners, staged: null, notFollowed: [] } };
    },
    pending: (s, r): Pending => {
      const st = r.staged;
      if (st) {
        const next = st.ask.find((a) => !st.answers.some((x) => x.station === a.station));
        if (next) {
          return {
            kind: 'decision',
            seat: st.seat,
            hand: st.hand,
            legal: [FOLLOW_OFFERS[st.action], DECLINE_FOLLOW],
            default: DECLINE_FOLLOW,
            decider: { kind: 'behind', station: next.station },
            cost: next.cost,
          };
        }
      }
      const x = roundOf(s).expected;
      if (x.kind === 'done') return { kind: 'done' };
      if (x.kind === 'decision') {
        const bettor = r.owners[x.decider];
        return {
          kind: 'decision',
          seat: x.seat,
          hand: x.hand,
          legal: [...x.legal],
          default: blackjackDefault(x.legal, x.offer),
          decider: bettor !== undefined ? { kind: 'behind', station: bettor } : { kind: 'seat' },
        };
      }
      const t = x.target;
      if (t.to === 'burn') return { kind: 'card', cue: { kind: 'card', to: 'burn' } };
      if (t.to === 'dealer')
        return {
          kind: 'card',
          cue: { kind: 'card', to: 'dealer', ...(x.step === 'dealer-hole' ? { faceDown: true } : {}), ...(takesKeptCard(x.step) ? { asked: true } : {}) },
        };
      return {
        kind: 'card',
        cue: { kind: 'card', to: 'seat', seat: t.seat, hand: t.hand, ...(x.step === 'hit' || x.step === 'double' ? { asked: true } : {}) },
      };
    },
    takeCard: (s, r, card: Card) => {
      const x = roundOf(s).expected;
      if (x.kind !== 'card' || r.staged) return { ok: false, reason: 'no card is expected now' };
      let next: BlackjackTableShoe;
      try {
        next = withCard(s, tableCardOut(table, s.table, card), card);
      } catch (e) {
        return { ok: false, reason: e instanceof Error ? e.message : String(e) };
      }
      const t = x.target;
      return { ok: true, shoe: next, round: r, to: t.to === 'hand' ? `seat:${t.seat}:hand:${t.hand}` : t.to };
    },
    decide: (s, r, d) => {
      if (r.staged) return answerFollow(s, r, r.staged, d);
      const x = roundOf(s).expected;
      if (x.kind !== 'decision' || x.seat !== d.seat) return { ok: false, reason: `seat ${d.seat} has no decision to make`, refusal: 'no-decision' };
      const action = x.legal.find((a) => a === d.action);
      if (action === undefined) return { ok: false, reason: `"${d.action}" is not legal now (legal: ${x.legal.join(', ')})`, refusal: 'illegal-action' };
      // What the decision costs each bettor on the hand: the seat's own station (undefined) and
      // every bettor behind whose stake follows a double or a split (Art. 20).
      const cost = new Map<number | undefined, number>();
      const add = (bettor: number | undefined, n: number) => cost.set(bettor, (cost.get(bettor) ?? 0) + n);
      // A bettor behind is asked for its own insurance once the seat insures (rule 15): it pays it.
      const insurer = r.owners[x.decider];
      let act: Action;
      if (action === 'insurance') {
        const max = x.insurance?.max ?? 0;
        const insure = Math.min(d.amount ?? max, max);
        if (!x.insurance || insure < x.insurance.min) return { ok: false, reason: 'insurance amount out of range', refusal: 'illegal-action' };
        act = { type: 'insurance', amount: insure };
        add(insurer, insure);
      } else {
        act = { type: action };
        for (const st of stakesOf(roundOf(s), d.seat).filter((z) => z.hand === x.hand)) {
          const bettor = st.owner === undefined ? undefined : r.owners[st.owner];
          if (action === 'double' && st.followDouble) add(bettor, st.stake);
          if (action === 'split' && st.followSplit) add(bettor, st.base);
        }
      }
      // The deciding player's double or split never waits on another's credit: a bettor behind
      // who cannot cover its share does not follow. On a double its bet stays at its stake on the
      // hand (Portugal rule 30), on a split it rides on the first hand (rule 28). Macau Art. 20
      // (2009 and 2004) is silent on doubles and splits of bets behind: the Portuguese rules apply
      // by analogy (docs/table-host.md). What refuses the decision is only the credit of the one
      // who decides it (or insures) and of the seat's own station, whose bet always follows.
      const stayOut: NotFollowed[] = [];
      for (const [bettor, c] of cost) {
        if (c <= 0 || d.canAfford(c, bettor)) continue;
        // Macau Art. 20 is silent on it: the bet stays out (default) or the seat's decision is refused (`behindShortOfCredit`).
        if (bettor !== undefined && bettor !== insurer && (action === 'double' || action === 'split') && rules.behindShortOfCredit === 'stays-out') {
          stayOut.push({ station: bettor, seat: d.seat, hand: x.hand, action, amount: c });
          continue;
        }
        return {
          ok: false,
          reason: bettor !== undefined ? `station ${bettor} has not the credit for this decision` : 'not enough credit',
          refusal: 'over-credit',
        };
      }
      if (stayOut.length > 0 && (action === 'double' || action === 'split')) act = { type: action, notFollowing: stayOut.map((n) => ownerName(n.station)) };
      if (chooses && (action === 'double' || action === 'split')) {
        // Rules 28, 30: ask each bettor behind who could pay its share before the seat's
        // decision takes effect (the seat's own credit was checked above).
        const ask = [...cost].flatMap(([bettor, c]) =>
          bettor !== undefined && bettor !== insurer && c > 0 && !stayOut.some((n) => n.station === bettor) ? [{ station: bettor, cost: c }] : [],
        );
        if (ask.length > 0) {
          const staged: StagedFollow = { seat: d.seat, hand: x.hand, action, ask, answers: [], short: stayOut };
          // The bettors who cannot pay are named now, journalled with the seat's decision, so a
          // replay asks the same bettors again.
          return { ok: true, shoe: s, round: { ...r, staged }, stakes: [], notFollowing: stayOut.map((n) => n.station) };
        }
      }
      return apply(s, r, d.seat, act, stayOut, insurer);
    },
    settle: (s, r) => {
      const round = roundOf(s);
      const jp = round.jackpot;
      const progressive: ProgressiveSettled | undefined =
        jp && program
          ? {
              reference: program.reference,
              levels: jp.moves,
              hits: jp.results.flatMap((x) =>
                x.award > 0 && x.combination && x.level ? [{ seat: x.seat, hand: x.hand, combination: x.combination, level: x.level, amount: x.award }] : [],
              ),
            }
          : undefined;
      const held = round.held.map((h) => ({ seat: h.seat, bet: lineBet(h.bet), amount: h.amount }));
      const before = round.streaksBefore;
      const after = round.streaks;
      const seats = [...new Set([...before, ...after].map((x) => x.seat))].sort((a, b) => a - b);
      const mark = (x: StreakState | undefined) => (x ? streakMark(x) : null);
      const streaks = seats.map((seat) => ({ seat, before: mark(before.find((x) => x.seat === seat)), after: mark(after.find((x) => x.seat === seat)) }));
      return {
        shoe: s,
        lines: round.lines.map((l): GameLine => {
          const { owner, ...line } = l;
          if (owner === undefined) return { ...line, bet: lineBet(l.bet) };
          const bettor = r.owners[owner];
          if (bettor === undefined) throw new Error(`no station bets as "${owner}"`);
          return { ...line, bet: lineBet(l.bet), bettor };
        }),
        ...(progressive ? { progressive } : {}),
        ...(held.length > 0 ? { held } : {}),
        ...(streaks.length > 0 ? { streaks } : {}),
      };
    },
    resetProgressive: (s, level, to) => {
      if (!program || !s.table.jackpot) return { ok: false, reason: 'this table plays no jackpot', refusal: 'illegal-action' };
      try {
        const { table: t, unfunded } = resetTableJackpot(s.table, level, to);
        return { ok: true, shoe: moved(t), unfunded };
      } catch (e) {
        if (e instanceof RoundError) return { ok: false, reason: e.message, refusal: 'illegal-action' };
        throw e;
      }
    },
    progressive: (s, r): ProgressiveView | null => {
      if (!program) return null;
      const t = s.table;
      const round = r ? t.round : undefined;
      // While a round is in play its chips are in the pools already (rule 41); once it is done the table holds the result.
      const pools = round && !round.done ? round.jackpotPools : t.jackpot?.pools;
      return {
        reference: program.reference,
        stake: program.stake,
        levels: program.levels.map((l) => ({
          level: l.level,
          pool: pools?.[l.level] ?? 0,
          held: t.jackpot?.pools[l.level] ?? 0,
          unfunded: t.jackpot?.unfunded[l.level] ?? 0,
        })),
      };
    },
    streaks: (s) => s.table.streaks.map((x) => ({ seat: x.seat, ...streakMark(x) })),
    voidRound: (s) => moved(voidTableRound(table, s.table)),
    withdrawLastCard: (s, r) => {
      const last = s.last;
      if (!last || r.staged) return { ok: false, reason: 'a decision followed the last card: it cannot be taken back' };
      const before = last.before;
      const round = before.round;
      const x = round?.expected;
      if (!round || x?.kind !== 'card') return { ok: false, reason: 'the last card is not one of the round' };
      // Dealt face down: the dealer's hole card always, the players' first two where the procedure
      // deals them face down (Macau procedure 1, procedure 3's alternative 3)(5)); Portugal deals
      // the players' cards face up (rule 17).
      const faceDown = x.step === 'dealer-hole' || (profileId !== 'portugal-2001' && !rules.playerCardsFaceUp && (x.step === 'first' || x.step === 'second'));
      if (!faceDown) return { ok: false, reason: `the ${x.why} is dealt face up: exposed, it stands` };
      // "podendo, no entanto, optar-se por considerar válida a carta … quando seja a primeira do início do jogo".
      if (rules.exposedFirstCardValid && round.firstOfShoe && round.log.length === 0)
        return { ok: false, reason: `the first card of the game stands face up (exposedFirstCardValid, ${profileId} art.5 n.1 1))` };
      return { ok: true, shoe: moved(tableDiscard(table, before, last.card, 'exposed card')), round: r, card: cardCode(last.card) };
    },
    notFollowed: (r) => r.notFollowed,

    hands: (s, r): HandView[] => {
      if (!r) return [];
      const round = roundOf(s);
      const x = round.expected;
      const dealer = dealerView(round);
      // The hole card stays face down until the dealer plays (or the round ends).
      const revealed = x.kind === 'done' || (x.kind === 'card' && x.target.to === 'dealer' && x.step !== 'dealer-hole');
      const hidden = rules.holeCard !== 'none' && !revealed && dealer.cards.length >= 2;
      const cards = dealer.cards.map((c, i): CardCode | 'XX' => (hidden && i === 1 ? 'XX' : c));
      const shown = hidden ? handTotal(round.dealer.slice(0, 1)) : { total: dealer.total, soft: dealer.soft };
      const natural = { natural: true } as const;
      return [
        { owner: 'dealer', cards, total: cards.length ? shown.total : null, soft: shown.soft, ...(!hidden && isNaturalPair(round.dealer) ? natural : {}) },
        ...round.hands.map((h): HandView => ({
          owner: 'seat',
          seat: h.seat,
          hand: h.hand,
          cards: h.cards,
          total: h.total,
          soft: h.soft,
          status: h.status,
          ...(h.natural ? natural : {}),
        })),
      ];
    },
    /**
     * Additional bets and streaks (Art. 13–14) that win; the Art. 15 special prize, whether it is
     * its own line (`bonus678`, on top of the result) or replaces the main result (the main line
     * quotes Art. 15); five cards taken at half pay (Art. 19), known by the rule its line quotes.
     */
    prizeOf: (line) => {
      if (line.net <= 0) return undefined;
      if (additional.has(line.bet)) return 'side-bet';
      if (line.bet === 'bonus678') return 'special-prize';
      if (line.bet !== 'main') return undefined;
      if (rules.bonus678 !== 'none' && line.rule.startsWith(ref(profileId, 'special678'))) return 'special-prize';
      if (rules.fiveCardHalfPay && line.rule.startsWith(ref(profileId, 'fiveCard'))) return 'five-card';
      return undefined;
    },
  };
}
