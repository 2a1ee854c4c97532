// Blackjack simulator throughput on one core (one thread): hands per second of the fast path
// with basic strategy, for a few rule sets and both shuffle modes; and, for scale, rounds per
// second through the full round state machine. Prints figures only; nothing asserts a timing.
import { freshCards, shuffled } from '../engine/cards/shoe.js';
import { Rng } from '../engine/random/seeded-rng.js';
import { BlackjackRound } from '../engine/blackjack/round.js';
import { resolveRules, type BlackjackRules } from '../engine/blackjack/rules.js';
import { FastBlackjack, edge, emptyTotals, type ShuffleMode } from '../engine/blackjack/simulator.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);

function fast(name: string, rules: BlackjackRules, mode: ShuffleMode): void {
  const sim = new FastBlackjack(rules, 1);
  const t = emptyTotals();
  sim.run(200_000, mode, t); // warm-up (JIT)
  const t0 = performance.now();
  let hands = 0;
  while (performance.now() - t0 < SECONDS * 1000) {
    sim.run(200_000, mode, t);
    hands += 200_000;
  }
  const s = (performance.now() - t0) / 1000;
  const e = edge(t.sum, t.sumSq, t.hands);
  console.log(
    `${name.padEnd(44)} ${mode.padEnd(10)} ${(hands / s / 1e6).toFixed(2).padStart(6)} M hands/s per core   (edge ${e.houseEdge.toFixed(2)}% ± ${e.stdErr.toFixed(2)}%)`,
  );
}

function stateMachine(rules: BlackjackRules): void {
  const rng = Rng.fromSeed(3);
  const shoe = shuffled(freshCards(rules.decks), rng);
  const t0 = performance.now();
  let rounds = 0;
  while (performance.now() - t0 < SECONDS * 1000) {
    const r = new BlackjackRound({ rules, seats: [{ seat: 1, bets: { main: 100 } }], firstRoundOfShoe: true });
    let i = (rounds * 17) % 200;
    while (!r.done) {
      const x = r.expected();
      if (x.kind === 'card') r.deal(shoe[i++]!);
      else if (x.kind === 'decision') r.decide({ type: x.legal.includes('stand') ? 'stand' : (x.legal[x.legal.length - 1] as 'continue') });
    }
    rounds++;
  }
  const s = (performance.now() - t0) / 1000;
  console.log(`${'round state machine (stand on everything)'.padEnd(55)} ${(rounds / s / 1e3).toFixed(0).padStart(6)} k rounds/s`);
}

const standard = resolveRules('macau-2009', {
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
fast('macau-2009 defaults + 4 side bets', resolveRules('macau-2009'), 'cut-card');
fast('macau-2009 defaults + 4 side bets', resolveRules('macau-2009'), 'every-hand');
fast('portugal-2001 defaults', resolveRules('portugal-2001'), 'cut-card');
stateMachine(resolveRules('macau-2009'));
