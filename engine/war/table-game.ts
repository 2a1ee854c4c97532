import { cardCode, type Card } from '../cards/card.js';
import { WAR_COUP_SCHEMA, WAR_SHOE_SCHEMA, type WarTableShoe } from './state-schema.js';
import { additionalBets, offeredBets } from '../table/bet-catalogue.js';
import { gameIdentity } from '../table/game-identity.js';
import type { DecisionRequest, GameDefaults, GameDefinition, GameFacts, GameLine, HandView, Pending } from '../table/game.js';
import { lineBet, STADIUM_SEAT } from '../table/vocabulary.js';
import { longestWarCoup, newWarCoup, warDecide, warDecideOnBox, warExpected, warRank, warTakeCard, type WarAction, type WarCoup } from './coup.js';
import { WAR_CATALOGUE } from './bets.js';
import { warPayTable } from './pay-table.js';
import { resolveWar, warMarks } from './options.js';
import { isRegulatedWarProfile, WAR_RULES } from './profiles.js';
import { settleWarBox, settleWarCoup } from './settle.js';
import { newWarShoe, warAfterCoup, warCutCardOut } from './shoe-session.js';

export type { WarTableShoe } from './state-schema.js';

/**
 * What a tied seat that lets its decision time run out takes: surrender half, the loss of Art. 7
 * n.4 1) («Perder metade do valor da aposta inicial»). The default itself is the house's reading:
 * n.4 gives the player the choice («pode optar por») and says nothing of a player who does not make
 * it. Of the two choices only war puts more money in play, and n.5 makes that the player's own
 * act: «o jogador dobra a aposta inicial». The table never stakes credit without the player (no
 * timeout does, in any game: engine/table/dealing.ts), and holding the table for an absent player
 * would stop every other seat's coup, which the text does not provide for either. So the line of a
 * timed-out surrender cites no article (`WAR_RULES.surrenderTimedOut`); one chosen in time cites
 * `[art.7] n.4 al.1`. The same holds for a tie bettor's main bet under `mainBetOnTieWithTieBet:
 * choose` (the reading that gives these players n.4's choice too): its timeout surrenders.
 */
export const WAR_TIMEOUT_DEFAULT: WarAction = 'surrender';

/** «considera-se válida a carta e a respectiva aposta»: a card out of the shoe face up stands. */
const WAR_EXPOSED_VALID = 'macau-war [art.3]';

/** The list of material, item 5): «uma mesa de jogo de um tabuleiro, com sete ou mais lugares sentados». */
export const WAR_MIN_SEATS_RULE = 'macau-war [art.1] 5)';

/** What a war table fixes when it opens, derived once from its profile and options: every move reads it, none changes it. */
interface WarTableSetup {
  readonly profileId: string;
  readonly resolved: ReturnType<typeof resolveWar>;
  readonly rules: ReturnType<typeof resolveWar>['profile'];
  /** The options as the table was given them (its identity, engine/table/game-identity.ts). */
  readonly options: Readonly<Record<string, unknown>>;
  /** The catalogue's additional bet (the tie bet, Art. 7 n.3): celebrated when it wins. */
  readonly additional: ReadonlySet<string>;
}

type WarGame = GameDefinition<WarTableShoe, WarCoup>;

/** A simulated war table plays «Desafio ao Casino» as the text on file has it. */
export const WAR_DEFAULTS: GameDefaults = { profile: 'macau', tableCode: 'WAR' };
type WarDecided = ReturnType<WarGame['round']['decide']>;

/**
 * «Desafio ao Casino» as the table plays it (engine/war: the coup, its settlement, the shoe), under
 * a profile and the table's options (`authorisation`: the reference of a reading it takes): a plain
 * object of named functions over the setup, the shoe and the coup.
 */
