// Written by scripts/house-edges.ts from the engine's exact calculators: do not edit by hand.
// The house edge of each bet, in percent of the initial bet (positive: the house's advantage), per
// game and rule profile as published (a table's own rule options are not in these figures).
// tests/engine/house-edges.test.ts holds these figures to the calculators.

export const HOUSE_EDGES: Readonly<Record<string, Readonly<Record<string, Readonly<Record<string, number>>>>>> = {
  blackjack: {
    'macau-2009': {
      main: -0.5197332639014306,
      anyPair: 11.2540192926045,
      perfectPairs: 9.967845659163999,
      sevens: 34.14902699209307,
      over13: 6.554538708879548,
      under13: 10.06678209250565,
    },
    'macau-2004': {
      main: -0.6392695998436497,
      anyPair: 11.2540192926045,
      perfectPairs: 9.967845659163999,
      sevens: 34.14902699209307,
      over13: 6.554538708879548,
      under13: 10.06678209250565,
    },
    'portugal-2001': {
      main: 0.2024503076093108,
      anyPair: 11.2540192926045,
      perfectPairs: 9.967845659163999,
      sevens: 34.14902699209307,
      over13: 6.554538708879548,
      under13: 10.06678209250565,
    },
    generic: {
      main: -0.5197332639014306,
      anyPair: 11.2540192926045,
      perfectPairs: 9.967845659163999,
      sevens: 34.14902699209307,
      over13: 6.554538708879548,
      under13: 10.06678209250565,
    },
  },
  baccarat: {
    'macau-commission': {
      banker: 1.057905784247204,
      player: 1.2350813289166152,
      tie: 14.35962877872382,
      playerPair: 10.361445783132528,
      bankerPair: 10.361445783132528,
      lucky6: 16.683572040558083,
    },
    'macau-no-commission': {
      banker: 1.4581044639718765,
      player: 1.2350813289166152,
      tie: 14.35962877872382,
      playerPair: 10.361445783132528,
      bankerPair: 10.361445783132528,
      lucky6: 16.683572040558083,
    },
    generic: {
      banker: 1.057905784247204,
      player: 1.2350813289166152,
      tie: 14.35962877872382,
      playerPair: 10.361445783132528,
      bankerPair: 10.361445783132528,
      lucky6: 16.683572040558083,
    },
  },
  war: {
    macau: {
      main: 2.3300568063378204,
      tie: 18.649517684887464,
    },
    generic: {
      main: 2.3300568063378204,
      tie: 18.649517684887464,
    },
  },
};

/** The house edge (percent of the initial bet) of a bet under a game's profile; null when none is published. */
export function houseEdgeOf(game: string, profile: string, bet: string): number | null {
  return ownFigure(HOUSE_EDGES, game, profile, bet);
}

/**
 * A figure of a table by game, profile and bet, own properties only: the names come from a
 * table's journal, and `__proto__` or `constructor` must not reach Object.prototype (a second
 * review: a game named `__proto__` gave the edge "Object" and the report no page could read).
 */
function ownFigure(
  table: Readonly<Record<string, Readonly<Record<string, Readonly<Record<string, number>>>>>>,
  game: string,
  profile: string,
  bet: string,
): number | null {
  const profiles = Object.hasOwn(table, game) ? table[game] : undefined;
  const bets = profiles && Object.hasOwn(profiles, profile) ? profiles[profile] : undefined;
  const figure = bets && Object.hasOwn(bets, bet) ? bets[bet] : undefined;
  return typeof figure === 'number' ? figure : null;
}

// The variance of each bet's result per unit of its initial bet (E[X²] − E[X]², from the same exact
// outcome distributions as the edges; blackjack's main bet under the strategy of its edge).
export const BET_VARIANCES: Readonly<Record<string, Readonly<Record<string, Readonly<Record<string, number>>>>>> = {
  blackjack: {
    'macau-2009': {
      main: 1.2781122406009249,
      anyPair: 9.861932775715978,
      perfectPairs: 14.707106005934891,
      sevens: 532.9482595680896,
      over13: 0.9957038022314061,
      under13: 0.989865989830227,
    },
    'macau-2004': {
      main: 1.2656149028000274,
      anyPair: 9.861932775715978,
      perfectPairs: 14.707106005934891,
      sevens: 532.9482595680896,
      over13: 0.9957038022314061,
      under13: 0.989865989830227,
    },
    'portugal-2001': {
      main: 1.1972730363567028,
      anyPair: 9.861932775715978,
      perfectPairs: 14.707106005934891,
      sevens: 532.9482595680896,
      over13: 0.9957038022314061,
      under13: 0.989865989830227,
    },
    generic: {
      main: 1.2781122406009249,
      anyPair: 9.861932775715978,
      perfectPairs: 14.707106005934891,
      sevens: 532.9482595680896,
      over13: 0.9957038022314061,
      under13: 0.989865989830227,
    },
  },
  baccarat: {
    'macau-commission': {
      banker: 0.8600188668048311,
      player: 0.9046914893874559,
      tie: 6.974206091623057,
      playerPair: 9.95311946581507,
      bankerPair: 9.95311946581507,
      lucky6: 12.928628360246984,
    },
    'macau-no-commission': {
      banker: 0.8642336382202469,
      player: 0.9046914893874559,
      tie: 6.974206091623057,
      playerPair: 9.95311946581507,
      bankerPair: 9.95311946581507,
      lucky6: 12.928628360246984,
    },
    generic: {
      banker: 0.8600188668048311,
      player: 0.9046914893874559,
      tie: 6.974206091623057,
      playerPair: 9.95311946581507,
      bankerPair: 9.95311946581507,
      lucky6: 12.928628360246984,
    },
  },
  war: {
    macau: {
      main: 1.1185957137509903,
      tie: 8.286762957372234,
    },
    generic: {
      main: 1.1185957137509903,
      tie: 8.286762957372234,
    },
  },
};

/** The variance per unit of initial bet of a bet under a game's profile; null when none is published. */
export function betVarianceOf(game: string, profile: string, bet: string): number | null {
  return ownFigure(BET_VARIANCES, game, profile, bet);
}
