import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tableGame } from '../games.js';
import { gameIdentity } from './game-identity.js';

// The identity is journalled (the table's `open` input) and the fold compares it: these texts are
// the ones tables have journalled, pinned so that no rewrite of the helper changes them.
describe('a game identity', () => {
  it("is each game's text as journalled: baccarat and war without empty options, blackjack always with them", () => {
    assert.equal(tableGame('blackjack', 'macau-2009').identity, 'blackjack/macau-2009/[]');
    assert.equal(
      tableGame('blackjack', 'macau-2009', { perfectPairs: true, authorisation: 'TEST-DICJ' }).identity,
      'blackjack/macau-2009/[["authorisation","TEST-DICJ"],["perfectPairs",true]]',
    );
    assert.equal(tableGame('baccarat', 'macau-commission').identity, 'baccarat/macau-commission');
    assert.equal(
      tableGame('baccarat', 'macau-no-commission', { authorisation: 'TEST-DICJ' }).identity,
      'baccarat/macau-no-commission/[["authorisation","TEST-DICJ"]]',
    );
    assert.equal(tableGame('war', 'macau').identity, 'war/macau');
    assert.equal(tableGame('war', 'macau', { authorisation: 'TEST-DICJ' }).identity, 'war/macau/[["authorisation","TEST-DICJ"]]');
  });

  it('sorts the options by name and writes their values as JSON', () => {
    assert.equal(gameIdentity('g', 'p', { b: 2, a: 'x', c: null }, 'omitted'), 'g/p/[["a","x"],["b",2],["c",null]]');
    assert.equal(gameIdentity('g', 'p', {}, 'omitted'), 'g/p');
    assert.equal(gameIdentity('g', 'p', {}, 'written'), 'g/p/[]');
  });
});
