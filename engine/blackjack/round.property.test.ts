// Property tests: under any profile and option mix, with any shuffled shoe and any legal choice
// at every prompt, the round ends settled and the money adds up.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { freshCards, shuffled } from '../cards/shoe.js';
import { Rng } from '../random/seeded-rng.js';
import { dealCard, decideRound, openRound, replayRound, type Action, type SeatEntry } from './round.js';
import { resolveRules, type ProfileId } from './rules.js';

const macauOverrides = fc.record(
  {
    dealerSoft17: fc.constantFrom('stand', 'hit', 'hit-ace-six'),
    dealerBlackjackTakes: fc.constantFrom('original-only', 'doubles-original-only', 'all'),
    doubleOn: fc.constantFrom('any-two', 'eleven'),
    surrender: fc.constantFrom('none', 'not-vs-ace', 'late'),
    maxHands: fc.integer({ min: 1, max: 5 }),
    evenMoney: fc.constantFrom('none', 'vs-ace', 'vs-ace-or-ten'),
    bonus678: fc.constantFrom('none', 'replaces-main', 'in-addition'),
    burnEachRound: fc.boolean(),
    perfectPairs: fc.boolean(),
    winningStreak: fc.constant(true),
  },
  { requiredKeys: [] },
);

const scenario = fc.record({
  profile: fc.constantFrom<ProfileId>('macau-2009', 'macau-2004', 'portugal-2001', 'generic'),
  overrides: macauOverrides,
  peek: fc.boolean(),
  seats: fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 7 }),
  bets: fc.array(
    fc.integer({ min: 1, max: 50 }).map((x) => x * 100),
    { minLength: 7, maxLength: 7 },
  ),
  withSides: fc.boolean(),
  behind: fc.boolean(),
  seed: fc.integer({ min: 0, max: 0x7fffffff }),
  choices: fc.array(fc.nat(), { minLength: 64, maxLength: 64 }),
});

type ScenarioT = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

// Free option mixes exercise the engine under the generic (analysis) profile; a regulated
// profile takes only what its text allows (procedure 3 for Macau 2009).
function rulesFor(s: ScenarioT): ReturnType<typeof resolveRules> {
  const o: Record<string, unknown> = {};
  if (s.profile === 'generic') {
    Object.assign(o, { oneSideBetPerPlayer: false }, s.overrides);
    if (s.peek) Object.assign(o, { dealProcedure: 'macau-3', holeCard: 'peek', burnBeforeDealerSecond: false });
  } else if (s.profile === 'macau-2009') {
    const { burnEachRound, perfectPairs, winningStreak, dealerSoft17, doubleOn } = s.overrides;
    // The scenarios bet every additional bet at once: the reading of Art. 13 that allows it.
    // Stand on soft 17 is refused by the 2009 text (Art. 6 1), 6)): only its readings are played here.
    const soft17 = dealerSoft17 === 'stand' ? undefined : dealerSoft17;
    Object.assign(o, { burnEachRound, perfectPairs, winningStreak, dealerSoft17: soft17, doubleOn, oneSideBetPerPlayer: false });
    for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
    if (s.peek) Object.assign(o, { dealProcedure: 'macau-3', holeCard: 'peek', burnBeforeDealerSecond: false });
    // Choices the text offers, set with the regulator's reference (Art. 21).
    o.authorisation = 'TEST-DICJ';
  } else if (s.profile === 'macau-2004') {
    o.oneSideBetPerPlayer = false;
    o.authorisation = 'TEST-DICJ';
  }
  return resolveRules(s.profile, o);
}

