import { cardCode, type Card, type CardCode } from '../cards/card.js';
import { BLACKJACK_ROUND_SCHEMA, BLACKJACK_SHOE_SCHEMA } from './state-schema.js';
import type { CardCue, GameDefaults, GameDefinition, GameFacts, GameLine, Outcome, ProgressiveSettled, SeatStakes } from '../table/game.js';
import { lineBet } from '../table/vocabulary.js';
import { openJackpot } from './jackpot/settle.js';
import { JACKPOT_PROGRAM_OPTION } from './jackpot/option.js';
import { EXAMPLE_JACKPOT_PROGRAM } from './jackpot/program.js';
import { blackjackLimitRules } from './limit-rules.js';
import { blackjackPayTable } from './pay-table.js';
import { offeredBets } from '../table/bet-catalogue.js';
import { gameIdentity } from '../table/game-identity.js';
import { BLACKJACK_CATALOGUE } from './bets/catalogue.js';
import type { BlackjackBetEntry } from './bets/entry.js';
import { blackjackCorrections } from './table-corrections.js';
import { behindCapRef, ref } from './refs.js';
import { seatBets, sideStakes, streakMark } from './table-bets.js';
import { RoundError, type SeatEntry, type StreakState } from './round.js';
import { isLastRound, shoeNext } from './shoe-session.js';
import {
  endTableStreaks,
  openTable,
  resetTableJackpot,
  startTableRound,
  tableCardOut,
  tableCutCardOut,
  tableDiscard,
  tablePhase,
  tableShuffled,
  voidTableRound,
} from './table.js';
import { blackjackDecide } from './table-decide.js';
import {
  blackjackTableSetup,
  moved,
  ownerName,
  roundOf,
  withCard,
  type BlackjackTableRound,
  type BlackjackTableSetup,
  type BlackjackTableShoe,
} from './table-setup.js';
import { blackjackHands, blackjackPending, blackjackPrizeOf, blackjackProgressive } from './table-views.js';

export type { BlackjackTableRound, BlackjackTableShoe } from './table-setup.js';

type BlackjackGame = GameDefinition<BlackjackTableShoe, BlackjackTableRound>;

/**
 * A simulated blackjack table plays Macau 2009 unless told; `--jackpot`'s is Portugal's, whose
 * progressive (rules 38–50) is on with the engine's example program, under its reference.
 */
export const BLACKJACK_DEFAULTS: GameDefaults = {
  profile: 'macau-2009',
  tableCode: 'BJ',
  jackpotExample: {
    profile: 'portugal-2001',
    options: { jackpot: true, [JACKPOT_PROGRAM_OPTION]: EXAMPLE_JACKPOT_PROGRAM },
    authorisation: EXAMPLE_JACKPOT_PROGRAM.reference,
  },
};

/**
 * Blackjack as the table plays it, under a profile and the table's authorised rule options: the
 * setup derived once (engine/blackjack/table-setup.ts), and each move a named function of it, the
 * shoe and the round (here, table-decide.ts and table-views.ts).
 */
export function blackjackTableGame(
  profileId: string,
  options: Readonly<Record<string, unknown>> = {},
  catalogue: readonly BlackjackBetEntry[] = BLACKJACK_CATALOGUE,
): BlackjackGame {
  const g = blackjackTableSetup(profileId, options, catalogue);
  return {
    ...blackjackTableFacts(g),
    shoe: {
      initial: () => moved(tableShuffled(g.table, openTable(g.program ? openJackpot(g.program) : undefined), 1)),
      newShoe: (s) => (tablePhase(s.table) === 'round' ? s : moved(tableShuffled(g.table, s.table, 1))),
      cutCard: (s) => moved(tableCutCardOut(s.table)),
      shoeCue: (s) => burnCue(s),
      takeShoeCard: (s, card) => takeBurn(g, s, card),
      shoeFinished: (s) => tablePhase(s.table) === 'shuffle',
      lastRoundOfShoe: (s) => isLastRound(g.rules, s.table.shoe),
      resetProgressive: (s, level, to) => resetProgressive(g, s, level, to),
      endStreaks: (s, seats) => {
        const { table, ended } = endTableStreaks(s.table, seats);
        return { shoe: ended.length > 0 ? { ...s, table } : s, ended, rule: ref(g.rules.profile, 'streakSeatChanged') };
      },
    },
    round: {
      startRound: (s, seats, _stadium, keptOut) => startRound(g, s, seats, keptOut),
      pending: (s, r) => blackjackPending(g, s, r),
      takeCard: (s, r, card) => takeCard(g, s, r, card),
      decide: (s, r, d) => blackjackDecide(g, s, r, d),
      settle: (s, r) => settle(g, s, r),
      voidRound: (s) => moved(voidTableRound(g.table, s.table)),
      withdrawLastCard: (s, r) => withdrawLastCard(g, s, r),
      notFollowed: (r) => r.notFollowed,
    },
    schemas: { shoe: BLACKJACK_SHOE_SCHEMA, round: BLACKJACK_ROUND_SCHEMA },
    screens: {
      progressive: (s, r) => blackjackProgressive(g, s, r),
      streaks: (s) => s.table.streaks.map((x) => ({ seat: x.seat, ...streakMark(x) })),
      hands: (s, r) => blackjackHands(g, s, r),
      prizeOf: (line) => blackjackPrizeOf(g, line),
    },
  };
}

