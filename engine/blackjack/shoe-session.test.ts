import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../cards/card.js';
import { Rng } from '../random/seeded-rng.js';
import { dealCard, dealerView, decideRound, discardCard, holdUnseen, openRound, replayRound, voidRound } from './round.js';
import { resolveRules } from './rules.js';
import {
  cardsToCut,
  cutCardFromEnd,
  cutCardOut,
  drawShoe,
  isLastRound,
  NEW_SHOE,
  roundEnded,
  shoeCardOut,
  shoeNext,
  shuffledShoe,
  type ShoeState,
} from './shoe-session.js';

describe('the shoe between rounds (Macau Art. 2, 4; Portugal rules 8–11, 51–61)', () => {
  it('Macau art.4 n.1: burns as many cards as decks at the start of a shoe, then deals rounds', () => {
    const rules = resolveRules('macau-2009');
    assert.equal(shoeNext(NEW_SHOE).kind, 'shuffle');
    let shoe = shuffledShoe(rules, 3, Rng.fromSeed(1));
    assert.deepEqual(shoeNext(shoe), { kind: 'burn', count: 6, why: 'burn at the start of the shoe (art.4 n.1 / rule 10)' });
    for (let i = 0; i < 6; i++) shoe = drawShoe(rules, shoe).shoe;
    assert.deepEqual(shoeNext(shoe), { kind: 'round', firstRoundOfShoe: true, lastRound: false });
    assert.equal(cardsToCut(shoe), 312 - 60 - 6);
  });

  it('Portugal rules 9–11: one burn; the carta-aviso near the 50th card from the end, the middle with one player; its round is the last', () => {
    const rules = resolveRules('portugal-2001');
    assert.equal(cutCardFromEnd(rules, 1), 156);
    assert.equal(cutCardFromEnd(rules, 4), 50);
    let shoe = shuffledShoe(rules, 4, Rng.fromSeed(2));
    assert.deepEqual(shoeNext(shoe), { kind: 'burn', count: 1, why: 'burn at the start of the shoe (art.4 n.1 / rule 10)' });
    shoe = drawShoe(rules, shoe).shoe;
    // Deal rounds of ten cards until the carta-aviso shows.
    let rounds = 0;
    while (!isLastRound(rules, shoe)) {
      assert.equal(shoeNext(shoe).kind, 'round');
      for (let i = 0; i < 10; i++) shoe = drawShoe(rules, shoe).shoe;
      if (!isLastRound(rules, shoe)) shoe = roundEnded(rules, shoe);
      rounds++;
    }
    // Card 262 (index 261 = 312 - 50 - 1) came out in this round: it is the last.
    assert.equal(rounds, 27);
    shoe = roundEnded(rules, shoe);
    assert.equal(shoeNext(shoe).kind, 'shuffle');
  });

  it('rule 11: a carta-aviso that shows just before a round still lets that round be played', () => {
    const rules = resolveRules('portugal-2001');
    const out = (s: ShoeState | null): ShoeState => {
      assert.ok(s, 'the card is taken');
      return s;
    };
    let shoe = cutCardOut(out(shoeCardOut(rules, shuffledShoe(rules, 4), parseCard('2C'))));
    assert.deepEqual(shoeNext(shoe), { kind: 'round', firstRoundOfShoe: true, lastRound: true });
    shoe = roundEnded(rules, shoe);
    assert.equal(shoeNext(shoe).kind, 'shuffle');
  });

  it('continuous shuffler (rules 56–60; Macau art.2 n.2 (4)): no cut card, cards return after each round', () => {
    const rules = resolveRules('portugal-2001', { shuffler: 'continuous' });
    assert.equal(cutCardFromEnd(rules, 3), undefined);
    let shoe: ShoeState | null = shoeCardOut(rules, shuffledShoe(rules, 3), parseCard('AS'));
    for (let i = 0; i < 6; i++) {
      shoe = shoe && shoeCardOut(rules, shoe, parseCard('KD'));
      assert.notEqual(shoe, null);
    }
    assert.ok(shoe);
    assert.equal(shoeCardOut(rules, shoe, parseCard('KD')), null, 'a seventh KD in six decks breaks the inventory');
    assert.notEqual(shoeCardOut(rules, roundEnded(rules, shoe), parseCard('KD')), null, 'the cards went back into the shuffler');
  });

  it('art.2 n.2 (2): the dealer may shuffle after any round', () => {
    const rules = resolveRules('macau-2009', { burnAtShoeStart: 'one', authorisation: 'TEST-DICJ' });
    const shoe = drawShoe(rules, shuffledShoe(rules, 2, Rng.fromSeed(3))).shoe;
    assert.equal(shoeNext(roundEnded(rules, shoe, { dealerWantsShuffle: true })).kind, 'shuffle');
  });

  it('Portugal rule 12: play interrupted, the dealer may end the shoe before the carta-aviso; otherwise the next round is dealt from it', () => {
    const rules = resolveRules('portugal-2001');
    const shoe = drawShoe(rules, shuffledShoe(rules, 2, Rng.fromSeed(3))).shoe;
    assert.equal(shoeNext(roundEnded(rules, shoe, { dealerWantsShuffle: true })).kind, 'shuffle');
    assert.notEqual(shoeNext(roundEnded(rules, shoe, {})).kind, 'shuffle', 'without the dealer asking, the shoe goes on');
  });
});

