// The simulator's automata (simulator-automaton.ts, played by simulator-rounds.ts) against its
// reference path (`fastPath = false`: every round through `round`), round by round and in both
// shuffle modes: the same seed must give the same main result in every round, the same side-bet
// totals and the same shoe position at the end, under rule sets that reach every branch of the automata and of the
// fallback (splits, the 6-7-8 bonus in addition and replacing, surrender, five-card half pay,
// doubles with the ace locked, dealer-takes-all, hole card peeked and not, burns, a cut card
// near the shoe's end). A round played differently shifts every later card, so a difference
// shows at once.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PLAIN_SIX_DECK } from './plain-game.js';
import { resolveRules, type ProfileId } from './rules.js';
import { FastBlackjack, emptyTotals } from './simulator.js';
import { P_FALLBACK, SimAutomaton } from './simulator-automaton.js';
import { SimTables } from './simulator-tables.js';

const SEVERAL = { oneSideBetPerPlayer: false, authorisation: 'TEST-DICJ' } as const;
const CASES: Record<string, [ProfileId, Readonly<Record<string, unknown>>]> = {
  plain: ['generic', PLAIN_SIX_DECK],
  macau: ['macau-2009', {}],
  'macau-pp': ['macau-2009', { perfectPairs: true, ...SEVERAL }],
  portugal: ['portugal-2001', {}],
  'generic-odd': [
    'generic',
    {
      dealerBlackjackTakes: 'all',
      doubleOn: 'eleven',
      bonus678: 'in-addition',
      maxHands: 2,
      surrender: 'late',
      dealerSoft17: 'hit',
      oneSideBetPerPlayer: false,
    },
  ],
  'macau-rank': [
    'macau-2009',
    { splitPairsBy: 'rank', resplitAces: false, resplit: false, burnEachRound: true, burnBeforeDealerSecond: true, overUnderAceValue: 11, ...SEVERAL },
  ],
  'no-peek, short cut': ['generic', { dealProcedure: 'macau-1', holeCard: 'no-peek', cutCardFromEnd: 10, dealerDrawsWhenAllLost: true, decks: 1 }],
  'eleven only': ['macau-2009', { doubleOn: 'eleven', elevenDoubleOriginalOnly: true, ...SEVERAL }],
};

const HANDS = 10_000;

describe('blackjack simulator: the automata play every round as the reference path', () => {
  for (const [name, [profile, overrides]] of Object.entries(CASES)) {
    it(`${name}: seeds 1-2, ${HANDS} rounds each, round by round, cut card and every hand`, () => {
      const rules = resolveRules(profile, overrides);
      const tables = new SimTables(rules);
      for (const [seed, mode] of [
        [1, 'cut-card'],
        [2, 'cut-card'],
        [1, 'every-hand'],
        [2, 'every-hand'],
      ] as const) {
        const runs = [true, false].map((fast) => {
          const sim = new FastBlackjack(rules, seed, tables);
          sim.fastPath = fast;
          sim.trace = new Float64Array(HANDS);
          const t = emptyTotals();
          sim.run(HANDS, mode, t);
          return { trace: sim.trace, totals: t, pos: sim.pos };
        });
        const [fast, ref] = runs as [(typeof runs)[0], (typeof runs)[0]];
        const at = fast.trace.findIndex((x, i) => x !== ref.trace[i]);
        assert.equal(at, -1, `seed ${seed}, ${mode}: round ${at} gave ${fast.trace[at]} by the automata, ${ref.trace[at]} by the reference path`);
        assert.deepEqual(fast.totals, ref.totals);
        assert.equal(fast.pos, ref.pos);
      }
    });
  }

  it('the automata play all but about one round in forty of the plain game (its splits), doubled hands included', () => {
    const sim = new FastBlackjack(resolveRules('generic', PLAIN_SIX_DECK), 3);
    sim.run(100_000, 'cut-card', emptyTotals());
    // Basic strategy splits about 2.5% of rounds and doubles about 10%: a doubled hand sent back would show here.
    assert.ok(sim.replayed > 1_000 && sim.replayed < 3_500, `${sim.replayed} of 100,000 rounds replayed`);
  });

  it('the automata leave splits and a possible 6-7-8 to the reference path, and play the rest', () => {
    const auto = new SimAutomaton(new SimTables(resolveRules('macau-2009')));
    const id = (rank: number, suit: number) => rank * 4 + suit;
    const startOf = (a: number, b: number, up: number) => auto.start[up * 64 + (auto.pairClass[a * 52 + b] as number)] as number;
    // Two eights against a six: split (basic strategy), so left to the reference path.
    assert.equal(startOf(id(7, 0), id(7, 1), 6), ~P_FALLBACK);
    // A 6 and a 7 of one suit may make the bonus; of two suits they may not.
    assert.equal(startOf(id(5, 0), id(6, 0), 10), ~P_FALLBACK);
    assert.notEqual(startOf(id(5, 0), id(6, 1), 10), ~P_FALLBACK);
  });
});