export function warTableGame(profileId: string, options: Readonly<Record<string, unknown>> = {}): WarGame {
  if (!isRegulatedWarProfile(profileId))
    throw new RangeError(`the "${profileId}" war profile is for analysis (sim, round): a table plays a profile a text governs`);
  const resolved = resolveWar(profileId, options);
  const g: WarTableSetup = {
    profileId,
    resolved,
    rules: resolved.profile,
    options: { ...options },
    additional: new Set(additionalBets(WAR_CATALOGUE)),
  };
  const { rules } = g;
  return {
    ...warTableFacts(g),
    shoe: {
      initial: () => ({ shoe: newWarShoe(rules), finished: false }),
      newShoe: () => ({ shoe: newWarShoe(rules), finished: false }),
      cutCard: (s) => ({ ...s, shoe: warCutCardOut(s.shoe) }),
      shoeCue: () => null,
      takeShoeCard: () => ({ ok: false, reason: 'no card is expected between coups' }),
      shoeFinished: (s) => s.finished,
      lastRoundOfShoe: (s) => s.shoe.cutCardOut,
      longestCoup: (hands) => longestWarCoup(hands, rules.warBurns),
    },
    round: {
      startRound: (shoe, seats, stadium = []) => ({
        shoe,
        round: newWarCoup(
          seats.map((x) => ({ seat: x.seat, bets: { main: x.bets.main ?? 0, tie: x.bets.tie ?? 0 } })),
          rules,
          stadium.map((x) => ({ station: x.station, bets: { main: x.bets.main ?? 0, tie: x.bets.tie ?? 0 } })),
        ),
      }),
      pending: (_shoe, coup) => warPending(coup),
      takeCard: (shoe, coup, card: Card) => {
        const e = warExpected(coup);
        if (e.kind !== 'card' && e.kind !== 'burn') return { ok: false, reason: `no card is expected (${e.kind})` };
        const to =
          e.kind === 'burn' ? 'burn' : e.to === 'croupier' ? 'dealer' : `seat:${e.to === 'box' ? STADIUM_SEAT : e.to}${e.phase === 'war' ? ':war' : ''}`;
        return { ok: true, shoe, round: warTakeCard(coup, card), to };
      },
      decide: (shoe, coup, d) => (d.seat === STADIUM_SEAT ? decideOnBox(shoe, coup, d) : decideAtSeat(shoe, coup, d)),
      settle: (s, coup) => warSettle(g, s, coup),
      voidRound: (shoe) => shoe,
      withdrawLastCard: () => ({
        ok: false,
        reason: `a card that comes out face up stands (${WAR_EXPOSED_VALID})`,
        act: { why: 'card-stands', article: WAR_EXPOSED_VALID },
      }),
      notFollowed: () => [],
    },
    schemas: { shoe: WAR_SHOE_SCHEMA, round: WAR_COUP_SCHEMA },
    screens: {
      hands: (_shoe, coup) => warHands(coup),
      // The catalogue's additional bet (the tie bet, Art. 7 n.3) is celebrated when it wins.
      prizeOf: (line) => (line.net > 0 && g.additional.has(line.bet) ? 'side-bet' : undefined),
    },
  };
}