describe('blackjack round properties', () => {
  it('every round ends settled; each stake is settled once and no bet loses more than its stake', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const rules = rulesFor(s);
        const seats: SeatEntry[] = s.seats.map((seat, i) => {
          const main = s.bets[i] ?? 100;
          const sides = s.withSides && rules.anyPair ? { anyPair: 100, sevens: 100, over13: 100, under13: 100 } : {};
          const pairs = s.withSides && rules.perfectPairs ? { perfectPairs: 100 } : {};
          const streak = s.withSides && rules.winningStreak ? { streak: { '2': 100, '5': 100 } } : {};
          const bets: SeatEntry['bets'] = { main, ...sides, ...pairs, ...streak };
          const behind = s.behind && i === 0 ? [{ owner: 'b1', main: 200, followSplit: true, followDouble: false }] : [];
          return { seat, bets, behind };
        });
        let round = openRound({ rules, seats });
        const shoe = shuffled(freshCards(rules.decks), new Rng([s.seed | 1, 7, 11, 13]));
        let ci = 0;
        let k = 0;
        let insured = 0;
        for (let steps = 0; !round.done; steps++) {
          assert.ok(steps < 500, 'the round must end');
          const x = round.expected;
          if (x.kind === 'card') {
            round = dealCard(round, shoe[ci++]!);
          } else if (x.kind === 'decision') {
            const pick = x.legal[(s.choices[k++ % s.choices.length] ?? 0) % x.legal.length]!;
            if (pick === 'insurance') {
              const { min, max } = x.insurance!;
              const amount = min + ((s.choices[k++ % s.choices.length] ?? 0) % (max - min + 1));
              insured += amount;
              round = decideRound(round, { type: 'insurance', amount });
            } else {
              round = decideRound(round, { type: pick } as Action);
            }
          }
        }
        // The event log rebuilds the same round (recovery after a restart).
        const again = replayRound({ rules, seats }, round.log);
        assert.deepEqual(again.lines, round.lines);
        assert.deepEqual(again.hands, round.hands);
        const hands = round.hands;
        assert.ok(
          hands.every((h) => h.status !== 'open' && h.status !== 'stood' && h.status !== 'blackjack'),
          'every hand settled',
        );
        // Every card dealt is somewhere: hands, dealer, burns.
        const placed = hands.reduce((n, h) => n + h.cards.length, 0) + round.dealer.length + round.burns.length;
        assert.equal(placed, ci);
        const lines = round.lines;
        for (const l of lines) {
          assert.ok(Number.isSafeInteger(l.net) && Number.isSafeInteger(l.stake), 'whole minor units');
          assert.ok(l.net >= -l.stake, `a bet cannot lose more than its stake: ${JSON.stringify(l)}`);
        }
        // Each hand's main stake appears in exactly one main line of the seat owner.
        for (const h of hands) {
          const ls = lines.filter((l) => l.bet === 'main' && l.seat === h.seat && l.hand === h.hand && l.owner === undefined);
          assert.equal(ls.length, 1, `one main line for seat ${h.seat} hand ${h.hand}`);
          assert.equal(ls[0]!.stake, h.stake);
        }
        // Insurance staked = insurance settled.
        assert.equal(
          lines.filter((l) => l.bet === 'insurance').reduce((n, l) => n + l.stake, 0),
          insured,
        );
        // Side bets: one line each with its own stake.
        for (const seat of seats) {
          for (const bet of ['anyPair', 'sevens', 'over13', 'under13', 'perfectPairs'] as const) {
            const stake = seat.bets[bet];
            const staked = lines.filter((l) => l.seat === seat.seat && l.bet === bet && l.stake > 0);
            assert.equal(staked.length, stake ? 1 : 0, `${bet} of seat ${seat.seat}`);
          }
        }
        // Open streak bets are either settled or carried.
        const carried = new Map(round.streaks.map((x) => [x.seat, x]));
        for (const seat of seats) {
          for (const lvl of Object.keys(seat.bets.streak ?? {})) {
            const settled = lines.some((l) => l.seat === seat.seat && l.bet === `streak${lvl}`);
            const open = carried.get(seat.seat)?.bets[lvl as '2'] !== undefined;
            assert.ok(settled !== open, `streak ${lvl} of seat ${seat.seat} settled xor carried`);
          }
        }
      }),
      { numRuns: 400 },
    );
  });
});
