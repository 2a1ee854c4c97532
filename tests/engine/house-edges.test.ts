// The published house edges (terms/house-edges.ts), which the back office's theoretical win reads
// because the upstream may not import the engine, are the engine's exact calculators' own figures:
// every baccarat and war profile and every blackjack bet of the first cards in full; blackjack's
// main bet for the Macau 2009 profile (each costs seconds; scripts/house-edges.ts rewrites them all).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BACCARAT_PROFILES } from '../../engine/baccarat/profiles.js';
import { PROFILE_IDS } from '../../engine/blackjack/rules.js';
import { WAR_PROFILES } from '../../engine/war/profiles.js';
import { baccaratEdges, blackjackEdges, warEdges } from '../../scripts/house-edges.js';
import { HOUSE_EDGES, houseEdgeOf } from '../../terms/house-edges.js';

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
