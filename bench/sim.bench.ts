// `npm run bench -- sim`: the blackjack simulator's hands a second on one core, for the plain
// six-deck game and for Macau 2009 with its four additional bets (and Portugal 2001), in both
// shuffle modes, each beside a bare shuffle-and-deal of the same shoe, generator, shuffle and
// cards a hand (bench/bare-deal.ts) measured in the same process, interleaved with it.
//
// The machine is shared: other work takes the core away at random. So the figure is hands per
// second of this thread's CPU time (`process.threadCpuUsage`), not of the wall clock, and the
// simulator and the bare deal run in alternating slices, the order flipped each pair, so that a
// busy stretch falls on both. The headline is each side's median over the pairs; the spread
// (min–max of each, and of the pairs' own ratios) is printed beside it.
// Prints figures only; nothing asserts a timing.
import { PLAIN_SIX_DECK } from '../engine/blackjack/plain-game.js';
import { resolveRules, type BlackjackRules } from '../engine/blackjack/rules.js';
import { FastBlackjack, edge, emptyTotals, type ShuffleMode } from '../engine/blackjack/simulator.js';
import { bareBlackjackDeal } from './bare-deal.js';
import { figure, QUICK, times } from './report.js';

/** CPU seconds per slice, and pairs of slices (simulator, bare) per line. */
const SLICE = Number(process.env.BENCH_SECONDS ?? (QUICK ? 0.05 : 0.4));
const PAIRS = Number(process.env.BENCH_PAIRS ?? (QUICK ? 2 : 9));
const BATCH = QUICK ? 20_000 : 100_000;

const cpuSeconds = (): number => {
  const u = process.threadCpuUsage();
  return (u.user + u.system) / 1e6;
};

/** Runs `batch` until `seconds` of this thread's CPU time have passed; units per CPU second. */
function cpuRate(seconds: number, batch: () => number): number {
  const t0 = cpuSeconds();
  let units = 0;
  for (;;) {
    const t = cpuSeconds();
    if (t - t0 >= seconds) return units / (t - t0);
    units += batch();
  }
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

function shoeOf(rules: BlackjackRules): { decks: number; cutAt: number; burnStart: number } {
  return {
    decks: rules.decks,
    cutAt: rules.decks * 52 - rules.cutCardFromEnd,
    burnStart: rules.burnAtShoeStart === 'decks' ? rules.decks : rules.burnAtShoeStart === 'one' ? 1 : 0,
  };
}

/** Cards the simulator uses per hand under these rules, counted in cut-card play (the bare deal of either mode takes this figure) over an untimed run of its own rounds. */
function cardsPerHand(rules: BlackjackRules): number {
  const sim = new FastBlackjack(rules, 2);
  const { cutAt } = shoeOf(rules);
  const hands = QUICK ? 20_000 : 400_000;
  let cards = 0;
  sim.shuffle();
  for (let h = 0; h < hands; h++) {
    const before = sim.pos;
    sim.playRound();
    cards += sim.pos - before;
    if (sim.pos > cutAt) sim.shuffle();
  }
  return cards / hands;
}

function line(name: string, rules: BlackjackRules, mode: ShuffleMode): void {
  const sim = new FastBlackjack(rules, 1);
  const t = emptyTotals();
  const simBatch = (): number => {
    sim.run(BATCH, mode, t);
    return BATCH;
  };
  const perHand = cardsPerHand(rules);
  const bareBatch = bareBlackjackDeal({ ...shoeOf(rules), cardsPerHand: perHand, mode, seed: 1, handsPerBatch: BATCH });
  // Warm-up of both (JIT), untimed.
  cpuRate(SLICE, simBatch);
  cpuRate(SLICE, bareBatch);
  const sims: number[] = [];
  const bares: number[] = [];
  for (let p = 0; p < PAIRS; p++) {
    if (p % 2 === 0) {
      sims.push(cpuRate(SLICE, simBatch));
      bares.push(cpuRate(SLICE, bareBatch));
    } else {
      bares.push(cpuRate(SLICE, bareBatch));
      sims.push(cpuRate(SLICE, simBatch));
    }
  }
  const value = median(sims) / 1e6;
  const bare = median(bares) / 1e6;
  const pairRatios = sims.map((s, i) => (bares[i] as number) / s);
  const e = edge(t.sum, t.sumSq, t.hands);
  const r = figure({
    name: `simulator hand, ${name}, ${mode}`,
    unit: 'M hands/s',
    value,
    better: 'higher',
    baseline: { name: `bare shuffle-and-deal, same shoe, SimRng, ${perHand.toFixed(2)} cards a hand`, value: bare },
    note: `per second of the thread's CPU time; medians of ${PAIRS} interleaved pairs of ${SLICE} s slices; pair ratios ${Math.min(...pairRatios).toFixed(2)}–${Math.max(...pairRatios).toFixed(2)}×`,
  });
  const range = (xs: number[]) => `${(Math.min(...xs) / 1e6).toFixed(2)}–${(Math.max(...xs) / 1e6).toFixed(2)}`;
  console.log(
    `${name.padEnd(36)} ${mode.padEnd(10)} ${value.toFixed(2).padStart(6)} M hands/s/core (${range(sims)})` +
      `   bare deal ${bare.toFixed(2)} M/s (${range(bares)}), ratio ${times(r)}` +
      ` (pairs ${median(pairRatios).toFixed(2)}×, ${Math.min(...pairRatios).toFixed(2)}–${Math.max(...pairRatios).toFixed(2)})` +
      `   edge ${e.houseEdge.toFixed(2)}% ± ${e.stdErr.toFixed(2)}%`,
  );
}

const plain = resolveRules('generic', PLAIN_SIX_DECK);
console.log(`one thread; medians of ${PAIRS} interleaved pairs of ${SLICE} CPU-second slices (BENCH_PAIRS, BENCH_SECONDS); hands per CPU second`);
line('6 decks S17 DAS peek, no side bets', plain, 'cut-card');
line('macau-2009 defaults + 4 side bets', resolveRules('macau-2009'), 'cut-card');
if (!QUICK) {
  line('6 decks S17 DAS peek, no side bets', plain, 'every-hand');
  line('macau-2009 defaults + 4 side bets', resolveRules('macau-2009'), 'every-hand');
  line('portugal-2001 defaults', resolveRules('portugal-2001'), 'cut-card');
}
