// The round as one step per move (issue 32 item 2): a move reads the state it is given, never
// the log before it, never changes that state, and copies every field of a seat it changes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../cards/card.js';
import { freshCards, shuffled } from '../cards/shoe.js';
import { Rng } from '../random/seeded-rng.js';
import { cloneSeat } from './round-procedure.js';
import { stepRound } from './round-step.js';
import { openRound, type Action, type RoundEvent, type RoundState, type Seat } from './round.js';
import { resolveRules } from './rules.js';

const rules = resolveRules('generic', { oneSideBetPerPlayer: false, evenMoney: 'vs-ace', surrender: 'late', maxHands: 4 });

/** Freezes a state and everything in it: a move that changed it would throw (ES modules are strict). */
function deepFreeze<T>(value: T, seen = new Set<object>()): T {
  if (typeof value === 'object' && value !== null && !seen.has(value)) {
    seen.add(value);
    for (const v of Object.values(value)) deepFreeze(v, seen);
    Object.freeze(value);
  }
  return value;
}

/** Seeded rounds of three seats with bets behind and side bets, every legal choice taken in turn, with a discard and a held card now and then. */
function* moves(seed: number): Generator<{ before: RoundState; event: RoundEvent }> {
  const shoe = shuffled(freshCards(rules.decks), Rng.fromSeed(seed));
  const seats = [1, 3, 5].map((seat) => ({
    seat,
    bets: { main: 200, anyPair: 100, sevens: 100 },
    behind: seat === 3 ? [{ owner: 'b', main: 400 }] : [],
  }));
  let r = deepFreeze(openRound({ rules, seats }));
  let ci = 0;
  let k = seed;
  for (let n = 0; !r.done && n < 200; n++) {
    const x = r.expected;
    let event: RoundEvent;
    if (x.kind === 'card') {
      const card = shoe[ci++];
      if (!card) return;
      event = n % 11 === 5 ? { discard: card, why: 'exposed card' } : n % 13 === 7 ? { held: card } : { card };
    } else if (x.kind === 'decision') {
      const type = x.legal[k++ % x.legal.length];
      if (type === undefined) return;
      const action: Action = type === 'insurance' ? { type, amount: x.insurance?.min ?? 1 } : { type };
      event = { action };
    } else return;
    yield { before: r, event };
    r = deepFreeze(stepRound(r, event));
  }
}

describe('a blackjack round step', () => {
  it('never changes the state it is given (every state deep-frozen over 60 seeded rounds)', () => {
    let steps = 0;
    for (let seed = 1; seed <= 60; seed++) for (const _ of moves(seed)) steps++;
    assert.ok(steps > 600, `the rounds moved (${steps} moves)`);
  });

  it('reads the state, not the log: a state with its log emptied takes the move alike', () => {
    // Before this step the round replayed its log at every move: with the log emptied, a move
    // started from the round's opening and gave another round (or a refusal).
    let compared = 0;
    for (let seed = 1; seed <= 30; seed++) {
      for (const { before, event } of moves(seed)) {
        if (before.log.length === 0) continue;
        const a = stepRound(before, event);
        const b = stepRound({ ...before, log: [] }, event);
        assert.deepEqual(b.expected, a.expected);
        assert.deepEqual(b.lines, a.lines);
        assert.deepEqual(b.hands, a.hands);
        assert.deepEqual(b.procedure, a.procedure);
        compared++;
      }
    }
    assert.ok(compared > 300, `moves compared: ${compared}`);
  });

  it('a refused move throws and leaves the state as it was', () => {
    const r = deepFreeze(openRound({ rules, seats: [{ seat: 2, bets: { main: 100 } }] }));
    assert.throws(() => stepRound(r, { action: { type: 'stand' } }), /while a card is expected/);
    const twoAces = stepRound(stepRound(r, { card: parseCard('AS') }), { card: parseCard('AS') });
    // A one-deck copy of the ace of spades twice more is one too many.
    const oneDeck = resolveRules('generic', { decks: 1, cutCardFromEnd: 20 });
    const r1 = deepFreeze(openRound({ rules: oneDeck, seats: [{ seat: 2, bets: { main: 100 } }] }));
    const once = deepFreeze(stepRound(r1, { card: parseCard('AS') }));
    assert.throws(() => stepRound(once, { card: parseCard('AS') }), /impossible/);
    assert.deepEqual(once.out, { AS: 1 });
    assert.equal(twoAces.out.AS, 2);
  });

  it('copies every field of a seat it changes, optional ones included, sharing none of its lists', () => {
    const seat: Seat = {
      entry: { seat: 4, bets: { main: 100 } },
      seat: 4,
      owner: 'seat:4',
      decider: 'seat:4',
      hands: [
        {
          seat: 4,
          cards: [parseCard('8S'), parseCard('3D')],
          stakes: [{ owner: undefined, stake: 200, base: 100, followSplit: true, followDouble: true, stayedOutSplit: false, stayedOutDouble: true }],
          fromSplit: true,
          splitAces: false,
          doubled: true,
          aceLocked: true,
          status: 'settled',
          acted: true,
          fiveOffered: true,
          bonusDone: true,
          outcome: 'win',
        },
      ],
      insurance: 50,
      behindInsurance: [['b', 25]],
      declinedResplit: true,
      surrendered: false,
      firstTwo: [parseCard('8S'), parseCard('8H')],
      afterSplit: parseCard('3D'),
      awaitingAfterSplit: false,
      splitPairs: [1],
      dealt: [parseCard('8S'), parseCard('8H'), parseCard('3D')],
      streak: { bets: { '2': 100 }, wins: 1, carried: true },
    };
    const copy = cloneSeat(seat);
    assert.deepEqual(copy, seat);
    assert.notEqual(copy.hands, seat.hands);
    assert.notEqual(copy.hands[0], seat.hands[0]);
    assert.notEqual(copy.hands[0]?.cards, seat.hands[0]?.cards);
    assert.notEqual(copy.hands[0]?.stakes[0], seat.hands[0]?.stakes[0]);
    assert.notEqual(copy.behindInsurance, seat.behindInsurance);
    assert.notEqual(copy.firstTwo, seat.firstTwo);
    assert.notEqual(copy.splitPairs, seat.splitPairs);
    assert.notEqual(copy.dealt, seat.dealt);
    assert.notEqual(copy.streak?.bets, seat.streak?.bets);
  });
});
