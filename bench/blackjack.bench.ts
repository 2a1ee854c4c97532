// Blackjack simulator throughput on one core (one thread): hands per second of the fast path
// with basic strategy, for a few rule sets and both shuffle modes, each beside a bare
// shuffle-and-deal loop of the same shoe, generator and cards per hand measured just after it
// (bench/bare-deal.ts); and rounds per second through the full round state machine, beside the
// same loop on the commit before the round became one step per move (bench/round-trees.ts).
// Prints figures only; nothing asserts a timing.
import { resolveRules, type BlackjackRules } from '../engine/blackjack/rules.js';
import { FastBlackjack, edge, emptyTotals, type ShuffleMode } from '../engine/blackjack/simulator.js';
import { bareBlackjackDeal, rate } from './bare-deal.js';
import { roundsPerSecond, SCENARIOS } from './round-loop.js';
import { commitModules, REPLAY_COMMIT, ROOT, treeModules } from './round-trees.js';
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

/**
 * Rounds a second through the round state machine (openRound / dealCard / decideRound), beside the
 * same loop on the last commit whose round replayed its log at every move, loaded into this
 * process (bench/round-trees.ts): their ratio is what one step per move saves. Under --quick the
 * old tree is not unpacked and the figure has no baseline.
 */
async function stateMachine(): Promise<void> {
  const now = await treeModules(ROOT);
  const old = QUICK ? null : await commitModules(REPLAY_COMMIT);
  for (const scenario of SCENARIOS) {
    roundsPerSecond(now, scenario, QUICK ? 0.05 : 0.5); // warm-up (JIT)
    if (old) roundsPerSecond(old.modules, scenario, 0.5);
    const value = roundsPerSecond(now, scenario, SECONDS);
    const before = old ? roundsPerSecond(old.modules, scenario, SECONDS) : null;
    const r = figure({
      name: scenario.name,
      unit: 'rounds/s',
      value,
      better: 'higher',
      baseline: old && before ? { name: `the same loop on ${old.commit}'s round, which replayed its log at every move`, value: before } : null,
      note: old
        ? 'the baseline is the code before, not bare work: the ratio is the new cost of a round in units of the old (below 1: faster)'
        : 'under --quick the old tree is not unpacked; its cards come from one pre-shuffled shoe, so a shuffle-and-deal loop is not its bare counterpart',
    });
    console.log(
      `${scenario.name.padEnd(72)} ${Math.round(value).toLocaleString('en').padStart(7)} rounds/s` +
        (before !== null
          ? `   before (${old?.commit}, replay per move) ${Math.round(before).toLocaleString('en')} rounds/s, ratio ${times(r)} (new/old speed ${(value / before).toFixed(1)}×)`
          : ''),
    );
  }
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
await stateMachine();