describe('corrections during a round (Art. 5 n.1)', () => {
  it('an exposed card is discarded and the round still expects a card for the same place', () => {
    let round = openRound({ rules: resolveRules('macau-2009'), seats: [{ seat: 1, bets: { main: 100 } }] });
    round = dealCard(round, parseCard('TS'));
    const before = round.expected;
    round = discardCard(round, parseCard('5H'), 'exposed (art.5 n.1 (1))');
    assert.deepEqual(round.expected, before);
    assert.deepEqual(round.discards, [{ card: parseCard('5H'), why: 'exposed (art.5 n.1 (1))' }]);
  });

  it('rule 18: an unseen card drawn by mistake goes to the next player who asks, else to the dealer', () => {
    const rules = resolveRules('portugal-2001');
    let round = openRound({
      rules,
      seats: [
        { seat: 1, bets: { main: 100 } },
        { seat: 2, bets: { main: 100 } },
      ],
    });
    for (const c of ['TS', '9D', '6H', '8C', '9S', 'TH']) round = dealCard(round, parseCard(c));
    // Seat 1 (T-8 = 18) said "stand" but the dealer drew a card: it is held, unseen.
    round = holdUnseen(round, parseCard('3C'));
    round = decideRound(round, { type: 'stand' });
    // Seat 2 (9-9) hits: the held 3 is its card (21, the hand ends).
    round = decideRound(round, { type: 'hit' });
    assert.deepEqual(
      round.hands.map((h) => h.cards),
      [
        ['TS', '8C'],
        ['9D', '9S', '3C'],
      ],
    );
    // With no player left to ask, a held card is the dealer's (6, T = 16 draws it).
    round = holdUnseen(round, parseCard('AC'));
    assert.equal(round.done, true);
    assert.deepEqual(dealerView(round).cards, ['6H', 'TH', 'AC']);
    const again = replayRound(
      {
        rules,
        seats: [
          { seat: 1, bets: { main: 100 } },
          { seat: 2, bets: { main: 100 } },
        ],
      },
      round.log,
    );
    assert.deepEqual(again.lines, round.lines);
  });

  it('art.5 n.1 2): a void round returns every bet, even those already settled', () => {
    let round = openRound({
      rules: resolveRules('macau-2009'),
      seats: [
        { seat: 1, bets: { main: 100, anyPair: 10 } },
        { seat: 2, bets: { main: 50 } },
      ],
    });
    for (const c of ['AS', '9D', '7H', 'KC', '9C']) round = dealCard(round, parseCard(c));
    assert.equal(round.lines.length, 1, 'the Black Jack was paid at once');
    round = voidRound(round, 'misdeal', true); // an error in dealing that cannot be rectified
    assert.equal(round.done, true);
    assert.deepEqual(
      round.lines.map((l) => [l.seat, l.bet, l.stake, l.net]),
      [
        [1, 'main', 100, 0],
        [1, 'anyPair', 10, 0],
        [2, 'main', 50, 0],
      ],
    );
    assert.match(round.lines[0]!.rule, /^macau-2009 art\.5 n\.1 2\)/);
  });
});
