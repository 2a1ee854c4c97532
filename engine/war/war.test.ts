import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseCard, RANKS, SUITS, type Card } from '../cards/card.js';
import { freshCards, shuffled } from '../cards/shoe.js';
import { Rng } from '../random/seeded-rng.js';
import {
  compareCards,
  longestWarCoup,
  newWarCoup,
  warDecide,
  warDecideOnBox,
  warExpected,
  WarInputError,
  warRank,
  warTakeCard,
  type WarCoup,
  type WarSeat,
} from './coup.js';
import { exactWar } from './exact.js';
import { WAR_OPTIONS } from './options.js';
import { WAR_MIN_SEATS_RULE, warTableGame } from './table-game.js';
import { parseWarProfile, WAR_PROFILES, WAR_RULES, warProfile } from './profiles.js';
import { settleWarBox, settleWarCoup, voidWarCoup } from './settle.js';
import { newWarShoe, warAfterCoup, warCutCardOut } from './shoe-session.js';
import { dealSimCoup, SIM_SEATS, simulateWar, summariseWar } from './simulate.js';

const MACAU = warProfile('macau');
const CHOOSE = { ...MACAU, mainBetOnTieWithTieBet: 'choose' as const };
const cards = (s: string): Card[] => s.split(/\s+/).filter(Boolean).map(parseCard);

function play(seats: WarSeat[], shoe: string, decisions: Record<number, 'war' | 'surrender'> = {}, profile = MACAU): WarCoup {
  let c = newWarCoup(seats, profile);
  const queue = cards(shoe);
  for (;;) {
    const e = warExpected(c);
    if (e.kind === 'complete') break;
    if (e.kind === 'decisions') {
      for (const s of e.seats) c = warDecide(c, s, decisions[s] ?? assert.fail(`no decision for seat ${s}`));
      continue;
    }
    const next = queue.shift();
    if (!next) assert.fail('the coup wants more cards');
    c = warTakeCard(c, next);
  }
  assert.equal(queue.length, 0, 'cards left over');
  return c;
}

const net = (c: WarCoup, profile = MACAU): Array<[number, string, number, number, string]> =>
  settleWarCoup(c, profile).map((l) => [l.seat, l.bet, l.stake, l.net, l.rule]);