/** What the table states about its game before any move: its identity, bets, limits, pay table, corrections. */
function blackjackTableFacts(g: BlackjackTableSetup): GameFacts {
  const { profileId, rules, catalogue, program } = g;
  return {
    kind: 'blackjack',
    profile: profileId,
    identity: gameIdentity('blackjack', profileId, g.options, 'written'),
    decks: rules.decks,
    rules: {
      bets: offeredBets(catalogue, rules),
      behind: {
        maxBettorsPerSeat: rules.maxBettorsPerSeat,
        rule: profileId === 'portugal-2001' ? `${profileId} rules 15-16` : `${profileId} art.20 n.1`,
        cap: behindCapRef(rules),
      },
      // A remote station has no seat of its own: it bets behind a seat, within Art. 20 / rules 15-16.
      remote: 'behind',
      // Art. 13 (2009 and 2004, the same words): "Para além da aposta inicial e aposta de seguro, o
      // jogador pode ainda fazer uma das seguintes apostas" (2004 was left out until a review of the
      // citations); Portugal names no additional bet, and the round needs a main bet on every seat it deals.
      // Portugal rule 45: «Apenas poderão jogar para o jackpot os jogadores que tenham feito a sua aposta no jogo principal».
      initialBet: {
        bet: 'main',
        rule: profileId === 'macau-2009' || profileId === 'macau-2004' ? `${profileId} art.13` : program ? 'portugal-2001 rule 45' : null,
      },
      limitRules: blackjackLimitRules(rules, catalogue, program?.stake),
      payTable: blackjackPayTable(rules, catalogue),
      corrections: blackjackCorrections(profileId),
      // Art. 5 n.1 2): "Na impossibilidade de rectificação do erro, são canceladas todas as cartas distribuídas para essa jogada."
      voidRule: profileId === 'portugal-2001' ? null : `${profileId} art.5 n.1 2)`,
      ...(g.otherSeats ? { onOtherSeats: g.otherSeats } : {}),
    },
    presentation: { dealerHand: true, panel: 'history' },
  };
}

/** The burn the shoe waits for between rounds, if any. */
function burnCue(s: BlackjackTableShoe): CardCue | null {
  if (tablePhase(s.table) !== 'burn') return null;
  const step = shoeNext(s.table.shoe);
  return { kind: 'card', to: 'burn', ...(step.kind === 'burn' ? { burnsLeft: step.count } : {}) };
}

function takeBurn(g: BlackjackTableSetup, s: BlackjackTableShoe, card: Card): Outcome<{ shoe: BlackjackTableShoe; to: string }> {
  if (tablePhase(s.table) !== 'burn') return { ok: false, reason: 'no burn is expected now' };
  try {
    return { ok: true, shoe: withCard(s, tableCardOut(g.table, s.table, card), card), to: 'burn' };
  } catch (e) {
    return { ok: false, reason: e instanceof Error ? e.message : String(e) };
  }
}

