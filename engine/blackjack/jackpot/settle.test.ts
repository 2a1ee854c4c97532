import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isCardCode, parseCard, type Card } from '../../cards/card.js';
import { dealCard, decideRound, openRound, RoundError, type RoundState } from '../round.js';
import { resolveRules } from '../rules.js';
import { BLACKJACK_CATALOGUE } from '../bets/catalogue.js';
import { openTable, startTableRound, tableCardOut, tablePhase, tableShuffled, voidTableRound } from '../table.js';
import { carriedContributions, contributions, EXAMPLE_JACKPOT_PROGRAM, JackpotProgramError, parseJackpotProgram, type JackpotProgram } from './program.js';
import { openJackpot, poolsInPlay, settleJackpot, type JackpotState } from './settle.js';

const cards = (s: string): Card[] => s.split(' ').map(parseCard);

// One level, the text's single «acumulado»: four suited aces take the pool; three 7s pay 500;
// a suited Black Jack pays 100 (figures of a test, not an approval).
const ONE_LEVEL: JackpotProgram = {
  reference: 'TEST',
  stake: 1,
  incrementBasisPoints: 5_000,
  levels: [{ level: 'main', start: 10_000, reset: 10_000, share: 10_000 }],
  awards: [
    { combination: 'four-aces-suited', level: 'main', pays: 'pool' },
    { combination: 'three-sevens', level: 'main', pays: { fixed: 500 } },
    { combination: 'suited-blackjack', level: 'main', pays: { fixed: 100 } },
  ],
};
const at = (program: JackpotProgram, pools: Record<string, number>): JackpotState => ({
  program,
  pools,
  unfunded: Object.fromEntries(Object.keys(pools).map((k) => [k, 0])),
});

/** Plays a scripted round: two-letter items are cards, the others decisions. */
function play(round: RoundState, script: string): RoundState {
  let r = round;
  for (const x of script.split(' ')) {
    if (isCardCode(x)) r = dealCard(r, parseCard(x));
    else r = decideRound(r, { type: x as 'hit' | 'stand' | 'split' });
  }
  return r;
}

