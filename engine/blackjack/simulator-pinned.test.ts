// The simulator's results for a seed, pinned: a change to the fast path (speed work above all)
// must give the same totals, bet for bet, for the same seed, hands and shuffle mode, under rule
// sets that reach every branch (side bets and the streak, the 6-7-8 bonus, surrender, five-card
// half pay, dealer-takes-all, splits by rank, burns). The figures were printed by the code before
// issue 54's speed work (commit f7833c9); every result is a multiple of 1/4, so the sums are exact
// whatever the order of the additions. A change that alters the random stream must instead show
// its estimates agree with the exact calculator (simulator.test.ts, cli/sim/blackjack-exact.test.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PLAIN_SIX_DECK } from './plain-game.js';
import { resolveRules, type ProfileId } from './rules.js';
import { FastBlackjack, emptyTotals, type ShuffleMode } from './simulator.js';

const PLAIN = PLAIN_SIX_DECK;
const SEVERAL = { oneSideBetPerPlayer: false, authorisation: 'TEST-DICJ' } as const;
const CASES: Record<string, [ProfileId, Readonly<Record<string, unknown>>]> = {
  plain: ['generic', PLAIN],
  macau: ['macau-2009', {}],
  'macau-all': ['macau-2009', { perfectPairs: true, winningStreak: true, ...SEVERAL }],
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
};

const PINNED: Record<string, unknown> = {
  'plain cut-card': { hands: 60000, sum: -211.5, sumSq: 79774.75, side: {}, streakRounds: [0, 0, 0] },
  'plain every-hand': { hands: 60000, sum: 333.5, sumSq: 79371.25, side: {}, streakRounds: [0, 0, 0] },
  'macau cut-card': {
    hands: 60000,
    sum: -17.5,
    sumSq: 76130.25,
    side: {
      anyPair: { sum: -3585, sumSq: 691965, n: 60000 },
      sevens: { sum: -24900, sumSq: 29967150, n: 60000 },
      over13: { sum: -3774, sumSq: 60000, n: 60000 },
      under13: { sum: -5966, sumSq: 60000, n: 60000 },
    },
    streakRounds: [0, 0, 0],
  },
  'macau every-hand': {
    hands: 60000,
    sum: 602,
    sumSq: 75230.5,
    side: {
      anyPair: { sum: -5115, sumSq: 672243, n: 60000 },
      sevens: { sum: -31256, sumSq: 4419656, n: 60000 },
      over13: { sum: -4044, sumSq: 60000, n: 60000 },
      under13: { sum: -6082, sumSq: 60000, n: 60000 },
    },
    streakRounds: [0, 0, 0],
  },
  'macau-all cut-card': {
    hands: 60000,
    sum: -17.5,
    sumSq: 76130.25,
    side: {
      anyPair: { sum: -3585, sumSq: 691965, n: 60000 },
      sevens: { sum: -24900, sumSq: 29967150, n: 60000 },
      over13: { sum: -3774, sumSq: 60000, n: 60000 },
      under13: { sum: -5966, sumSq: 60000, n: 60000 },
      perfectPairs: { sum: -5565, sumSq: 886725, n: 60000 },
      streak2: { sum: -4643, sumSq: 81947, n: 30411 },
      streak3: { sum: -3582, sumSq: 218214, n: 30411 },
      streak4: { sum: -3982, sumSq: 479704, n: 30411 },
      streak5: { sum: -5022, sumSq: 969804, n: 30411 },
    },
    streakRounds: [29760, 4839, 25401],
  },
  'macau-all every-hand': {
    hands: 60000,
    sum: 602,
    sumSq: 75230.5,
    side: {
      anyPair: { sum: -5115, sumSq: 672243, n: 60000 },
      sevens: { sum: -31256, sumSq: 4419656, n: 60000 },
      over13: { sum: -4044, sumSq: 60000, n: 60000 },
      under13: { sum: -6082, sumSq: 60000, n: 60000 },
      perfectPairs: { sum: -7158, sumSq: 858240, n: 60000 },
      streak2: { sum: -3943, sumSq: 82243, n: 30043 },
      streak3: { sum: -2872, sumSq: 220240, n: 30043 },
      streak4: { sum: -3006, sumSq: 489672, n: 30043 },
      streak5: { sum: -3718, sumSq: 1004068, n: 30043 },
    },
    streakRounds: [29368, 5044, 25588],
  },
  'portugal cut-card': { hands: 60000, sum: -478.5, sumSq: 71779.75, side: {}, streakRounds: [0, 0, 0] },
  'portugal every-hand': { hands: 60000, sum: -3, sumSq: 71409.5, side: {}, streakRounds: [0, 0, 0] },
  'generic-odd cut-card': {
    hands: 60000,
    sum: -84,
    sumSq: 60991,
    side: {
      anyPair: { sum: -4106, sumSq: 659882, n: 60000 },
      sevens: { sum: -30304, sumSq: 5067154, n: 60000 },
      over13: { sum: -3724, sumSq: 60000, n: 60000 },
      under13: { sum: -6022, sumSq: 60000, n: 60000 },
    },
    streakRounds: [0, 0, 0],
  },
  'generic-odd every-hand': {
    hands: 60000,
    sum: 17,
    sumSq: 61054.5,
    side: {
      anyPair: { sum: -5225, sumSq: 656007, n: 60000 },
      sevens: { sum: -20513, sumSq: 55267163, n: 60000 },
      over13: { sum: -3846, sumSq: 60000, n: 60000 },
      under13: { sum: -5990, sumSq: 60000, n: 60000 },
    },
    streakRounds: [0, 0, 0],
  },
  'macau-rank cut-card': {
    hands: 60000,
    sum: 112,
    sumSq: 75048.5,
    side: {
      anyPair: { sum: -4249, sumSq: 667791, n: 60000 },
      sevens: { sum: -29810, sumSq: 5527160, n: 60000 },
      over13: { sum: 12162, sumSq: 60000, n: 60000 },
      under13: { sum: -23568, sumSq: 60000, n: 60000 },
    },
    streakRounds: [0, 0, 0],
  },
  'macau-rank every-hand': {
    hands: 60000,
    sum: 714,
    sumSq: 74412,
    side: {
      anyPair: { sum: -5135, sumSq: 651385, n: 60000 },
      sevens: { sum: -32284, sumSq: 4744684, n: 60000 },
      over13: { sum: 12440, sumSq: 60000, n: 60000 },
      under13: { sum: -23904, sumSq: 60000, n: 60000 },
    },
    streakRounds: [0, 0, 0],
  },
};

describe('blackjack simulator: pinned results for a seed', () => {
  for (const [name, [profile, overrides]] of Object.entries(CASES)) {
    for (const mode of ['cut-card', 'every-hand'] as const satisfies readonly ShuffleMode[]) {
      it(`${name}, ${mode}: seed 7, two runs of 30,000 hands`, () => {
        const sim = new FastBlackjack(resolveRules(profile, overrides), 7);
        const t = emptyTotals();
        sim.run(30_000, mode, t);
        sim.run(30_000, mode, t);
        const side: Record<string, unknown> = {};
        for (const b of sim.sideBetsOffered()) side[b] = t.side[b];
        assert.deepEqual({ hands: t.hands, sum: t.sum, sumSq: t.sumSq, side, streakRounds: Array.from(sim.streakRounds) }, PINNED[`${name} ${mode}`]);
      });
    }
  }
});