/** A round for the seats that bet, each bettor behind named for the engine by its station. */
function startRound(
  g: BlackjackTableSetup,
  s: BlackjackTableShoe,
  seats: readonly SeatStakes[],
  keptOut: readonly number[] = [],
): { shoe: BlackjackTableShoe; round: BlackjackTableRound } {
  const owners: Record<string, number> = {};
  const entries: SeatEntry[] = seats.map((x) => {
    // With `bettor-chooses` (Portugal rules 28, 30) every bettor behind *may* follow: the engine
    // is told so, and the ones who answer no (or cannot pay) are named when the seat decides.
    const may = g.chooses ? { followSplit: true, followDouble: true } : {};
    const behind = x.behind.map((b) => {
      owners[ownerName(b.station)] = b.station;
      return { owner: ownerName(b.station), main: b.main, ...sideStakes(g.first, b.sides ?? {}), ...(b.main > 0 ? may : {}) };
    });
    return { seat: x.seat, bets: seatBets(g.catalogue, x.bets), ...(behind.length ? { behind } : {}) };
  });
  return { shoe: moved(startTableRound(g.table, s.table, entries, keptOut)), round: { owners, staged: null, notFollowed: [] } };
}

function takeCard(
  g: BlackjackTableSetup,
  s: BlackjackTableShoe,
  r: BlackjackTableRound,
  card: Card,
): Outcome<{ shoe: BlackjackTableShoe; round: BlackjackTableRound; to: string }> {
  const x = roundOf(s).expected;
  if (x.kind !== 'card' || r.staged) return { ok: false, reason: 'no card is expected now' };
  let next: BlackjackTableShoe;
  try {
    next = withCard(s, tableCardOut(g.table, s.table, card), card);
  } catch (e) {
    return { ok: false, reason: e instanceof Error ? e.message : String(e) };
  }
  const t = x.target;
  return { ok: true, shoe: next, round: r, to: t.to === 'hand' ? `seat:${t.seat}:hand:${t.hand}` : t.to };
}

/** The round's lines, each bettor behind paid at its station, with what it did to the pools, the held bets and the streaks. */
function settle(g: BlackjackTableSetup, s: BlackjackTableShoe, r: BlackjackTableRound): ReturnType<BlackjackGame['round']['settle']> {
  const round = roundOf(s);
  const jp = round.jackpot;
  const progressive: ProgressiveSettled | undefined =
    jp && g.program
      ? {
          reference: g.program.reference,
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
}

function resetProgressive(g: BlackjackTableSetup, s: BlackjackTableShoe, level: string, to: number): Outcome<{ shoe: BlackjackTableShoe; unfunded: number }> {
  if (!g.program || !s.table.jackpot) return { ok: false, reason: 'this table plays no jackpot', refusal: 'illegal-action', act: { why: 'jackpot-none' } };
  try {
    const { table: t, unfunded } = resetTableJackpot(s.table, level, to);
    return { ok: true, shoe: moved(t), unfunded };
  } catch (e) {
    if (e instanceof RoundError) return { ok: false, reason: e.message, refusal: 'illegal-action', ...(e.act ? { act: e.act } : {}) };
    throw e;
  }
}

/** The last card taken back as exposed, where it was dealt face down and no decision followed it. */
function withdrawLastCard(
  g: BlackjackTableSetup,
  s: BlackjackTableShoe,
  r: BlackjackTableRound,
): Outcome<{ shoe: BlackjackTableShoe; round: BlackjackTableRound; card: CardCode }> {
  const { profileId, rules } = g;
  const last = s.last;
  if (!last || r.staged) return { ok: false, reason: 'a decision followed the last card: it cannot be taken back', act: { why: 'decision-followed' } };
  const before = last.before;
  const round = before.round;
  const x = round?.expected;
  if (!round || x?.kind !== 'card') return { ok: false, reason: 'the last card is not one of the round', act: { why: 'card-not-of-round' } };
  // Dealt face down: the dealer's hole card always, the players' first two where the procedure
  // deals them face down (Macau procedure 1, procedure 3's alternative 3)(5)); Portugal deals
  // the players' cards face up (rule 17).
  const faceDown = x.step === 'dealer-hole' || (profileId !== 'portugal-2001' && !rules.playerCardsFaceUp && (x.step === 'first' || x.step === 'second'));
  if (!faceDown) return { ok: false, reason: `the ${x.why} is dealt face up: exposed, it stands`, act: { why: 'dealt-face-up', step: x.step } };
  // "podendo, no entanto, optar-se por considerar válida a carta … quando seja a primeira do início do jogo".
  if (rules.exposedFirstCardValid && round.firstOfShoe && round.log.length === 0)
    return {
      ok: false,
      reason: `the first card of the game stands face up (exposedFirstCardValid, ${profileId} art.5 n.1 1))`,
      act: { why: 'card-stands', article: `${profileId} art.5 n.1 1)` },
    };
  return { ok: true, shoe: moved(tableDiscard(g.table, before, last.card, 'exposed card')), round: r, card: cardCode(last.card) };
}
