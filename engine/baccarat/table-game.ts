import { cardCode, type Card } from '../cards/card.js';
import { BACCARAT_COUP_SCHEMA, BACCARAT_SHOE_SCHEMA, type BaccaratCoup } from './state-schema.js';
import { additionalBets, offeredBets } from '../table/bet-catalogue.js';
import { gameIdentity } from '../table/game-identity.js';
import type { GameDefaults, GameDefinition, GameFacts, GameLine, HandView, Pending, SeatStakes } from '../table/game.js';
import { lineBet, STADIUM_SEAT } from '../table/vocabulary.js';
import { baccaratPayTable } from './pay-table.js';
import { BACCARAT_MIN_SEATS_RULE, baccaratMarks, resolveBaccarat } from './options.js';
import { isRegulatedBaccaratProfile } from './profiles.js';
import { BACCARAT_BETS, BACCARAT_CATALOGUE } from './bets.js';
import { settleBaccaratSeat, type BaccaratBets } from './settle.js';
import { cutCardOut, newShoeSession, shoeExpected, shoeTake, voidCoup, type ShoeSession } from './shoe-session.js';
import { handTotal } from './tableau.js';

export type { BaccaratCoup } from './state-schema.js';

/** What a baccarat table fixes when it opens, derived once from its profile and options: every move reads it, none changes it. */
interface BaccaratTableSetup {
  readonly profileId: string;
  readonly resolved: ReturnType<typeof resolveBaccarat>;
  readonly rules: ReturnType<typeof resolveBaccarat>['profile'];
  /** The options as the table was given them (its identity, engine/table/game-identity.ts). */
  readonly options: Readonly<Record<string, unknown>>;
  /** The catalogue's additional bets (the pairs, Lucky 6): celebrated when they win; a tie is a main bet (8 : 1) and not. */
  readonly additional: ReadonlySet<string>;
}

type BaccaratGame = GameDefinition<ShoeSession, BaccaratCoup>;

/** A simulated baccarat table plays the commission profile unless told (Art. 18 n.1). */
export const BACCARAT_DEFAULTS: GameDefaults = { profile: 'macau-commission', tableCode: 'BAC' };

/**
 * Punto banco as the table plays it (engine/baccarat: the shoe session places every card, burns
 * included), under a profile and the table's options (`authorisation`: the reference of its choice):
 * a plain object of named functions over the setup, the shoe and the coup.
 */
export function baccaratTableGame(profileId: string, options: Readonly<Record<string, unknown>> = {}): BaccaratGame {
  if (!isRegulatedBaccaratProfile(profileId))
    throw new RangeError(`the "${profileId}" baccarat profile is for analysis (sim, round): a table plays a profile a text governs`);
  const resolved = resolveBaccarat(profileId, options, true);
  const g: BaccaratTableSetup = {
    profileId,
    resolved,
    rules: resolved.profile,
    options: { ...options },
    additional: new Set(additionalBets(BACCARAT_CATALOGUE)),
  };
  const { rules } = g;
  return {
    ...baccaratTableFacts(g),
    shoe: {
      initial: () => newShoeSession(rules),
      newShoe: () => newShoeSession(rules),
      cutCard: (s) => cutCardOut(s),
      shoeCue: (s) => {
        const e = shoeExpected(s);
        if (e.kind === 'burn-indicator') return { kind: 'card', to: 'burn' };
        if (e.kind === 'burn') return { kind: 'card', to: 'burn', burnsLeft: e.remaining };
        return null;
      },
      takeShoeCard: (s, card) => {
        const e = shoeExpected(s);
        if (e.kind !== 'burn-indicator' && e.kind !== 'burn') return { ok: false, reason: 'no burn is expected now' };
        return { ok: true, shoe: shoeTake(s, card).session, to: 'burn' };
      },
      // The cut card is out: the coups left (Art. 2's procedure) are the last of the shoe.
      shoeFinished: (s) => shoeExpected(s).kind === 'shoe-finished',
      lastRoundOfShoe: (s) => s.coupsLeft !== null,
    },
    round: {
      startRound: (shoe, seats, stadium = []) => ({ shoe, round: { seats, ...(stadium.length > 0 ? { stadium } : {}), result: null } }),
      pending: (shoe, coup): Pending => {
        if (coup.result) return { kind: 'done' };
        const e = shoeExpected(shoe);
        if (e.kind !== 'card') throw new Error(`a coup cannot go on now: ${e.kind}`);
        return { kind: 'card', cue: { kind: 'card', to: e.to } };
      },
      takeCard: (shoe, coup, card: Card) => {
        const e = shoeExpected(shoe);
        if (coup.result || e.kind !== 'card') return { ok: false, reason: 'the coup expects no more cards' };
        const taken = shoeTake(shoe, card);
        return { ok: true, shoe: taken.session, round: { ...coup, result: taken.completed }, to: e.to };
      },
      decide: () => ({ ok: false, reason: 'baccarat has no decisions', refusal: 'no-decision' }),
      settle: (shoe, coup) => ({ shoe, lines: baccaratLines(g, coup) }),
      // A void coup's cards left the shoe but belong to no coup: the next coup starts empty.
      voidRound: (shoe) => voidCoup(shoe),
      // Art. 4 keeps an exposed card: no card is ever taken back.
      withdrawLastCard: () => ({
        ok: false,
        reason: 'macau-baccarat art.4 keeps a card come out face up: the coup goes on',
        act: { why: 'card-stands', article: 'macau-baccarat art.4' },
      }),
      notFollowed: () => [],
    },
    schemas: { shoe: BACCARAT_SHOE_SCHEMA, round: BACCARAT_COUP_SCHEMA },
    screens: {
      hands: (shoe, coup) => baccaratHands(shoe, coup),
      prizeOf: (line) => (line.net > 0 && g.additional.has(line.bet) ? 'side-bet' : undefined),
      coups: (shoe) => shoe.results,
    },
  };
}

