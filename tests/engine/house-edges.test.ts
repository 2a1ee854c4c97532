// The published house edges (terms/house-edges.ts), which the back office's theoretical win reads
// because the upstream may not import the engine, are the engine's exact calculators' own figures:
// every baccarat and war profile and every blackjack bet of the first cards in full; blackjack's
// main bet, its edge and its variance from one run, for the Macau 2009 profile (each costs seconds;
// scripts/house-edges.ts rewrites them all; engine/blackjack/exact/moments.test.ts holds the
// variance to the simulator and to published figures).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BACCARAT_PROFILES } from '../../engine/baccarat/profiles.js';
import { PROFILE_IDS } from '../../engine/blackjack/rules.js';
import { WAR_PROFILES } from '../../engine/war/profiles.js';
import { BLACKJACK_CATALOGUE } from '../../engine/blackjack/bets/catalogue.js';
import { resolveRules } from '../../engine/blackjack/rules.js';
import { enumeratedMoments, exactSideBetEdges } from '../../engine/blackjack/side-bet-exact.js';
import {
  baccaratEdges,
  baccaratVariances,
  blackjackEdges,
  blackjackSideVariances,
  blackjackVariances,
  warEdges,
  warVariances,
} from '../../scripts/house-edges.js';
import { BET_VARIANCES, betVarianceOf, HOUSE_EDGES, houseEdgeOf } from '../../terms/house-edges.js';

describe('the published house edges are the exact calculators’', () => {
  it('baccarat and war, every profile and bet', () => {
    assert.deepEqual(Object.keys(HOUSE_EDGES.baccarat ?? {}).sort(), Object.keys(BACCARAT_PROFILES).sort());
    for (const p of Object.keys(BACCARAT_PROFILES)) assert.deepEqual(HOUSE_EDGES.baccarat?.[p], baccaratEdges(p as keyof typeof BACCARAT_PROFILES), p);
    assert.deepEqual(Object.keys(HOUSE_EDGES.war ?? {}).sort(), Object.keys(WAR_PROFILES).sort());
    for (const p of Object.keys(WAR_PROFILES)) assert.deepEqual(HOUSE_EDGES.war?.[p], warEdges(p as keyof typeof WAR_PROFILES), p);
  });

  it('blackjack: every profile listed, and Macau 2009 in full (main bet under basic strategy, bets of the first cards)', () => {
    assert.deepEqual(Object.keys(HOUSE_EDGES.blackjack ?? {}).sort(), [...PROFILE_IDS].sort());
    assert.deepEqual(HOUSE_EDGES.blackjack?.['macau-2009'], blackjackEdges('macau-2009'));
  });

  it('answers null for a bet or profile with no published figure', () => {
    assert.equal(houseEdgeOf('blackjack', 'macau-2009', 'streak3'), null);
    assert.equal(houseEdgeOf('baccarat', 'nowhere', 'banker'), null);
    assert.ok((houseEdgeOf('baccarat', 'macau-commission', 'banker') ?? 0) > 1, 'banker with 5% commission: about 1.06%');
  });
});

describe('the published variances per unit of initial bet are the exact calculators’', () => {
  it('baccarat and war every profile and bet, blackjack’s bets of the first cards every profile, its main bet for Macau 2009', () => {
    for (const p of Object.keys(BACCARAT_PROFILES)) assert.deepEqual(BET_VARIANCES.baccarat?.[p], baccaratVariances(p as keyof typeof BACCARAT_PROFILES), p);
    for (const p of Object.keys(WAR_PROFILES)) assert.deepEqual(BET_VARIANCES.war?.[p], warVariances(p as keyof typeof WAR_PROFILES), p);
    for (const p of PROFILE_IDS) {
      const { main, ...side } = BET_VARIANCES.blackjack?.[p] ?? {};
      assert.deepEqual(side, blackjackSideVariances(p), p);
      assert.ok(main !== undefined && main > 1 && main < 1.5, `${p} main ${main}`);
    }
    // The same run as the edge's (scripts/house-edges.ts keeps it): the edge above is its E[X].
    assert.deepEqual(BET_VARIANCES.blackjack?.['macau-2009'], blackjackVariances('macau-2009'));
  });

  it('every bet with a published edge has a published variance (the back office draws a band for each)', () => {
    for (const [game, profiles] of Object.entries(HOUSE_EDGES))
      for (const [profile, bets] of Object.entries(profiles))
        for (const bet of Object.keys(bets)) assert.ok((betVarianceOf(game, profile, bet) ?? 0) > 0, `${game} ${profile} ${bet}`);
  });

  it('baccarat’s standard deviations as the Wizard of Odds publishes them (8 decks, 5% commission, tie 8:1), to their two places', () => {
    // https://wizardofodds.com/gambling/house-edge/ (the table "House Edge", column "Standard
    // Deviation"): Baccarat Banker 0.93, Player 0.95, Tie 2.64.
    const sd = (bet: string): number => Math.sqrt(betVarianceOf('baccarat', 'macau-commission', bet) ?? Number.NaN);
    assert.ok(Math.abs(sd('banker') - 0.93) < 0.005, `banker ${sd('banker')}`);
    assert.ok(Math.abs(sd('player') - 0.95) < 0.005, `player ${sd('player')}`);
    assert.ok(Math.abs(sd('tie') - 2.64) < 0.005, `tie ${sd('tie')}`);
  });

  it('the enumeration the variances of the first cards come from gives back each bet’s published closed-form edge', () => {
    const rules = resolveRules('macau-2009');
    const edges = exactSideBetEdges(rules.decks, rules.overUnderAceValue);
    for (const bet of BLACKJACK_CATALOGUE) {
      if (bet.family !== 'first-cards' || bet.id === 'sevens') continue;
      const m = enumeratedMoments(bet, rules.decks, { ...rules, overUnderAceValue: rules.overUnderAceValue });
      assert.ok(Math.abs(-100 * m.ev - (edges[bet.id] ?? Number.NaN)) < 1e-9, bet.id);
      assert.ok(m.square >= m.ev * m.ev, bet.id);
    }
  });
});