describe('Portugal progressive jackpot (rules 38–50)', () => {
  const rules = (extra: Record<string, unknown> = {}) => resolveRules('portugal-2001', { jackpot: true, jackpotCards: 3, authorisation: 'TEST-IGJ', ...extra });

  it("rule 40: the pools grow by the authority's percentage of every chip, shared by the levels", () => {
    // The case: a 5000 pool after two 100 stakes no longer stays 5000.
    const program: JackpotProgram = {
      ...ONE_LEVEL,
      stake: 100,
      incrementBasisPoints: 1_000,
      levels: [{ level: 'main', start: 1_000_000, reset: 1_000_000, share: 10_000 }],
    };
    const { moves, state } = settleJackpot(
      [
        { seat: 1, hand: 0, stake: 100, cards: cards('2C 3D') },
        { seat: 2, hand: 0, stake: 100, cards: cards('4C 5D') },
      ],
      at(program, { main: 5_000 }),
    );
    assert.equal(state.pools.main, 5_020, '10% of 200');
    assert.deepEqual(moves, [{ level: 'main', before: 5_000, funded: 0, contribution: 20, award: 0, hits: 0, seed: 0, after: 5_020 }]);
    // Two levels, 80/20 of 20%: whole units to each level in one round (a fraction is carried: the next test).
    assert.deepEqual(contributions(EXAMPLE_JACKPOT_PROGRAM, 300), { main: 48, minor: 12 });
    assert.deepEqual(contributions(EXAMPLE_JACKPOT_PROGRAM, 3), { main: 0, minor: 0 });
  });

  it('a fixed award above what its level starts or resets to is refused: one hit after a reset would be paid short', () => {
    // The reviewer's program: a level of 10,000 and three 7s paying a fixed 50,000, accepted before
    // and paid 10,000 to a single winner (the level pays what it holds, docs/rules/blackjack.md).
    const short: JackpotProgram = {
      ...ONE_LEVEL,
      awards: [
        { combination: 'four-aces-suited', level: 'main', pays: 'pool' },
        { combination: 'three-sevens', level: 'main', pays: { fixed: 50_000 } },
      ],
    };
    assert.throws(
      () => parseJackpotProgram(short),
      (e: unknown) =>
        e instanceof JackpotProgramError &&
        /three-sevens pays a fixed 50000 from level "main", which starts at 10000/.test(e.message) &&
        /resets to 10000/.test(e.message),
    );
    const later = { ...short, levels: [{ level: 'main', start: 60_000, reset: 10_000, share: 10_000 }] };
    assert.throws(() => parseJackpotProgram(later), /three-sevens pays a fixed 50000 from level "main", which resets to 10000/);
    assert.doesNotThrow(() => parseJackpotProgram({ ...short, levels: [{ level: 'main', start: 50_000, reset: 50_000, share: 10_000 }] }));
  });

  it('rule 44: a level starting or reset below 10,000 × the stake is refused, naming the rule', () => {
    assert.doesNotThrow(() => parseJackpotProgram(EXAMPLE_JACKPOT_PROGRAM));
    const low = { ...EXAMPLE_JACKPOT_PROGRAM, levels: [{ level: 'main', start: 999_999, reset: 1_000_000, share: 10_000 }] };
    assert.throws(
      () => parseJackpotProgram(low),
      (e: unknown) => e instanceof JackpotProgramError && /starts at 999999.*rule 44/.test(e.message),
    );
    const lowReset = { ...EXAMPLE_JACKPOT_PROGRAM, levels: [{ level: 'main', start: 1_000_000, reset: 5, share: 10_000 }] };
    // Rule 44 names only the start value; the reset held to it is our reading, and the refusal says so (a review of 4 December).
    assert.throws(() => parseJackpotProgram(lowReset), /resets to 5.*rule 44, our reading: the «valor de arranque» again after an award/);
    assert.throws(() => parseJackpotProgram({ ...EXAMPLE_JACKPOT_PROGRAM, stake: 0 }), JackpotProgramError);
    assert.throws(
      () => parseJackpotProgram({ ...EXAMPLE_JACKPOT_PROGRAM, levels: [{ level: 'main', start: 1_000_000, reset: 1_000_000, share: 9_000 }] }),
      /sum to 9000/,
    );
    // A table opens every level at its start value, which the next settlement journals.
    const open = openJackpot(EXAMPLE_JACKPOT_PROGRAM);
    assert.deepEqual(open.pools, { main: 1_000_000, minor: 1_000_000 });
    assert.deepEqual(open.unfunded, { main: 1_000_000, minor: 1_000_000 });
  });

  it('rule 47: the jackpot bet is one chip of the amount fixed beforehand', () => {
    const jackpot = openJackpot(EXAMPLE_JACKPOT_PROGRAM);
    assert.throws(
      () => openRound({ rules: rules(), seats: [{ seat: 1, bets: { main: 100, jackpot: 200 } }], jackpot }),
      (e: unknown) => e instanceof RoundError && /one chip of 100.*rule 47/.test(e.message),
    );
    assert.doesNotThrow(() => openRound({ rules: rules(), seats: [{ seat: 1, bets: { main: 100, jackpot: 100 } }], jackpot }));
    assert.throws(() => openRound({ rules: rules(), seats: [{ seat: 1, bets: { main: 100, jackpot: 100 } }] }), /needs the jackpot program/);
  });

  it('rule 50: smaller awards first, the rest of the pool split among the top holders, the odd unit rounded up by the house', () => {
    const { results, moves } = settleJackpot(
      [
        { seat: 1, hand: 0, stake: 1, cards: cards('AS AS AS AS') },
        { seat: 2, hand: 0, stake: 1, cards: cards('7S 7H 7D') },
        { seat: 3, hand: 0, stake: 1, cards: cards('AH KH') },
        { seat: 4, hand: 0, stake: 1, cards: cards('AD AD AD AD') },
        { seat: 5, hand: 0, stake: 1, cards: cards('2C 3C') },
      ],
      at(ONE_LEVEL, { main: 10_000 }),
    );
    // 10,000 + 50% of 5 chips (2) = 10,002; 100 and 500 first; 9,402 split: 4,701 each.
    assert.deepEqual(
      results.map((r) => [r.seat, r.award, r.shared ?? false]),
      [
        [1, 4_701, true],
        [2, 500, false],
        [3, 100, false],
        [4, 4_701, true],
        [5, 0, false],
      ],
    );
    // Empty after the top award: the house brings it back to the reset value (rule 44).
    assert.deepEqual(moves, [{ level: 'main', before: 10_000, funded: 0, contribution: 2, award: 10_002, hits: 4, seed: 10_000, after: 10_000 }]);
    const odd = settleJackpot(
      [
        { seat: 1, hand: 0, stake: 1, cards: cards('AS AS AS AS') },
        { seat: 2, hand: 0, stake: 1, cards: cards('AD AD AD AD') },
      ],
      at(ONE_LEVEL, { main: 10_000 }),
    );
    assert.deepEqual(
      odd.results.map((r) => r.award),
      [5_001, 5_001],
    );
    assert.deepEqual(
      odd.moves,
      [{ level: 'main', before: 10_000, funded: 0, contribution: 1, award: 10_002, hits: 2, rounding: 1, seed: 10_000, after: 10_000 }],
      'the odd unit (10,001 / 2) is added by the house, not kept by it',
    );
  });

  it('rule 50 b): a pool that does not divide is shared in equal shares rounded up, the house covering the units (never rounded against the player)', () => {
    const program: JackpotProgram = { ...ONE_LEVEL, levels: [{ level: 'main', start: 1_000_000, reset: 1_000_000, share: 10_000 }] };
    const aces = ['AS AS AS AS', 'AD AD AD AD', 'AH AH AH AH'];
    // 1,000,020 + 50% of the chips of 1 (one unit for two or three chips): 1,000,021 to share.
    for (const [n, share, rounding] of [
      [2, 500_011, 1],
      [3, 333_341, 2],
    ] as const) {
      const entries = aces.slice(0, n).map((c, i) => ({ seat: i + 1, hand: 0, stake: 1, cards: cards(c) }));
      const { results, moves, state } = settleJackpot(entries, at(program, { main: 1_000_020 }));
      const awards = results.map((r) => r.award);
      assert.deepEqual(awards, Array<number>(n).fill(share), `${n} sharers: each ⌈1,000,021 / ${n}⌉`);
      assert.ok(
        awards.every((a) => a * n >= 1_000_021),
        'no sharer gets less than an equal part of the pool',
      );
      const move = moves[0]!;
      assert.deepEqual(move, {
        level: 'main',
        before: 1_000_020,
        funded: 0,
        contribution: 1,
        award: share * n,
        hits: n,
        rounding,
        seed: 1_000_000,
        after: 1_000_000,
      });
      assert.ok(rounding <= n - 1, 'the house covers less than one unit a sharer');
      // The house's top-up (the rounding before the award, the seed after it) is exactly what keeps the pool whole.
      assert.equal(move.before + move.contribution + rounding - move.award + move.seed, move.after);
      assert.equal(state.pools.main, 1_000_000, 'back at its reset value (rule 44)');
    }
  });

  it('rule 40: the fraction of a minor unit a round leaves is carried to the next, never kept by the house (issue 33 item 11)', () => {
    // Half a unit a chip (50% of a chip of 1): one unit every second round, none lost.
    let state = at(ONE_LEVEL, { main: 10_000 });
    const added: number[] = [];
    for (let i = 0; i < 4; i++) {
      const r = settleJackpot([{ seat: 1, hand: 0, stake: 1, cards: cards('2C 3D') }], state);
      added.push(r.moves[0]?.contribution ?? -1);
      // The pools a round plays for (rule 41) count the fraction carried in.
      assert.equal(poolsInPlay(state, 1).main, state.pools.main! + (i % 2 === 1 ? 1 : 0));
      state = r.state;
    }
    assert.deepEqual(added, [0, 1, 0, 1]);
    assert.equal(state.pools.main, 10_002);
  });

  it('rule 40 in whole units however large the chips: stake × basis points × share past 2^53 loses no unit and carries the exact fraction', () => {
    // 20% of the chips, 80% of that to `main` and 20% to `minor`: 1.6 × 10^7 parts a unit staked.
    // 10^9 units of chips in a round (a stadium's, or a large chip) is 1.6 × 10^16 parts, past
    // Number.MAX_SAFE_INTEGER: a double there counts in steps of 2 and its remainder is wrong.
    const stake = 1_000_000_007;
    const carry = { main: 99_999_999, minor: 12_345_678 };
    const { added, carry: left } = carriedContributions(EXAMPLE_JACKPOT_PROGRAM, stake, carry);
    for (const l of EXAMPLE_JACKPOT_PROGRAM.levels) {
      const parts = BigInt(stake) * BigInt(EXAMPLE_JACKPOT_PROGRAM.incrementBasisPoints) * BigInt(l.share) + BigInt(carry[l.level as 'main' | 'minor']);
      assert.equal(added[l.level], Number(parts / 100_000_000n), `${l.level}: the whole units`);
      assert.equal(left[l.level], Number(parts % 100_000_000n), `${l.level}: the fraction carried`);
    }
    // A total no integer holds is refused, not rounded.
    assert.throws(() => carriedContributions(EXAMPLE_JACKPOT_PROGRAM, 2 ** 53), RangeError);
  });

  it('a fixed award is never more than its level holds', () => {
    const { results, moves } = settleJackpot([{ seat: 1, hand: 0, stake: 1, cards: cards('7S 7H 7D') }], at(ONE_LEVEL, { main: 300 }));
    assert.equal(results[0]?.award, 300);
    assert.equal(moves[0]?.seed, 10_000);
  });

  it("rules 42–43, 46: the player's first cards as dealt, split pairs included; paid whatever the main result", () => {
    const opened = openRound({
      rules: rules(),
      seats: [{ seat: 1, bets: { main: 100, jackpot: 100 } }],
      jackpot: openJackpot(EXAMPLE_JACKPOT_PROGRAM),
    });
    // 7-7 split against a 10: the first split hand draws 7D — the player's first three cards are
    // 7S 7H 7D (three sevens), though no one hand holds them; the hand then goes 7-7-5, the
    // second hand 7-5-10 busts.
    const round = play(opened, '7S TD 7H 9C split 7D hit 5C stand 5S hit TS');
    assert.equal(round.done, true);
    const jp = round.lines.filter((l) => l.bet === 'jackpot');
    assert.deepEqual(
      jp.map((l) => [l.hand, l.stake, l.net, l.rule]),
      [[0, 100, 19_900, 'portugal-2001 rules 42-43']],
    );
    assert.deepEqual(
      round.lines.filter((l) => l.bet === 'main').map((l) => l.net),
      [-100, 0],
      'one hand busts: the award is paid all the same (rule 43)',
    );
    const s = round.jackpot;
    assert.deepEqual(s?.state.pools, { main: 1_000_016, minor: 1_000_000 });
    assert.deepEqual(
      s?.moves.map((m) => [m.level, m.funded, m.contribution, m.award, m.seed]),
      [
        ['main', 1_000_000, 16, 0, 0],
        ['minor', 1_000_000, 4, 20_000, 19_996],
      ],
      'the start values are journalled with the first settlement',
    );
  });

  it('rule 50 orders awards only when the round has more than one winning combination: a lone award cites rules 42-43 alone', () => {
    const two = play(
      openRound({
        rules: rules({ jackpotCards: 2 }),
        seats: [
          { seat: 1, bets: { main: 100, jackpot: 100 } },
          { seat: 2, bets: { main: 100, jackpot: 100 } },
        ],
        jackpot: openJackpot(EXAMPLE_JACKPOT_PROGRAM),
      }),
      'AH AS 5C KH KS 9D',
    );
    assert.equal(two.done, true);
    assert.deepEqual(
      two.lines.filter((l) => l.bet === 'jackpot').map((l) => [l.seat, l.net, l.rule]),
      [
        [1, 2_400, 'portugal-2001 rules 42-43, 50 a)'],
        [2, 2_400, 'portugal-2001 rules 42-43, 50 a)'],
      ],
      'two suited Black Jacks in one round: rule 50 a) orders them',
    );
    const one = play(
      openRound({
        rules: rules({ jackpotCards: 2 }),
        seats: [
          { seat: 1, bets: { main: 100, jackpot: 100 } },
          { seat: 2, bets: { main: 100, jackpot: 100 } },
        ],
        jackpot: openJackpot(EXAMPLE_JACKPOT_PROGRAM),
      }),
      'AH TS 5C KH 9D 7C stand TD',
    );
    assert.equal(one.done, true);
    assert.deepEqual(
      one.lines.filter((l) => l.bet === 'jackpot').map((l) => [l.seat, l.net, l.rule]),
      [
        [1, 2_400, 'portugal-2001 rules 42-43'],
        [2, -100, 'portugal-2001 rules 46, 48'],
      ],
      'one award in the round: rule 50 does not apply',
    );
  });

  it('a fixed award its level cannot pay whole is paid what the level holds, its line saying that is the house reading (rules 42-43, 50 a) do not say it)', () => {
    // Two suited Black Jacks of a fixed 6,000 each from a level of 10,000: rule 50 a) pays the
    // smaller first; the second is paid what is left, which no rule says.
    const program: JackpotProgram = {
      ...ONE_LEVEL,
      awards: [
        { combination: 'four-aces-suited', level: 'main', pays: 'pool' },
        { combination: 'suited-blackjack', level: 'main', pays: { fixed: 6_000 } },
      ],
    };
    const r = play(
      openRound({
        rules: rules({ jackpotCards: 2 }),
        seats: [
          { seat: 1, bets: { main: 1, jackpot: 1 } },
          { seat: 2, bets: { main: 1, jackpot: 1 } },
        ],
        jackpot: openJackpot(parseJackpotProgram(program)),
      }),
      'AH AS 5C KH KS 9D',
    );
    assert.equal(r.done, true);
    assert.deepEqual(
      r.lines.filter((l) => l.bet === 'jackpot').map((l) => [l.seat, l.net, l.rule]),
      [
        [1, 5_999, 'portugal-2001 rules 42-43, 50 a)'],
        [2, 4_000, 'portugal-2001 rules 42-43, 50 a); house reading, no article: short, level empty'],
      ],
    );
  });

  it('rule 42, the other reading (jackpotSplitCards: each-hand): each split hand on its own cards', () => {
    const opened = openRound({
      rules: rules({ jackpotSplitCards: 'each-hand' }),
      seats: [{ seat: 1, bets: { main: 100, jackpot: 100 } }],
      jackpot: openJackpot(EXAMPLE_JACKPOT_PROGRAM),
    });
    const round = play(opened, '7S TD 7H 9C split 7D hit 5C stand 5S hit TS');
    const jp = round.lines.filter((l) => l.bet === 'jackpot');
    assert.deepEqual(
      jp.map((l) => [l.hand, l.stake, l.net]),
      [[0, 100, -100]],
      'no hand holds three sevens',
    );
    assert.ok(jp[0]?.choices?.includes('jackpotSplitCards=each-hand'), 'the line names the reading it was settled under');
  });

  it('rule 41: the pools a round plays for rise when the chips are collected; a void leaves them as they were', () => {
    const c = { rules: rules(), catalogue: BLACKJACK_CATALOGUE };
    let t = tableShuffled(c, openTable(openJackpot(EXAMPLE_JACKPOT_PROGRAM)), 1);
    while (tablePhase(t) === 'burn') t = tableCardOut(c, t, parseCard('2C'));
    t = startTableRound(c, t, [
      { seat: 1, bets: { main: 100, jackpot: 100 } },
      { seat: 2, bets: { main: 100, jackpot: 100 } },
    ]);
    assert.deepEqual(t.round?.jackpotPools, { main: 1_000_032, minor: 1_000_008 });
    t = voidTableRound(c, t);
    assert.deepEqual(t.jackpot?.pools, { main: 1_000_000, minor: 1_000_000 });
    assert.deepEqual(t.jackpot?.unfunded, { main: 1_000_000, minor: 1_000_000 }, 'still to be journalled');
  });
});

