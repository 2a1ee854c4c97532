import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BaccaratGame } from './baccarat.js';
import { BlackjackGame } from './blackjack.js';
import { WarGame } from './war.js';

// The table display announces the last round of the shoe once the reading shoe reports the cut card.
describe('last round of the shoe', () => {
  for (const [name, game] of [
    ['blackjack macau-2009', new BlackjackGame('macau-2009')],
    ['baccarat macau-commission', new BaccaratGame('macau-commission')],
    ['war macau', new WarGame('macau')],
  ] as const) {
    it(`${name}: announced only after the cut card`, () => {
      assert.equal(game.lastRoundOfShoe(), false);
      game.cutCard();
      assert.equal(game.lastRoundOfShoe(), true);
    });
  }
});
