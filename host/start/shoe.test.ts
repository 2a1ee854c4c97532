// A simulated dealer places its shoe's cut card so that its last coup always fits behind it: at a
// war table a coup with two hands at war needs more than the cards behind a cut 16 from the end,
// and a simulated dealer that ran out loaded a new shoe into the coup (an inventory hold no one
// resolves; a war soak stopped so, 29 November). A live dealer places the cut: docs/rules/war.md.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { baccaratTableGame } from '../../engine/baccarat/table-game.js';
import { longestWarCoup } from '../../engine/war/coup.js';
import { warTableGame } from '../../engine/war/table-game.js';
import { simulatedCutCardAt } from './shoe.js';

describe("a simulated shoe's cut card", () => {
  it('at a war table leaves room for every hand at war: the seats and the box', () => {
    const war = warTableGame('macau');
    const cut = simulatedCutCardAt(war, 6);
    assert.equal(cut, 6 * 52 - longestWarCoup(6, 3), 'five seats and the box, each at war');
    assert.ok(6 * 52 - (cut ?? 0) >= 16, 'never nearer the end than the default');
  });

  it('never before the first card, in a shoe smaller than one coup', () => {
    const oneDeck = warTableGame('macau', { decks: 1 });
    assert.ok(longestWarCoup(6, 3) > 52);
    assert.equal(simulatedCutCardAt(oneDeck, 6), 1);
  });

  it('elsewhere stays where the simulator puts it (16 cards from the end): a coup never needs more', () => {
    assert.equal(simulatedCutCardAt(baccaratTableGame('macau-commission'), 5), undefined);
  });
});