describe('«Desafio ao Casino» dealing', () => {
  it('ranks ace high, then K … 2 (Art. 4)', () => {
    const order = ['A', 'K', 'Q', 'J', 'T', '9', '8', '7', '6', '5', '4', '3', '2'] as const;
    for (let i = 1; i < order.length; i++) assert.ok(warRank(order[i - 1] as 'A') > warRank(order[i] as 'A'));
    assert.equal(compareCards(parseCard('TS'), parseCard('TH')), 0, 'suits do not count');
  });

  it('deals one card to each betting seat from the left, then the croupier (Art. 5 n.2–3)', () => {
    let c = newWarCoup(
      [
        { seat: 5, bets: { main: 100 } },
        { seat: 2, bets: { tie: 10 } },
      ],
      MACAU,
    );
    const seen: string[] = [];
    for (const card of cards('9S 4H KD')) {
      const e = warExpected(c);
      assert.equal(e.kind, 'card');
      if (e.kind === 'card') seen.push(String(e.to));
      c = warTakeCard(c, card);
    }
    assert.deepEqual(seen, ['2', '5', 'croupier']);
    assert.deepEqual(warExpected(c), { kind: 'complete' });
    assert.throws(() => warTakeCard(c, parseCard('2C')), WarInputError);
  });

  it('after a tie waits for the decision, then burns three, deals the seat, burns three, deals the croupier', () => {
    let c = newWarCoup([{ seat: 1, bets: { main: 5000 } }], MACAU);
    c = warTakeCard(warTakeCard(c, parseCard('7S')), parseCard('7D'));
    assert.deepEqual(warExpected(c), { kind: 'decisions', seats: [1] });
    assert.throws(() => warTakeCard(c, parseCard('2C')), /waiting for the decision of seat\(s\) 1/);
    c = warDecide(c, 1, 'war');
    const steps: string[] = [];
    for (const card of cards('2C 3C 4C 9H 5C 6C 8C 8D')) {
      const e = warExpected(c);
      steps.push(e.kind === 'burn' ? `burn-${e.before}-${e.remaining}` : e.kind === 'card' ? `card-${e.to}` : e.kind);
      c = warTakeCard(c, card);
    }
    assert.deepEqual(steps, ['burn-1-3', 'burn-1-2', 'burn-1-1', 'card-1', 'burn-croupier-3', 'burn-croupier-2', 'burn-croupier-1', 'card-croupier']);
    assert.deepEqual(c.wars[1], { seatBurns: cards('2C 3C 4C'), seatCard: parseCard('9H'), croupierBurns: cards('5C 6C 8C'), croupierCard: parseCard('8D') });
  });

  it('refuses decisions that are not due and bad seats', () => {
    const c = play([{ seat: 1, bets: { main: 100 } }], 'AS KS');
    assert.throws(() => warDecide(c, 1, 'war'), /has no decision to make/);
    assert.throws(() => newWarCoup([], MACAU), WarInputError);
    assert.throws(() => newWarCoup([{ seat: 1, bets: {} }], MACAU), /has no bet/);
    assert.throws(() => newWarCoup([{ seat: 1, bets: { main: 1.5 } }], MACAU), /whole minor units/);
    assert.throws(
      () =>
        newWarCoup(
          [
            { seat: 1, bets: { main: 1 } },
            { seat: 1, bets: { main: 1 } },
          ],
          MACAU,
        ),
      /twice/,
    );
  });

  it('plays several wars one after the other in seat order', () => {
    const c = play(
      [
        { seat: 1, bets: { main: 100 } },
        { seat: 2, bets: { main: 100 } },
        { seat: 3, bets: { main: 100 } },
      ],
      // first cards 9 9 2 / croupier 9; seat 1 war: burns, 3; burns, 4; seat 2 war: burns, A; burns, K
      '9S 9H 2D 9C  2S 2H 2C 3S 5S 5H 5D 4S  6S 6H 6D AS 7S 7H 7D KS',
      { 1: 'war', 2: 'war' },
    );
    assert.deepEqual(net(c), [
      [1, 'main', 200, -200, WAR_RULES.warLower],
      [2, 'main', 200, 100, WAR_RULES.warHigher],
      [3, 'main', 100, -100, WAR_RULES.lose],
    ]);
  });
});