/** What the table states about its game before any move: its identity, bets, limits, pay table, corrections. */
function baccaratTableFacts({ profileId, rules, options }: BaccaratTableSetup): GameFacts {
  return {
    kind: 'baccarat',
    profile: profileId,
    identity: gameIdentity('baccarat', profileId, options, 'omitted'),
    decks: rules.decks,
    rules: {
      // The catalogue's bets the profile offers («6 Sortudo» only where the table offers it, Art. 13 n.1 4)(3)).
      bets: offeredBets(BACCARAT_CATALOGUE, rules),
      behind: null,
      // Every seat plays the same coup: a remote station's bets are settled as a seat's (on the stadium box).
      remote: 'own-spots',
      initialBet: null,
      // The baccarat text on file fixes no stake unit, spread or seat count: the limits are the operator's.
      // Art. 1 5): a table of seven or more seats; a configuration of fewer is refused, naming it.
      limitRules: {
        multiplesOfMinimum: null,
        maxTimesMinimum: null,
        minSeats: { seats: 7, rule: BACCARAT_MIN_SEATS_RULE },
        roundMaxRule: null,
        oneAdditionalBet: null,
      },
      payTable: baccaratPayTable(rules),
      // Art. 4 (陽反牌): a card come out of the shoe face up stays valid, the bets on the coup stand
      // and the coup goes on. The text found has no other article on dealing errors: a coup that
      // goes wrong otherwise is voided, citing none (the void records that the text orders no correction).
      corrections: [{ correction: 'exposed-card-stands', holds: ['dealing-error'], rule: 'macau-baccarat art.4' }],
      voidRule: null,
    },
    presentation: { dealerHand: false, panel: 'roads' },
  };
}

/** A seat's stakes as the settlement takes them: only the baccarat bets it placed. */
const seatBaccaratBets = (b: SeatStakes['bets']): BaccaratBets => Object.fromEntries(BACCARAT_BETS.flatMap((k) => (b[k] !== undefined ? [[k, b[k]]] : [])));

/** The lines of a complete coup: every seat's, then each remote station's, settled by the same rules and paid at its station. */
function baccaratLines({ rules, resolved }: BaccaratTableSetup, coup: BaccaratCoup): GameLine[] {
  const r = coup.result;
  if (!r) throw new Error('the coup is not complete');
  const lines: GameLine[] = coup.seats
    .flatMap((x) => settleBaccaratSeat(x.seat, seatBaccaratBets(x.bets), r, rules))
    .map((l) => ({ ...l, ...baccaratMarks(resolved, l.bet), bet: lineBet(l.bet) }));
  for (const x of coup.stadium ?? [])
    for (const l of settleBaccaratSeat(STADIUM_SEAT, seatBaccaratBets(x.bets), r, rules))
      lines.push({ ...l, ...baccaratMarks(resolved, l.bet), bet: lineBet(l.bet), bettor: x.station });
  return lines;
}

/** The player's and the banker's hands, as dealt so far or as the coup ended. */
function baccaratHands(shoe: ShoeSession, coup: BaccaratCoup | null): HandView[] {
  if (!coup) return [];
  const cards = coup.result ? { player: coup.result.player, banker: coup.result.banker } : shoe.coup;
  const view = (owner: 'player' | 'banker', hand: readonly Card[]): HandView => ({
    owner,
    cards: hand.map(cardCode),
    total: hand.length ? handTotal(hand) : null,
  });
  return [view('player', cards.player), view('banker', cards.banker)];
}