/** What the table states about its game before any move: its identity, bets, limits, pay table, corrections. */
function warTableFacts({ profileId, rules, options }: WarTableSetup): GameFacts {
  return {
    kind: 'war',
    profile: profileId,
    identity: gameIdentity('war', profileId, options, 'omitted'),
    decks: rules.decks,
    rules: {
      bets: offeredBets(WAR_CATALOGUE, rules),
      behind: null,
      // Each seat has its own card: the remote stations share one of their own, on the stadium box,
      // dealt like a seat's, each deciding for its own bet after a tie (Art. 7 n.4).
      remote: 'own-spots',
      // Art. 7 settles a tie bet on its own: a seat may bet the tie alone.
      initialBet: null,
      limitRules: {
        multiplesOfMinimum: null,
        maxTimesMinimum: null,
        minSeats: { seats: 7, rule: WAR_MIN_SEATS_RULE },
        roundMaxRule: null,
        oneAdditionalBet: null,
      },
      payTable: warPayTable(rules),
      // Art. 6: an error in the initial or the additional deal is corrected at once, the coup void only
      // if it cannot be. Art. 3: a card that comes out face up is valid, with its bet, and the game
      // goes on: a dealer who stopped the coup for one lifts the hold and deals on (never a void), and
      // the card is never taken back.
      corrections: [
        { correction: 'undue-card', holds: ['out-of-turn', 'extra-card'], rule: WAR_RULES.void },
        { correction: 'wrong-hand', holds: ['dealing-error'], rule: WAR_RULES.void },
        { correction: 'exposed-card-stands', holds: ['dealing-error'], rule: WAR_EXPOSED_VALID },
        { correction: 'exposed-card', holds: ['dealing-error'], forbiddenBy: WAR_EXPOSED_VALID },
      ],
      voidRule: WAR_RULES.void,
    },
    presentation: { dealerHand: true, panel: 'history', actionWords: { surrender: 'action.warSurrender' }, betWords: { tie: 'help.item.tieBet' } },
  };
}

/** What the coup waits for: a card, a burn, the tied seats' decisions one by one, or the box's bettors' all at once. */
function warPending(coup: WarCoup): Pending {
  const e = warExpected(coup);
  switch (e.kind) {
    case 'complete':
      return { kind: 'done' };
    case 'decisions': {
      const seat = e.seats[0] ?? 0;
      return {
        kind: 'decision',
        seat,
        legal: ['war', 'surrender'],
        default: WAR_TIMEOUT_DEFAULT,
        decider: { kind: 'seat' },
      };
    }
    case 'box-decisions':
      // Every remote station on the box that tied decides for its own bet, within one countdown.
      return {
        kind: 'decision',
        seat: STADIUM_SEAT,
        legal: ['war', 'surrender'],
        default: WAR_TIMEOUT_DEFAULT,
        decider: { kind: 'stadium', stations: e.stations.map((station) => ({ station })) },
      };
    case 'burn':
      return { kind: 'card', cue: { kind: 'card', to: 'burn', burnsLeft: e.remaining } };
    case 'card':
      if (e.to === 'croupier') return { kind: 'card', cue: { kind: 'card', to: 'dealer' } };
      return { kind: 'card', cue: { kind: 'card', to: 'seat', seat: e.to === 'box' ? STADIUM_SEAT : e.to } };
  }
}

/** A remote station decides for its own bet on the box; war doubles it from its own credit. */
function decideOnBox(shoe: WarTableShoe, coup: WarCoup, d: DecisionRequest): WarDecided {
  const e = warExpected(coup);
  if (e.kind !== 'box-decisions' || !e.stations.includes(d.station))
    return { ok: false, reason: `station ${d.station} has no decision to make on the box`, refusal: 'no-decision' };
  if (d.action !== 'war' && d.action !== 'surrender')
    return { ok: false, reason: `"${d.action}" is not war or surrender (${WAR_RULES.tieChoice})`, refusal: 'illegal-action' };
  const raise = coup.box?.bettors.find((b) => b.station === d.station)?.bets.main ?? 0;
  if (d.action === 'war' && !d.canAfford(raise)) return { ok: false, reason: 'not enough credit to go to war', refusal: 'over-credit' };
  return {
    ok: true,
    shoe,
    round: warDecideOnBox(coup, d.station, d.action, d.auto === true),
    stakes: d.action === 'war' ? [{ seat: STADIUM_SEAT, bet: 'main', amount: raise }] : [],
    notFollowing: [],
  };
}