describe('«Desafio ao Casino» settlement (Art. 7)', () => {
  it('higher card wins the initial bet 1:1, lower loses it; a tie bet loses either way (n.1, n.2)', () => {
    assert.deepEqual(net(play([{ seat: 1, bets: { main: 5000, tie: 500 } }], 'AS KS')), [
      [1, 'main', 5000, 5000, 'macau-war [art.7] n.1'],
      [1, 'tie', 500, -500, 'macau-war [art.7] n.1'],
    ]);
    assert.deepEqual(net(play([{ seat: 1, bets: { main: 5000, tie: 500 } }], '2S 3S')), [
      [1, 'main', 5000, -5000, 'macau-war [art.7] n.2'],
      [1, 'tie', 500, -500, 'macau-war [art.7] n.2'],
    ]);
  });

  it('the worked example of n.5: 50 patacas in, 150 in play', () => {
    // 5000 avos initial bet; the player adds 5000 and the croupier 5000: 15000 in play.
    const seat = [{ seat: 1, bets: { main: 5000 } }];
    const war = (warCards: string): ReturnType<typeof net> => net(play(seat, `QS QH 2C 2D 2H ${warCards}`, { 1: 'war' }));
    // al.1 the player takes the 15000 in play, having staked 10000: +5000
    assert.deepEqual(war('KS 3C 3D 3H 4S'), [[1, 'main', 10000, 5000, 'macau-war [art.7] n.5 al.1']]);
    // al.2 the 15000 and as much again as the initial bet: receives 20000, +10000
    assert.deepEqual(war('4S 3C 3D 3H 4H'), [[1, 'main', 10000, 10000, 'macau-war [art.7] n.5 al.2']]);
    // al.3 the house takes the 15000: the player loses the 10000 staked
    assert.deepEqual(war('4S 3C 3D 3H AS'), [[1, 'main', 10000, -10000, 'macau-war [art.7] n.5 al.3']]);
  });

  it("a tie left undecided in time surrenders as the house's reading, citing no article: n.4 gives the choice, not a default", () => {
    // Art. 7 n.4: the player «pode optar por» surrender or war; nothing says what happens when it does not choose.
    const TIMED_OUT = 'macau-war house reading, no article: a tie left undecided in time surrenders';
    const tied = (timedOut: boolean) => {
      let c = newWarCoup([{ seat: 1, bets: { main: 5000 } }], MACAU, [{ station: 101, bets: { main: 800 } }]);
      for (const card of cards('8S 8C 8H')) c = warTakeCard(c, card);
      c = warDecide(c, 1, 'surrender', timedOut);
      return warDecideOnBox(c, 101, 'surrender', timedOut);
    };
    const lines = (c: WarCoup) => [...net(c), ...settleWarBox(c, MACAU, 0).map(({ station, line }) => [station, line.bet, line.stake, line.net, line.rule])];
    assert.deepEqual(lines(tied(true)), [
      [1, 'main', 5000, -2500, TIMED_OUT],
      [101, 'main', 800, -400, TIMED_OUT],
    ]);
    // Chosen in time, the same surrender is the player's own under n.4 1).
    assert.deepEqual(lines(tied(false)), [
      [1, 'main', 5000, -2500, 'macau-war [art.7] n.4 al.1'],
      [101, 'main', 800, -400, 'macau-war [art.7] n.4 al.1'],
    ]);
  });

  it('surrender loses half the initial bet, an odd minor unit rounded to the player (n.4 al.1)', () => {
    assert.deepEqual(net(play([{ seat: 1, bets: { main: 5000 } }], '8S 8H', { 1: 'surrender' })), [[1, 'main', 5000, -2500, 'macau-war [art.7] n.4 al.1']]);
    assert.equal(settleWarCoup(play([{ seat: 1, bets: { main: 101 } }], '8S 8H', { 1: 'surrender' }), MACAU)[0]?.net, -50);
    // A 1 unit stake loses nothing, and the line says 0, not -0.
    assert.ok(Object.is(settleWarCoup(play([{ seat: 1, bets: { main: 1 } }], '8S 8H', { 1: 'surrender' }), MACAU)[0]?.net, 0));
  });

  it('refuses a stake whose raise or prize is no longer an exact integer, rather than rounding it', () => {
    assert.throws(
      () => settleWarCoup(play([{ seat: 1, bets: { main: 2 ** 52 } }], 'QS QH 2C 2D 2H KS 3C 3D 3H 4S', { 1: 'war' }), MACAU),
      /seat 1 main stake after the raise/,
    );
    assert.throws(() => settleWarCoup(play([{ seat: 1, bets: { tie: 2 ** 50 } }], 'QS QH'), MACAU), /seat 1 tie result/);
  });

  it('a tie bet pays 10:1 (n.3); by default the main bet beside it is returned (interpretation)', () => {
    assert.deepEqual(net(play([{ seat: 1, bets: { main: 1000, tie: 100 } }], 'JS JD')), [
      [1, 'main', 1000, 0, 'macau-war interp:main-returned-with-tie-bet'],
      [1, 'tie', 100, 1000, 'macau-war [art.7] n.3'],
    ]);
    assert.deepEqual(net(play([{ seat: 1, bets: { tie: 100 } }], 'JS JD')), [[1, 'tie', 100, 1000, 'macau-war [art.7] n.3']]);
  });

  it('option `choose`: a player with a tie bet also chooses surrender or war for the main bet', () => {
    const c = play([{ seat: 1, bets: { main: 1000, tie: 100 } }], 'JS JD 2C 2D 2H 9S 3C 3D 3H 5S', { 1: 'war' }, CHOOSE);
    assert.deepEqual(net(c, CHOOSE), [
      [1, 'main', 2000, 1000, 'macau-war [art.7] n.5 al.1'],
      [1, 'tie', 100, 1000, 'macau-war [art.7] n.3'],
    ]);
  });

  it('a void coup returns every bet, the raise included (Art. 6)', () => {
    let c = newWarCoup(
      [
        { seat: 1, bets: { main: 1000, tie: 10 } },
        { seat: 2, bets: { main: 300 } },
      ],
      MACAU,
    );
    for (const card of cards('5S 9S 9H')) c = warTakeCard(c, card);
    c = warDecide(c, 2, 'war');
    assert.deepEqual(
      voidWarCoup(c).map((l) => [l.seat, l.bet, l.stake, l.net, l.rule]),
      [
        [1, 'main', 1000, 0, 'macau-war [art.6]'],
        [1, 'tie', 10, 0, 'macau-war [art.6]'],
        [2, 'main', 600, 0, 'macau-war [art.6]'],
      ],
    );
  });

  it('property: every coup settles, one line per bet, each rule with its fixed ratio of the initial bet', () => {
    // net / initial bet per rule, as read in docs/rules/war.md
    const RATIO: Record<string, number> = {
      [`main ${WAR_RULES.win}`]: 1,
      [`main ${WAR_RULES.lose}`]: -1,
      [`tie ${WAR_RULES.win}`]: -1,
      [`tie ${WAR_RULES.lose}`]: -1,
      [`tie ${WAR_RULES.tieBetWins}`]: 10,
      [`main ${WAR_RULES.surrender}`]: -0.5,
      [`main ${WAR_RULES.warHigher}`]: 1,
      [`main ${WAR_RULES.warTie}`]: 2,
      [`main ${WAR_RULES.warLower}`]: -2,
      [`main ${WAR_RULES.mainReturned}`]: 0,
    };
    const stake = fc.option(
      fc.integer({ min: 1, max: 1_000_000 }).map((x) => x * 2),
      { nil: undefined },
    );
    const seatsArb = fc
      .uniqueArray(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 7 })
      .chain((ids) => fc.tuple(...ids.map((seat) => fc.record({ seat: fc.constant(seat), bets: fc.record({ main: stake, tie: stake }) }))));
    fc.assert(
      fc.property(seatsArb, fc.integer(), fc.boolean(), fc.constantFrom(MACAU, CHOOSE), (seatsRaw, seed, goToWar, profile) => {
        const seats = seatsRaw
          .filter((s) => s.bets.main || s.bets.tie)
          .map((s) => ({ seat: s.seat, bets: Object.fromEntries(Object.entries(s.bets).filter(([, v]) => v)) }));
        if (seats.length === 0) return;
        const shoe = shuffled(freshCards(6), Rng.fromSeed(seed));
        let c = newWarCoup(seats, profile);
        let i = 0;
        for (let e = warExpected(c); e.kind !== 'complete'; e = warExpected(c)) {
          if (e.kind === 'decisions') for (const s of e.seats) c = warDecide(c, s, goToWar === (s % 2 === 0) ? 'war' : 'surrender');
          else c = warTakeCard(c, shoe[i++] as Card);
        }
        const lines = settleWarCoup(c, profile);
        const expected = seats.flatMap((s) => [...(s.bets.main ? [`${s.seat}:main`] : []), ...(s.bets.tie ? [`${s.seat}:tie`] : [])]).sort();
        assert.deepEqual(lines.map((l) => `${l.seat}:${l.bet}`).sort(), expected);
        for (const l of lines) {
          const initial = seats.find((s) => s.seat === l.seat)?.bets[l.bet as 'main' | 'tie'] as number;
          const ratio = RATIO[`${l.bet} ${l.rule}`];
          assert.ok(ratio !== undefined, `unexpected rule ${l.rule} on a ${l.bet} bet`);
          assert.equal(l.net, ratio * initial, `${l.rule}`);
          assert.ok(l.net >= -l.stake);
          assert.equal(l.stake, l.rule.includes('n.5') ? 2 * initial : initial);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('«Desafio ao Casino» profiles', () => {
  it('ships `macau` with the 12-card cut and passes its own check', () => {
    assert.deepEqual(parseWarProfile(JSON.parse(JSON.stringify(WAR_PROFILES.macau))), WAR_PROFILES.macau);
    assert.equal(MACAU.cutCardFromEnd, 12);
    assert.throws(() => parseWarProfile({ ...MACAU, mainBetOnTieWithTieBet: 'lost' }), /mainBetOnTieWithTieBet/);
    assert.throws(() => parseWarProfile({ ...MACAU, bonus: 1 }), /unknown field/);
    assert.throws(() => parseWarProfile({ ...MACAU, cutCardFromEnd: 11 }), /cutCardFromEnd: expected an integer 12–/);
    assert.throws(() => warProfile('portugal'), /unknown war profile/);
  });

  it('refuses a bad override naming the field (zod schema), and checks the cut card once warBurns is valid', () => {
    assert.throws(() => parseWarProfile({ ...MACAU, tiePays: 0 }), { message: 'profile.tiePays: expected an integer 1–100, got 0' });
    assert.throws(() => parseWarProfile({ ...MACAU, shuffling: 'machine' }), {
      message: 'profile.shuffling: expected one of shoe, automatic-shuffler, got "machine"',
    });
    assert.throws(() => parseWarProfile({ ...MACAU, tiePays: 8 }), { message: 'profile.tiePays: fixed at 10 by macau-war [art.7] n.3, got 8' });
    assert.throws(() => parseWarProfile({ ...MACAU, id: 'generic', warBurns: 4, cutCardFromEnd: 13 }), {
      message: 'profile.cutCardFromEnd: expected an integer 14–292, got 13',
    });
    assert.throws(() => parseWarProfile({ ...MACAU, warBurns: -1 }), { message: 'profile.warBurns: expected an integer 0–10, got -1' });
  });
});

describe('«Desafio ao Casino» exact calculator', () => {
  it('gives the published 6-deck tie-bet (10:1) and surrender figures', () => {
    const e = exactWar(MACAU);
    assert.equal(e.probabilities.tie, 23 / 311); // (24−1)/(312−1)
    assert.equal(Math.round(e.bets.tie.houseEdge * 100) / 100, 18.65);
    assert.equal(Math.round(e.bets.mainSurrender.houseEdge * 100) / 100, 3.7);
    // Macau pays +2 units on a tie in the war (n.5 al.2): 2.33%, under the 2.88% of the usual
    // rule that pays +1 there.
    assert.equal(Math.round(e.bets.main.houseEdge * 100) / 100, 2.33);
  });

  it('agrees with brute force over every ordered deal of a small shoe, burns included', () => {
    // 8 cards, one burn before each war card: every ordered 6-card deal through the coup machine.
    const shoe = cards('AS AH 5S 5H 5D 9S KS KH');
    const profile = { ...MACAU, warBurns: 1 };
    const sums = { war: 0, surrender: 0, tie: 0, n: 0 };
    const idx: number[] = [];
    const walk = (): void => {
      if (idx.length === 6) {
        const deal = idx.map((i) => shoe[i] as Card);
        for (const action of ['war', 'surrender'] as const) {
          let c = newWarCoup([{ seat: 1, bets: { main: 2, tie: 2 } }], { ...profile, mainBetOnTieWithTieBet: 'choose' });
          let k = 0;
          for (let e = warExpected(c); e.kind !== 'complete'; e = warExpected(c))
            c = e.kind === 'decisions' ? warDecide(c, 1, action) : warTakeCard(c, deal[k++] as Card);
          const [main, tie] = settleWarCoup(c, profile);
          sums[action] += (main?.net ?? 0) / 2;
          if (action === 'war') sums.tie += (tie?.net ?? 0) / 2;
        }
        sums.n++;
        return;
      }
      for (let i = 0; i < shoe.length; i++) {
        if (idx.includes(i)) continue;
        idx.push(i);
        walk();
        idx.pop();
      }
    };
    walk();
    const e = exactWar(
      profile,
      RANKS.map((r) => shoe.filter((c) => c.rank === r).length),
    );
    const close = (a: number, b: number): void => assert.ok(Math.abs(a - b) < 1e-9, `${a} vs ${b}`);
    close(e.bets.main.houseEdge, (-100 * sums.war) / sums.n);
    close(e.bets.mainSurrender.houseEdge, (-100 * sums.surrender) / sums.n);
    close(e.bets.tie.houseEdge, (-100 * sums.tie) / sums.n);
  });

  it('Monte Carlo (shoe and automatic shuffler) agrees with the exact figures within 4 standard errors', () => {
    const exact = exactWar(MACAU);
    for (const profile of [MACAU, { ...MACAU, shuffling: 'automatic-shuffler' as const }]) {
      const sim = summariseWar(simulateWar(profile, 200_000, 11));
      for (const bet of ['main', 'mainSurrender', 'tie'] as const) {
        const { houseEdge, standardError } = sim.bets[bet];
        assert.ok(Math.abs(houseEdge - exact.bets[bet].houseEdge) < 4 * standardError, `${profile.shuffling} ${bet}: ${houseEdge} ± ${standardError}`);
      }
    }
  });

  it('property: the simulator deals exactly as the coup machine from the same cards', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ rank: fc.constantFrom(...RANKS), suit: fc.constantFrom(...SUITS) }), { minLength: 12, maxLength: 12 }),
        (shoe: Card[]) => {
          let i = 0;
          const fast = dealSimCoup(MACAU, { draw: () => shoe[i++] as Card });
          let c = newWarCoup(SIM_SEATS, MACAU);
          let k = 0;
          for (let e = warExpected(c); e.kind !== 'complete'; e = warExpected(c)) {
            if (e.kind === 'decisions') for (const s of e.seats) c = warDecide(c, s, s === 1 ? 'war' : 'surrender');
            else c = warTakeCard(c, shoe[k++] as Card);
          }
          assert.equal(k, i);
          assert.deepEqual(settleWarCoup(fast, MACAU), settleWarCoup(c, MACAU));
          assert.deepEqual({ ...fast, options: null }, { ...c, options: null });
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('«Desafio ao Casino» shoe', () => {
  it('after the cut card the coup in progress finishes and the cards are reshuffled; the automatic shuffler has none', () => {
    let s = newWarShoe(MACAU);
    let step = warAfterCoup(s);
    assert.equal(step.next, 'deal');
    s = warCutCardOut(step.shoe);
    step = warAfterCoup(s);
    assert.equal(step.next, 'shuffle');
    assert.equal(step.shoe.coups, 0);
    const auto = warCutCardOut(newWarShoe({ shuffling: 'automatic-shuffler' }));
    assert.equal(warAfterCoup(auto).next, 'deal');
  });
});

describe('«Desafio ao Casino» the longest coup', () => {
  /** A coup where every hand ties the croupier and goes to war: the cards it took. */
  function everyHandAtWar(seats: number, box: boolean): number {
    let c = newWarCoup(
      Array.from({ length: seats }, (_, i) => ({ seat: i + 1, bets: { main: 100 } })),
      { mainBetOnTieWithTieBet: 'returned', warBurns: MACAU.warBurns },
      box ? [{ station: 101, bets: { main: 100 } }] : [],
    );
    let taken = 0;
    for (;;) {
      const e = warExpected(c);
      if (e.kind === 'complete') return taken;
      if (e.kind === 'decisions') for (const seat of e.seats) c = warDecide(c, seat, 'war');
      else if (e.kind === 'box-decisions') for (const st of e.stations) c = warDecideOnBox(c, st, 'war');
      else {
        // Every first card a five: each hand ties the croupier.
        c = warTakeCard(c, parseCard(e.kind === 'card' && e.phase === 'first' ? '5S' : '9H'));
        taken++;
      }
    }
  }

  it("is every hand at war: its card and the croupier's, then per hand three burns, a card, three burns, the croupier's (Art. 5, Art. 7 n.5)", () => {
    for (const [seats, box] of [
      [1, false],
      [5, false],
      [7, false],
      [7, true],
    ] as const) {
      const hands = seats + (box ? 1 : 0);
      assert.equal(longestWarCoup(hands, MACAU.warBurns), everyHandAtWar(seats, box), `${seats} seats${box ? ' and the box' : ''}`);
    }
    // More than the cards behind the Macau cut card (about twelve, [Art. 2] n.1) once two hands go to war.
    assert.ok(longestWarCoup(2, MACAU.warBurns) > MACAU.cutCardFromEnd);
  });
});

describe("the remote stations' box (a stadium): dealt like a seat, each bettor deciding for itself", () => {
  it("deals the box after the seats and before the croupier (Art. 5), then takes every bettor's choice before the war (Art. 7 n.4–5)", () => {
    const box = [
      { station: 102, bets: { main: 1_000 } },
      { station: 101, bets: { main: 3_001 } },
      { station: 103, bets: { main: 500, tie: 100 } },
    ];
    let c = newWarCoup([{ seat: 2, bets: { main: 1_000 } }], MACAU, box);
    assert.deepEqual(warExpected(c), { kind: 'card', to: 2, phase: 'first' });
    c = warTakeCard(c, parseCard('QS'));
    assert.deepEqual(warExpected(c), { kind: 'card', to: 'box', phase: 'first' });
    c = warTakeCard(c, parseCard('9C'));
    c = warTakeCard(c, parseCard('9D'));
    // 103 bet the tie: its main bet stands off under the default reading, so it has no choice.
    assert.deepEqual(warExpected(c), { kind: 'box-decisions', stations: [101, 102] });
    assert.throws(() => warTakeCard(c, parseCard('2C')), /waiting for the decision of station\(s\) 101, 102/);
    assert.throws(() => warDecideOnBox(c, 103, 'war'), /no decision to make on the box/);
    c = warDecideOnBox(c, 102, 'war');
    assert.throws(() => warDecideOnBox(c, 102, 'surrender'), /already decided/);
    assert.deepEqual(warExpected(c), { kind: 'box-decisions', stations: [101] });
    c = warDecideOnBox(c, 101, 'surrender');
    assert.deepEqual(warExpected(c), { kind: 'burn', before: 'box', seat: 'box', remaining: 3 });
    for (const x of cards('2C 2D 2H')) c = warTakeCard(c, x);
    assert.deepEqual(warExpected(c), { kind: 'card', to: 'box', phase: 'war' });
    c = warTakeCard(c, parseCard('4S'));
    for (const x of cards('3C 3D 3H')) c = warTakeCard(c, x);
    assert.deepEqual(warExpected(c), { kind: 'card', to: 'croupier', phase: 'war' });
    c = warTakeCard(c, parseCard('4H'));
    assert.deepEqual(warExpected(c), { kind: 'complete' });
    assert.deepEqual(settleWarCoup(c, MACAU), [{ seat: 2, bet: 'main', stake: 1_000, net: 1_000, rule: WAR_RULES.win }]);
    assert.deepEqual(
      settleWarBox(c, MACAU, 0).map((x) => [x.station, x.line.bet, x.line.stake, x.line.net, x.line.rule]),
      [
        // Surrender of an odd stake: the house takes half rounded down.
        [101, 'main', 3_001, -1_500, WAR_RULES.surrender],
        // Tie again in the war (al.2): the pot and an amount equal to the initial bet.
        [102, 'main', 2_000, 2_000, WAR_RULES.warTie],
        [103, 'main', 500, 0, WAR_RULES.mainReturned],
        [103, 'tie', 100, 1_000, WAR_RULES.tieBetWins],
      ],
    );
  });

  it('plays no war for the box when every bettor surrenders, and deals the box first when no seat bets', () => {
    let c = newWarCoup([], MACAU, [{ station: 101, bets: { main: 1_000 } }]);
    assert.deepEqual(warExpected(c), { kind: 'card', to: 'box', phase: 'first' });
    c = warTakeCard(c, parseCard('KC'));
    c = warTakeCard(c, parseCard('KD'));
    c = warDecideOnBox(c, 101, 'surrender');
    assert.deepEqual(warExpected(c), { kind: 'complete' });
    assert.deepEqual(
      settleWarBox(c, MACAU, 0).map((x) => x.line.net),
      [-500],
    );
    assert.throws(() => newWarCoup([], MACAU, [{ station: 101, bets: {} }]), /no bet on the box/);
    assert.throws(() => newWarCoup([], MACAU, []), /no seat has a bet/);
  });
});

describe('the reconstructed article numbers (docs/rules/war.md, "How the numbers are reconstructed")', () => {
  // The capture has no headings: each run of paragraphs numbered from 1., and each unnumbered
  // paragraph alone, is one article, in order. Art. 1 material (items 1)-5)), 2 shuffle and cut
  // (n.1-2), 3 a card out face up, 4 the order of the cards, 5 the deal (n.1-3), 6 the dealing
  // error, 7 the results (n.1-5, n.4 and n.5 with items). A review checked each citation against it.
  it("every bracketed article number is the one the text's structure gives", () => {
    const table = warTableGame('macau');
    const cited = {
      ...WAR_RULES,
      decks: WAR_OPTIONS.decks?.rules.macau?.article,
      cutCardFromEnd: WAR_OPTIONS.cutCardFromEnd?.rules.macau?.article,
      shuffling: WAR_OPTIONS.shuffling?.rules.macau?.article,
      tiePaysOption: WAR_OPTIONS.tiePays?.rules.macau?.article,
      warBurnsOption: WAR_OPTIONS.warBurns?.rules.macau?.article,
      minSeats: WAR_MIN_SEATS_RULE,
      corrections: table.rules.corrections.map((c) => ('rule' in c ? c.rule : c.forbiddenBy)).join(' | '),
    };
    assert.deepEqual(cited, {
      win: 'macau-war [art.7] n.1',
      lose: 'macau-war [art.7] n.2',
      tieBetWins: 'macau-war [art.7] n.3',
      surrender: 'macau-war [art.7] n.4 al.1',
      surrenderTimedOut: 'macau-war house reading, no article: a tie left undecided in time surrenders',
      tieChoice: 'macau-war [art.7] n.4',
      warHigher: 'macau-war [art.7] n.5 al.1',
      warTie: 'macau-war [art.7] n.5 al.2',
      warLower: 'macau-war [art.7] n.5 al.3',
      mainReturned: 'macau-war interp:main-returned-with-tie-bet',
      void: 'macau-war [art.6]',
      decks: 'macau-war [art.1] 1)',
      cutCardFromEnd: 'macau-war [art.2] n.1 ("antes das últimas doze cartas, aproximadamente")',
      shuffling: 'macau-war [art.1] 2)-4), [art.2] n.1-2',
      tiePaysOption: 'macau-war [art.7] n.3',
      warBurnsOption: 'macau-war [art.7] n.5',
      minSeats: 'macau-war [art.1] 5)',
      corrections: 'macau-war [art.6] | macau-war [art.6] | macau-war [art.3] | macau-war [art.3]',
    });
    assert.equal(table.rules.voidRule, 'macau-war [art.6]');
  });
});