describe('bets behind: who decides (Macau Art. 20 n.1; Portugal rule 16)', () => {
  const seat = {
    seat: 2,
    bets: { main: 100 },
    behind: [
      { owner: 'b', main: 300 },
      { owner: 'c', main: 300 },
    ],
  };
  const decider = (rules: ReturnType<typeof resolveRules>, seated = true): string => {
    let round = openRound({ rules, seats: [{ ...seat, seated }] });
    for (const c of cards('TS 9H 8D 7C')) if (round.expected.kind === 'card') round = dealCard(round, c);
    const x = round.expected;
    assert.equal(x.kind, 'decision');
    return x.kind === 'decision' ? x.decider : '';
  };
  it('seated player, nearest bettor, highest bet (ties to the first placed), vacant seat', () => {
    assert.equal(decider(resolveRules('macau-2009')), 'seat:2');
    assert.equal(decider(resolveRules('macau-2009', { betBehind: 'seated-or-nearest', authorisation: 'TEST-DICJ' }), false), 'b');
    assert.equal(decider(resolveRules('macau-2009', { betBehind: 'highest-bet', authorisation: 'TEST-DICJ' })), 'b');
    assert.equal(decider(resolveRules('portugal-2001')), 'seat:2');
    assert.equal(decider(resolveRules('portugal-2001'), false), 'b');
  });
});
