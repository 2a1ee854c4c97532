// The house edge of every bet of every rule profile, from the engine's exact calculators, written
// into terms/house-edges.ts (issue 49: the back office's theoretical win). The upstream may not
// import the engine (layering), so the figures are published as data beside the shared terms;
// tests/engine/house-edges.test.ts holds the table to these same calculators.
//
//   npx tsx scripts/house-edges.ts && npx prettier --write terms/house-edges.ts   # a minute or two
import { writeFileSync } from 'node:fs';
import { exactBaccarat } from '../engine/baccarat/exact.js';
import { BACCARAT_PROFILES } from '../engine/baccarat/profiles.js';
import { exactBlackjack } from '../engine/blackjack/exact/expectation.js';
import { PROFILE_IDS, resolveRules, type ProfileId } from '../engine/blackjack/rules.js';
import { exactSideBetEdges, exactSideBetVariances } from '../engine/blackjack/side-bet-exact.js';
import { exactWar } from '../engine/war/exact.js';
import { WAR_PROFILES } from '../engine/war/profiles.js';

/** House edge in percent of the initial bet, per bet id, of one profile. */
export type ProfileEdges = Record<string, number>;

/** Blackjack's main bet of a profile: its edge and its variance from one run of the exact calculator (seconds; kept). */
const MAIN = new Map<ProfileId, { edge: number; variance: number }>();

/**
 * Blackjack's main bet under basic strategy (the engine's total-dependent strategy: the one a
 * house figures on), its house edge and its variance per unit of the initial bet from the same
 * recursion (engine/blackjack/exact/moments.ts; a split seat's hands correlated through the
 * dealer's outcome, split-moments.ts).
 */
export function blackjackMain(profile: ProfileId): { edge: number; variance: number } {
  let main = MAIN.get(profile);
  if (!main) {
    const s = exactBlackjack(resolveRules(profile), ['total-dependent'], undefined, true).strategies[0];
    if (!s) throw new Error(`no exact figure for blackjack ${profile}`);
    MAIN.set(profile, (main = { edge: s.houseEdge, variance: s.variance }));
  }
  return main;
}

/**
 * Blackjack's main bet (above) and the bets of the first cards (`sevens` as the catalogue figures
 * it, the player splitting 7-7). The streak and jackpot bets have no exact figure here and are left out.
 */
export function blackjackEdges(profile: ProfileId): ProfileEdges {
  const rules = resolveRules(profile);
  const main = blackjackMain(profile);
  const side = exactSideBetEdges(rules.decks, rules.overUnderAceValue);
  const { sevensNoSplit: _notABet, ...bets } = side;
  return { main: main.edge, ...bets };
}

/** Baccarat: every bet of the profile's pay table (its commission or its 50% on six). */
export function baccaratEdges(profile: keyof typeof BACCARAT_PROFILES): ProfileEdges {
  return Object.fromEntries(Object.entries(exactBaccarat(BACCARAT_PROFILES[profile]).bets).map(([bet, e]) => [bet, e.houseEdge]));
}

/** «Desafio ao Casino»: the main bet going to war on every tie (the exact figure; surrendering costs more), and the tie bet. */
export function warEdges(profile: keyof typeof WAR_PROFILES): ProfileEdges {
  const e = exactWar(WAR_PROFILES[profile]);
  return { main: e.bets.main.houseEdge, tie: e.bets.tie.houseEdge };
}

/**
 * The variance of each bet's result per unit of its initial bet (E[X²] − E[X]²), from the same
 * outcome distributions as the edges: every baccarat bet, war's main bet going to war and its tie
 * bet, blackjack's main bet (its second moment through the recursion of its edge) and its bets of
 * the first cards.
 */
export function baccaratVariances(profile: keyof typeof BACCARAT_PROFILES): ProfileEdges {
  return Object.fromEntries(Object.entries(exactBaccarat(BACCARAT_PROFILES[profile]).bets).map(([bet, e]) => [bet, e.variance]));
}

export function warVariances(profile: keyof typeof WAR_PROFILES): ProfileEdges {
  const e = exactWar(WAR_PROFILES[profile]);
  return { main: e.bets.main.variance, tie: e.bets.tie.variance };
}

/** The bets of the first cards alone (closed forms and enumerations: milliseconds). */
export function blackjackSideVariances(profile: ProfileId): ProfileEdges {
  const rules = resolveRules(profile);
  return exactSideBetVariances(rules.decks, rules.overUnderAceValue);
}

export function blackjackVariances(profile: ProfileId): ProfileEdges {
  return { main: blackjackMain(profile).variance, ...blackjackSideVariances(profile) };
}

export function allVariances(): Record<'blackjack' | 'baccarat' | 'war', Record<string, ProfileEdges>> {
  return {
    blackjack: Object.fromEntries(PROFILE_IDS.map((p) => [p, blackjackVariances(p)])),
    baccarat: Object.fromEntries(Object.keys(BACCARAT_PROFILES).map((p) => [p, baccaratVariances(p as keyof typeof BACCARAT_PROFILES)])),
    war: Object.fromEntries(Object.keys(WAR_PROFILES).map((p) => [p, warVariances(p as keyof typeof WAR_PROFILES)])),
  };
}

export function allEdges(): Record<'blackjack' | 'baccarat' | 'war', Record<string, ProfileEdges>> {
  return {
    blackjack: Object.fromEntries(PROFILE_IDS.map((p) => [p, blackjackEdges(p)])),
    baccarat: Object.fromEntries(Object.keys(BACCARAT_PROFILES).map((p) => [p, baccaratEdges(p as keyof typeof BACCARAT_PROFILES)])),
    war: Object.fromEntries(Object.keys(WAR_PROFILES).map((p) => [p, warEdges(p as keyof typeof WAR_PROFILES)])),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const table = allEdges();
  const text = `// Written by scripts/house-edges.ts from the engine's exact calculators: do not edit by hand.
// The house edge of each bet, in percent of the initial bet (positive: the house's advantage), per
// game and rule profile as published (a table's own rule options are not in these figures).
// tests/engine/house-edges.test.ts holds these figures to the calculators.

export const HOUSE_EDGES: Readonly<Record<string, Readonly<Record<string, Readonly<Record<string, number>>>>>> = ${JSON.stringify(table, null, 2)};

/** The house edge (percent of the initial bet) of a bet under a game's profile; null when none is published. */
export function houseEdgeOf(game: string, profile: string, bet: string): number | null {
  return HOUSE_EDGES[game]?.[profile]?.[bet] ?? null;
}

// The variance of each bet's result per unit of its initial bet (E[X²] − E[X]², from the same exact
// outcome distributions as the edges; blackjack's main bet under the strategy of its edge).
export const BET_VARIANCES: Readonly<Record<string, Readonly<Record<string, Readonly<Record<string, number>>>>>> = ${JSON.stringify(allVariances(), null, 2)};

/** The variance per unit of initial bet of a bet under a game's profile; null when none is published. */
export function betVarianceOf(game: string, profile: string, bet: string): number | null {
  return BET_VARIANCES[game]?.[profile]?.[bet] ?? null;
}
`;
  writeFileSync(new URL('../terms/house-edges.ts', import.meta.url), text);
  console.log('terms/house-edges.ts written');
}
