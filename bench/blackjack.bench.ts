// Blackjack simulator throughput on one core (one thread): hands per second of the fast path
// with basic strategy, for a few rule sets and both shuffle modes, each beside a bare
// shuffle-and-deal loop of the same shoe, generator and cards per hand measured just after it
// (bench/bare-deal.ts); and, for scale, rounds per second through the full round state machine.
// Prints figures only; nothing asserts a timing.
import { freshCards, shuffled } from '../engine/cards/shoe.js';
import { Rng } from '../engine/random/seeded-rng.js';
import { dealCard, decideRound, openRound } from '../engine/blackjack/round.js';
import { resolveRules, type BlackjackRules } from '../engine/blackjack/rules.js';
import { FastBlackjack, edge, emptyTotals, type ShuffleMode } from '../engine/blackjack/simulator.js';
import { bareBlackjackDeal, rate } from './bare-deal.js';
import { figure, QUICK, times } from './report.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? (QUICK ? 0.2 : 2));
const BATCH = QUICK ? 20_000 : 200_000;

function fast(name: string, rules: BlackjackRules, mode: ShuffleMode): void {
  const sim = new FastBlackjack(rules, 1);
  const t = emptyTotals();
  sim.run(BATCH, mode, t); // warm-up (JIT)
  const t0 = performance.now();
  let hands = 0;
  while (performance.now() - t0 < SECONDS * 1000) {
    sim.run(BATCH, mode, t);
    hands += BATCH;
  }
  const s = (performance.now() - t0) / 1000;
  const e = edge(t.sum, t.sumSq, t.hands);
  const bare = rate(SECONDS, bareBlackjackDeal({ ...shoeOf(rules), cardsPerHand: cardsPerHand(rules), mode, seed: 1, handsPerBatch: BATCH }));
  const r = figure({
    name: `simulator hand, ${name}, ${mode}`,
    unit: 'M hands/s',
    value: hands / s / 1e6,
    better: 'higher',
    baseline: { name: `bare shuffle-and-deal, same shoe, SimRng, ${cardsPerHand(rules).toFixed(2)} cards a hand`, value: bare / 1e6 },
  });
  console.log(
    `${name.padEnd(44)} ${mode.padEnd(10)} ${(hands / s / 1e6).toFixed(2).padStart(6)} M hands/s per core   (edge ${e.houseEdge.toFixed(2)}% ± ${e.stdErr.toFixed(2)}%)` +
      `   bare deal ${(bare / 1e6).toFixed(2)} M/s, ratio ${times(r)}`,
  );
}

function shoeOf(rules: BlackjackRules): { decks: number; cutAt: number; burnStart: number } {
  return {
    decks: rules.decks,
    cutAt: rules.decks * 52 - rules.cutCardFromEnd,
    burnStart: rules.burnAtShoeStart === 'decks' ? rules.decks : rules.burnAtShoeStart === 'one' ? 1 : 0,
  };
}

const perHand = new Map<BlackjackRules, number>();
/** Cards the simulator uses per hand under these rules, counted over an untimed run of its own rounds. */
function cardsPerHand(rules: BlackjackRules): number {
  const known = perHand.get(rules);
  if (known !== undefined) return known;
  const sim = new FastBlackjack(rules, 2);
  const { cutAt } = shoeOf(rules);
  const hands = QUICK ? 20_000 : 200_000;
  let cards = 0;
  sim.shuffle();
  for (let h = 0; h < hands; h++) {
    const before = sim.pos;
    sim.playRound();
    cards += sim.pos - before;
    if (sim.pos > cutAt) sim.shuffle();
  }
  perHand.set(rules, cards / hands);
  return cards / hands;
}

function stateMachine(rules: BlackjackRules): void {
  const rng = Rng.fromSeed(3);
  const shoe = shuffled(freshCards(rules.decks), rng);
  const t0 = performance.now();
  let rounds = 0;
  while (performance.now() - t0 < SECONDS * 1000) {
    let r = openRound({ rules, seats: [{ seat: 1, bets: { main: 100 } }], firstRoundOfShoe: true });
    let i = (rounds * 17) % 200;
    while (!r.done) {
      const x = r.expected;
      if (x.kind === 'card') r = dealCard(r, shoe[i++]!);
      else if (x.kind === 'decision') r = decideRound(r, { type: x.legal.includes('stand') ? 'stand' : (x.legal[x.legal.length - 1] as 'continue') });
    }
    rounds++;
  }
  const s = (performance.now() - t0) / 1000;
  console.log(`${'round state machine (stand on everything)'.padEnd(55)} ${(rounds / s / 1e3).toFixed(0).padStart(6)} k rounds/s`);
  figure({
    name: 'round state machine (stand on everything)',
    unit: 'k rounds/s',
    value: rounds / s / 1e3,
    better: 'higher',
    baseline: null,
    note: 'shown for scale beside the fast path; its cards come from one pre-shuffled shoe, so a shuffle-and-deal loop is not its bare counterpart',
  });
}

const standard = resolveRules('generic', {
  dealProcedure: 'macau-3',
  holeCard: 'peek',
  dealerSoft17: 'stand',
  surrender: 'none',
  fiveCardHalfPay: false,
  bonus678: 'none',
  anyPair: false,
  sevens: false,
  overUnder13: false,
});
console.log(`cores: this runs on one thread; ${SECONDS}s per line (BENCH_SECONDS to change)`);
fast('6 decks S17 DAS peek, no side bets', standard, 'cut-card');
fast('6 decks S17 DAS peek, no side bets', standard, 'every-hand');
if (!QUICK) {
  const macau = resolveRules('macau-2009');
  fast('macau-2009 defaults + 4 side bets', macau, 'cut-card');
  fast('macau-2009 defaults + 4 side bets', macau, 'every-hand');
  fast('portugal-2001 defaults', resolveRules('portugal-2001'), 'cut-card');
}
stateMachine(resolveRules('macau-2009'));
