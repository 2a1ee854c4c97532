import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CARD_CODES, CardParseError, cardCode, cardLabel, cardOf, isCardCode, isRedSuit, parseCard, RANKS, SUIT_SIGNS, SUITS, type Card } from './card.js';

describe('a card code', () => {
  it('names 52 distinct cards, rank then suit', () => {
    assert.equal(CARD_CODES.length, 52);
    assert.equal(new Set(CARD_CODES).size, 52);
    assert.deepEqual(CARD_CODES.slice(0, 5), ['AS', 'AH', 'AD', 'AC', '2S']);
  });

  it('round-trips every code: parsed to its one frozen value and written back', () => {
    fc.assert(
      fc.property(fc.constantFrom(...CARD_CODES), (code) => {
        const card = parseCard(code);
        assert.equal(cardCode(card), code);
        assert.equal(card, cardOf(code), 'one value per card');
        assert.equal(parseCard(cardCode(card)), card);
        assert.ok(Object.isFrozen(card));
      }),
      { numRuns: 200 },
    );
    for (const rank of RANKS) for (const suit of SUITS) assert.deepEqual(parseCard(`${rank}${suit}`), { rank, suit } satisfies Card);
  });

  it('refuses every string that is not exactly one of the 52 codes, naming it', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 4 }), fc.string({ unit: fc.constantFrom('A', 'T', '1', '0', 'S', 'h', 'X', ' ', 'd'), maxLength: 3 })),
        (s) => {
          fc.pre(!isCardCode(s));
          assert.throws(
            () => parseCard(s),
            (e: unknown) => e instanceof CardParseError && e.input === s && e.message.startsWith(`${JSON.stringify(s)} is not a card code`),
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it('says what is wrong: ten as 10, lower case, spaces, the back, an unknown suit', () => {
    const cases: [string, RegExp][] = [
      ['10H', /3 characters, a code has 2 \(ten is T\)/],
      ['as', /"a" is not a rank \(upper case only\)/],
      ['Ah', /"h" is not a suit \(upper case only\)/],
      [' AS', /3 characters/],
      ['AS ', /3 characters/],
      ['XX', /"X" is not a rank/],
      ['1S', /"1" is not a rank/],
      ['AX', /"X" is not a suit/],
      ['', /0 characters/],
    ];
    for (const [bad, why] of cases) assert.throws(() => parseCard(bad), why, bad);
  });
});

describe('a card as a person reads it', () => {
  it('has one sign a suit, four distinct, and hearts and diamonds red', () => {
    assert.deepEqual(
      SUITS.map((s) => SUIT_SIGNS[s]),
      ['♠', '♥', '♦', '♣'],
    );
    assert.deepEqual(SUITS.filter(isRedSuit), ['H', 'D']);
  });

  it('writes ten as 10 and every other rank as its code, then the sign', () => {
    assert.equal(cardLabel(parseCard('TH')), '10♥');
    assert.equal(cardLabel(parseCard('AS')), 'A♠');
    assert.equal(cardLabel(parseCard('QC')), 'Q♣');
    const labels = CARD_CODES.map((c) => cardLabel(cardOf(c)));
    assert.equal(new Set(labels).size, 52, 'no two cards read alike');
  });
});