/** A tied seat goes to war or surrenders. */
function decideAtSeat(shoe: WarTableShoe, coup: WarCoup, d: DecisionRequest): WarDecided {
  const e = warExpected(coup);
  if (e.kind !== 'decisions' || !e.seats.includes(d.seat)) return { ok: false, reason: `seat ${d.seat} has no decision to make`, refusal: 'no-decision' };
  if (d.action !== 'war' && d.action !== 'surrender')
    return { ok: false, reason: `"${d.action}" is not war or surrender (${WAR_RULES.tieChoice})`, refusal: 'illegal-action' };
  // Going to war doubles the initial bet (Art. 7 n.5): the raise must be covered by credit.
  const raise = coup.seats.find((s) => s.seat === d.seat)?.bets.main ?? 0;
  if (d.action === 'war' && !d.canAfford(raise)) return { ok: false, reason: 'not enough credit to go to war', refusal: 'over-credit' };
  return {
    ok: true,
    shoe,
    round: warDecide(coup, d.seat, d.action, d.auto === true),
    stakes: d.action === 'war' ? [{ seat: d.seat, bet: 'main', amount: raise }] : [],
    notFollowing: [],
  };
}

/** The seats' lines and the box's bettors' (each paid at its own station); the shoe moves past the coup. */
function warSettle({ rules, resolved }: WarTableSetup, s: WarTableShoe, coup: WarCoup): ReturnType<WarGame['round']['settle']> {
  const tied = (seat: number) => {
    const i = coup.seats.findIndex((x) => x.seat === seat);
    const card = coup.cards[i];
    return (coup.seats[i]?.bets.tie ?? 0) > 0 && card !== undefined && coup.croupier !== undefined && warRank(card.rank) === warRank(coup.croupier.rank);
  };
  const lines: GameLine[] = settleWarCoup(coup, rules).map((l) => ({
    ...l,
    ...warMarks(resolved, l, l.bet === 'main' && tied(l.seat)),
    bet: lineBet(l.bet),
  }));
  // The remote stations' bets on the box, each paid at its own station.
  const boxTied = coup.box?.card !== undefined && coup.croupier !== undefined && warRank(coup.box.card.rank) === warRank(coup.croupier.rank);
  for (const { station, line } of settleWarBox(coup, rules, STADIUM_SEAT)) {
    const hasTie = (coup.box?.bettors.find((b) => b.station === station)?.bets.tie ?? 0) > 0;
    lines.push({ ...line, ...warMarks(resolved, line, line.bet === 'main' && boxTied && hasTie), bet: lineBet(line.bet), bettor: station });
  }
  const after = warAfterCoup(s.shoe);
  return { shoe: { shoe: after.shoe, finished: after.next === 'shuffle' }, lines };
}

/** Each seat's card and war card, the stadium box's, and the croupier's cards, the last card's rank as the total. */
function warHands(coup: WarCoup | null): HandView[] {
  if (!coup) return [];
  const out: HandView[] = coup.seats.map((s, i) => {
    const first = coup.cards[i];
    const war = coup.wars[s.seat]?.seatCard;
    const cards = [first, war].filter((c): c is Card => c !== undefined);
    const last = cards.at(-1);
    return { owner: 'seat', seat: s.seat, cards: cards.map(cardCode), total: last ? warRank(last.rank) : null };
  });
  // The stadium box, dealt like a seat after the seats: one card all its bettors share, and its war card.
  const box = coup.box;
  if (box?.card !== undefined) {
    const cards = [box.card, box.war?.seatCard].filter((c): c is Card => c !== undefined);
    const last = cards.at(-1);
    out.push({ owner: 'seat', seat: STADIUM_SEAT, cards: cards.map(cardCode), total: last ? warRank(last.rank) : null });
  }
  const dealer = [coup.croupier, ...Object.values(coup.wars).map((w) => w.croupierCard), box?.war?.croupierCard].filter((c): c is Card => c !== undefined);
  const last = dealer.at(-1);
  out.push({ owner: 'dealer', cards: dealer.map(cardCode), total: last ? warRank(last.rank) : null });
  return out;
}
