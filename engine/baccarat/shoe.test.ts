import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseCard, type Card } from '../cards/card.js';
import { freshCards, shuffled } from '../cards/shoe.js';
import { Rng } from '../random/seeded-rng.js';
import { baccaratProfile, BURN_FORMULAS } from './profiles.js';
import { burnCount, cutCardOut, newShoeSession, shoeExpected, ShoeFinishedError, shoeTake, voidCoup, type ShoeSession } from './shoe-session.js';
import { coupsOfShoe } from './simulate.js';

const PROFILE = baccaratProfile('macau-commission');
const cards = (s: string): Card[] => s.split(' ').map(parseCard);

describe('baccarat shoe', () => {
  it('burns as many cards as the first card is worth, tens and faces 10', () => {
    assert.deepEqual(
      ['AS', '5H', '9D', 'TS', 'JH', 'QD', 'KC'].map((c) => burnCount(parseCard(c))),
      [1, 5, 9, 10, 10, 10, 10],
    );
    let s = newShoeSession(PROFILE);
    assert.deepEqual(shoeExpected(s), { kind: 'burn-indicator' });
    s = shoeTake(s, parseCard('3C')).session;
    assert.deepEqual(shoeExpected(s), { kind: 'burn', remaining: 3 });
    for (const c of cards('KS KH KD')) s = shoeTake(s, c).session;
    assert.equal(s.burned.length, 4);
    assert.deepEqual(shoeExpected(s), { kind: 'card', to: 'player', position: 1 });
  });

  it("Art. 2 n.1's other formulas: as many cards as the decks, or the house's fixed number; none with a shuffler-dealer (n.3)", () => {
    // No card is turned: the count is known before the first card.
    let s = newShoeSession({ ...PROFILE, burn: 'decks', decks: 6 });
    assert.deepEqual(shoeExpected(s), { kind: 'burn', remaining: 6 });
    for (const c of cards('KS KH KD 2C 3C 4C')) s = shoeTake(s, c).session;
    assert.equal(s.burned.length, 6);
    assert.deepEqual(shoeExpected(s), { kind: 'card', to: 'player', position: 1 });
    s = newShoeSession({ ...PROFILE, burn: 'fixed', burnFixedCards: 3 });
    assert.deepEqual(shoeExpected(s), { kind: 'burn', remaining: 3 });
    for (const c of cards('9S 9H 9D')) s = shoeTake(s, c).session;
    assert.deepEqual(shoeExpected(s), { kind: 'card', to: 'player', position: 1 });
    assert.deepEqual(shoeExpected(newShoeSession({ ...PROFILE, burn: 'none' })), { kind: 'card', to: 'player', position: 1 });
    // The simulator's loop voids as many.
    const shoe = cards('KS KH KD 2C 3C 4C 9S 9H 9D 5C 5D 5H 5S 6C 6D 6H 6S');
    const firstDealt = (burn: 'decks' | 'fixed' | 'none') =>
      coupsOfShoe(shoe, { ...PROFILE, burn, decks: 6, burnFixedCards: 3, cutCardFromEnd: 6, coupsAfterCutCard: 0 })[0]?.player[0];
    assert.deepEqual([firstDealt('decks'), firstDealt('fixed'), firstDealt('none')], cards('9S 2C KS'));
  });

  it('Art. 3 n.1: with no coup after the cut card, the coup it comes out in is the last', () => {
    let s: ShoeSession = newShoeSession({ burn: 'none', coupsAfterCutCard: 0, decks: 8, burnFixedCards: 8 });
    for (const c of cards('2S 3H')) s = shoeTake(s, c).session;
    s = cutCardOut(s);
    for (const c of cards('4D 4C')) s = shoeTake(s, c).session;
    assert.equal(s.results.length, 1);
    assert.deepEqual(shoeExpected(s), { kind: 'shoe-finished' });
  });

  it('after the cut card finishes the coup in progress and deals one more', () => {
    let s: ShoeSession = newShoeSession({ burn: 'none', coupsAfterCutCard: 1, decks: 8, burnFixedCards: 8 });
    const take = (codes: string): void => {
      for (const c of cards(codes)) s = shoeTake(s, c).session;
    };
    take('9S KH'); // P1 B1 of the first coup
    s = cutCardOut(s);
    take('KD KC'); // player natural 9: coup over
    assert.equal(s.results.length, 1);
    assert.deepEqual(shoeExpected(s), { kind: 'card', to: 'player', position: 1 });
    take('8S KH KD KC');
    assert.equal(s.results.length, 2);
    assert.deepEqual(shoeExpected(s), { kind: 'shoe-finished' });
    assert.throws(() => shoeTake(s, parseCard('AS')), ShoeFinishedError);
  });

  it('a cut card between coups makes the next coup the current one', () => {
    let s: ShoeSession = newShoeSession({ burn: 'none', coupsAfterCutCard: 0, decks: 8, burnFixedCards: 8 });
    for (const c of cards('9S KH KD KC')) s = shoeTake(s, c).session;
    s = cutCardOut(cutCardOut(s));
    for (const c of cards('9S KH KD KC')) s = shoeTake(s, c).session;
    assert.equal(s.results.length, 2);
    assert.deepEqual(shoeExpected(s), { kind: 'shoe-finished' });
  });

  it('property: the card-by-card session and the simulator loop play the same coups from a shuffled shoe', () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.integer({ min: 1, max: 8 }),
        fc.constantFrom(...BURN_FORMULAS),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 0, max: 1 }),
        (seed, decks, burn, burnFixedCards, coupsAfterCutCard) => {
          const profile = { ...PROFILE, decks, burn, burnFixedCards, coupsAfterCutCard };
          const shoe = shuffled(freshCards(decks), Rng.fromSeed(seed));
          const fast = coupsOfShoe(shoe, profile);
          let s = newShoeSession(profile);
          let i = 0;
          const cutAt = shoe.length - profile.cutCardFromEnd;
          while (shoeExpected(s).kind !== 'shoe-finished') {
            if (i === cutAt) s = cutCardOut(s);
            s = shoeTake(s, shoe[i++] as Card).session;
          }
          assert.deepEqual(s.results, fast);
          assert.ok(i <= shoe.length);
          assert.ok(i > cutAt, 'the shoe is dealt past the cut card');
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('a voided coup', () => {
  it('leaves its cards out of the next coup, and no coup of the shoe is used up by it', () => {
    let s: ShoeSession = cutCardOut(newShoeSession({ burn: 'none', coupsAfterCutCard: 1, decks: 8, burnFixedCards: 8 }));
    for (const c of cards('9S 8H')) s = shoeTake(s, c).session;
    assert.deepEqual(shoeExpected(s), { kind: 'card', to: 'player', position: 2 });
    s = voidCoup(s);
    assert.deepEqual(shoeExpected(s), { kind: 'card', to: 'player', position: 1 }, 'the next coup starts at its first card');
    assert.equal(s.coupsLeft, 2, 'the coup after the cut card and the one more are still to deal');
    assert.equal(s.results.length, 0, 'a void coup is no result (nor a road mark)');
    assert.equal(voidCoup(s), s, 'nothing in progress: unchanged');
  });
});
