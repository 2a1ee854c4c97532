import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CardParseError, cardCode, parseCard, RANKS, SUITS } from './card.js';
import { freshCards, shuffled, ShoeInventory } from './shoe.js';
import { Rng, seedRng } from '../random/seeded-rng.js';

describe('cards', () => {
  it('parses and formats every card code, strictly (cards/card.test.ts has the rest)', () => {
    for (const r of RANKS) for (const s of SUITS) assert.equal(cardCode(parseCard(`${r}${s}`)), `${r}${s}`);
    assert.throws(() => parseCard('10h'), CardParseError);
  });

  it('refuses what is not a card, naming it', () => {
    for (const bad of ['', 'A', 'AX', '1S', 'ZZ', 'ASS', '11S']) {
      assert.throws(() => parseCard(bad), CardParseError, bad);
    }
  });
});

describe('shoes', () => {
  it('has 52 cards per deck, each exactly `decks` times', () => {
    const cards = freshCards(8);
    assert.equal(cards.length, 416);
    const inv = new ShoeInventory(8);
    for (const c of cards) assert.equal(inv.take(c), true);
    assert.equal(inv.take({ rank: 'A', suit: 'S' }), false, 'a ninth ace of spades breaks an 8-deck inventory');
  });

  it('shuffles deterministically from a seed and keeps the composition', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 1, max: 8 }), (seed, decks) => {
        const a = shuffled(freshCards(decks), Rng.fromSeed(seed)).map(cardCode);
        const b = shuffled(freshCards(decks), Rng.fromSeed(seed)).map(cardCode);
        assert.deepEqual(a, b);
        assert.deepEqual([...a].sort(), freshCards(decks).map(cardCode).sort());
      }),
      { numRuns: 50 },
    );
  });

  it('draws uniformly enough: each of 6 values about 1/6 over 60,000 draws', () => {
    const rng = new Rng(seedRng(42));
    const counts = [0, 0, 0, 0, 0, 0];
    for (let i = 0; i < 60_000; i++) counts[rng.below(6)]!++;
    for (const c of counts) assert.ok(Math.abs(c - 10_000) < 500, `count ${c}`);
  });
});
